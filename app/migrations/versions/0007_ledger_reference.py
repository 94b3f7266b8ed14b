"""ledger reference: the idempotency key of a ledger entry (Stripe checkout session, statistics batch)

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24

Nullable, with a unique index: entries typed in by people carry none, and NULLs never collide (SQLite and
PostgreSQL alike). batch_alter_table rebuilds the table on SQLite and is plain ALTER TABLE on PostgreSQL.
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel.sql.sqltypes  # noqa: F401  (the module path autogenerate writes, named for mypy)
from alembic import op


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('ledger_entries', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reference', sqlmodel.sql.sqltypes.AutoString(length=191), nullable=True))
        batch_op.create_index(batch_op.f('ix_ledger_entries_reference'), ['reference'], unique=True)


def downgrade() -> None:
    with op.batch_alter_table('ledger_entries', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_ledger_entries_reference'))
        batch_op.drop_column('reference')
