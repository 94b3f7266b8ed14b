"""Roles, the permission table, policy checks, passwords, sessions and tokens."""
