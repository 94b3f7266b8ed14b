"""Money on an advertiser's account: the append-only ledger, funds added by staff or card, and
delivery charges."""

# Loading the package registers the balance check that campaign activation needs (no module imports this one).
from app.funds import activation  # noqa: E402, F401
