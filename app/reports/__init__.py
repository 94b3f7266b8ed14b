"""Saved reports, their runs (queued, scheduled, retried) and their CSV files."""
