"""Money on an advertiser's account: the append-only ledger, funds added by staff or card, and
delivery charges."""

# Loading the package registers the balance check that campaign activation needs and the delivery check's
# balance (no module imports these).
from app.funds import activation, diagnosis  # noqa: E402, F401
