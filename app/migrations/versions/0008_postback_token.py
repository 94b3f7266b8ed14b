"""postback token and deliveries: each client's conversion postback secret, and the forwards made

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24

The token is nullable (made on first need) with a unique index; NULLs never collide. batch_alter_table
rebuilds user_settings on SQLite and is plain ALTER TABLE on PostgreSQL.
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel.sql.sqltypes  # noqa: F401  (the module path autogenerate writes, named for mypy)
from alembic import op


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('user_settings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('postback_token', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True))
        batch_op.create_index(batch_op.f('ix_user_settings_postback_token'), ['postback_token'], unique=True)
    op.create_table(
        'postback_deliveries',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('advertiser_id', sa.Integer(), nullable=False),
        sa.Column('event', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column('url', sqlmodel.sql.sqltypes.AutoString(length=2048), nullable=False),
        sa.Column('status_code', sa.Integer(), nullable=True),
        sa.Column('error', sqlmodel.sql.sqltypes.AutoString(length=255), nullable=False),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['advertiser_id'], ['users.id']),
        sa.ForeignKeyConstraint(['user_id'], ['users.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    for column in ('user_id', 'advertiser_id', 'created_at'):
        op.create_index(op.f(f'ix_postback_deliveries_{column}'), 'postback_deliveries', [column], unique=False)


def downgrade() -> None:
    for column in ('created_at', 'advertiser_id', 'user_id'):
        op.drop_index(op.f(f'ix_postback_deliveries_{column}'), table_name='postback_deliveries')
    op.drop_table('postback_deliveries')
    with op.batch_alter_table('user_settings', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_user_settings_postback_token'))
        batch_op.drop_column('postback_token')
