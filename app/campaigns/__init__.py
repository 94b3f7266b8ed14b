"""Campaigns: their records, targeting, status, bulk edits, exports, change history and exchange
approvals."""
