"""Campaigns: their records, targeting, status, bulk edits, exports, change history and exchange
approvals."""

# Loading the package registers what campaigns count as uses of reference values, and how supply finds the
# campaigns using a list or an audience (no module imports these two).
# Loading the package declares its record kinds: the campaign status machine, its change logs' sources.
# Loading it registers the delivery checks campaigns answer themselves (app/campaigns/diagnosis).
from app.campaigns import (  # noqa: E402, F401
    diagnosis,
    exchange_approvals,
    history,
    list_usage,
    reference_usage,
    restore,
    service,
)
