"""alerts, alert_subscriptions, alert_clock: alerts raised once and cleared by the scheduled checks, each user's
alert settings, and the checks' one clock row (app/alerts).

Revision ID: 0024_alerts
Revises: 0023_list_sort_keys
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0024_alerts'
down_revision = '0023_list_sort_keys'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('alerts',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=24), nullable=False),
                    sa.Column('subject', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
                    sa.Column('open_key', sqlmodel.sql.sqltypes.AutoString(length=110), nullable=True),
                    sa.Column('owner_id', sa.Integer(), nullable=True),
                    sa.Column('title', sqlmodel.sql.sqltypes.AutoString(length=160), nullable=False),
                    sa.Column('detail', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False),
                    sa.Column('raised_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
                    sa.Column('cleared_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
                    sa.ForeignKeyConstraint(['owner_id'], ['users.id']),
                    sa.PrimaryKeyConstraint('id'),
                    sa.UniqueConstraint('open_key'))
    op.create_index(op.f('ix_alerts_kind'), 'alerts', ['kind'])
    op.create_index(op.f('ix_alerts_owner_id'), 'alerts', ['owner_id'])
    op.create_index(op.f('ix_alerts_cleared_at'), 'alerts', ['cleared_at'])
    op.create_table('alert_subscriptions',
                    sa.Column('user_id', sa.Integer(), nullable=False),
                    sa.Column('email_kinds', sa.JSON(), nullable=False),
                    sa.Column('low_balance_days', sa.Integer(), nullable=False),
                    sa.ForeignKeyConstraint(['user_id'], ['users.id']),
                    sa.PrimaryKeyConstraint('user_id'))
    op.create_table('alert_clock',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('next_due', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
                    sa.Column('lease_until', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
                    sa.PrimaryKeyConstraint('id'))


def downgrade() -> None:
    op.drop_table('alert_clock')
    op.drop_table('alert_subscriptions')
    op.drop_index(op.f('ix_alerts_cleared_at'), table_name='alerts')
    op.drop_index(op.f('ix_alerts_owner_id'), table_name='alerts')
    op.drop_index(op.f('ix_alerts_kind'), table_name='alerts')
    op.drop_table('alerts')
