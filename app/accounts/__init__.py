"""People: sign-in and registration, impersonation, users, agencies and advertisers, their
configuration, the account lists, and what the console's shell shows of them (brand, balance)."""
