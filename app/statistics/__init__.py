"""Delivery statistics as people read them: ingestion (which charges the ledger), reads in the
caller's row scope, dashboards and conversion postbacks. The store itself is app/warehouse."""
