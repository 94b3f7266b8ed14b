"""Creatives: records, rules, links to campaigns, bulk actions and change history."""

# Loading the package registers what a campaign's clone takes from creatives: the original's creatives
# (app/campaigns/service.py CLONE_PARTS).
from app.creatives import links  # noqa: E402, F401
