"""Campaigns: their records, targeting, status, bulk edits, exports, change history and exchange
approvals."""

# Loading the package registers what campaigns count as uses of reference values (no module imports this one).
from app.campaigns import reference_usage  # noqa: E402, F401
