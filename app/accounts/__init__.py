"""People: sign-in and registration, impersonation, users, agencies and advertisers, their
configuration, the account lists, and what the console's shell shows of them (brand, balance)."""

# Loading the package declares the accounts' status machine.
from app.accounts import users  # noqa: E402, F401
