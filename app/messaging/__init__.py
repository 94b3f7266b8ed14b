"""Mail (the outbox) and in-console notifications."""
