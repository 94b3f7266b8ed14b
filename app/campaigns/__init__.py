"""Campaigns: their records, targeting, status, bulk edits, exports, change history and exchange
approvals."""

# Loading the package registers what campaigns count as uses of reference values, and how supply finds the
# campaigns using a list or an audience (no module imports these two).
from app.campaigns import list_usage, reference_usage  # noqa: E402, F401
