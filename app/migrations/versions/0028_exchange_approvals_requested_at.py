"""The index on exchange_approvals.requested_at that the model has always declared (created_at_field) and 0009 did
not create: the approvals list pages newest first on it. tests/test_schema_matches_models.py now compares every
model with the migrated schema, so a model and its migrations cannot drift apart again unnoticed.

Revision ID: 0028_approvals_requested_at
Revises: 0027_clock_slots
Create Date: 2026-11-27
"""

from __future__ import annotations

from alembic import op

revision = '0028_approvals_requested_at'
down_revision = '0027_clock_slots'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_exchange_approvals_requested_at", "exchange_approvals", ["requested_at"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_exchange_approvals_requested_at", "exchange_approvals")
