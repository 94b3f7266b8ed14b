"""Creatives: records, rules, links to campaigns, bulk actions and change history."""

# Loading the package declares its record kind (the creative status machine and its change log's source) and
# registers what a campaign's clone takes from creatives: the original's creatives (app/campaigns/service.py
# CLONE_PARTS), and the delivery check's creatives (app/campaigns/diagnosis).
from app.creatives import diagnosis, history, links, records, restore  # noqa: E402, F401
