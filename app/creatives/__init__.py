"""Creatives: records, rules, links to campaigns, bulk actions and change history."""
