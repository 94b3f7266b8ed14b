"""Creatives: records, rules, links to campaigns, bulk actions and change history."""

# Loading the package declares its record kind: the creative status machine and its change log's source.
from app.creatives import history, records  # noqa: E402, F401
