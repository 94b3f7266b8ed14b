"""Who is calling and what they may do: roles, the permission table, policy checks (actor and row scope),
users' records, passwords, sessions, API keys, feature preferences, tokens and the sign-in throttle."""
