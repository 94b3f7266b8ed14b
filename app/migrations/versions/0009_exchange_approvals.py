"""exchange approvals: one row per campaign x exchange, pending until staff approve or reject it

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel.sql.sqltypes  # noqa: F401  (the module path autogenerate writes, named for mypy)
from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('exchange_approvals',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('exchange_id', sa.Integer(), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('reason', sqlmodel.sql.sqltypes.AutoString(length=255), nullable=False),
    sa.Column('requested_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('decided_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('decided_by', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaigns.id'], ),
    sa.ForeignKeyConstraint(['exchange_id'], ['reference_values.id'], ),
    sa.ForeignKeyConstraint(['decided_by'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('campaign_id', 'exchange_id', name='uq_exchange_approvals_campaign_exchange')
    )
    with op.batch_alter_table('exchange_approvals', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_exchange_approvals_campaign_id'), ['campaign_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_exchange_approvals_exchange_id'), ['exchange_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_exchange_approvals_status'), ['status'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('exchange_approvals', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_exchange_approvals_status'))
        batch_op.drop_index(batch_op.f('ix_exchange_approvals_exchange_id'))
        batch_op.drop_index(batch_op.f('ix_exchange_approvals_campaign_id'))
    op.drop_table('exchange_approvals')
