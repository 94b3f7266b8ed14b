"""What changed, by whom: the audit trail every domain writes, and the change logs read from it."""
