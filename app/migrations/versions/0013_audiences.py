"""audiences: device-id lists and retargeting audiences of an advertiser, and the devices of the lists

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26

audience_devices has no surrogate key: (audience_id, device_id) is its primary key, the uniqueness rule and
its only index. device_id is the UUID's 16 bytes (BLOB on SQLite, bytea on PostgreSQL).
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel.sql.sqltypes  # noqa: F401  (the module path autogenerate writes, named for mypy)
from alembic import op


revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'audiences',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('advertiser_id', sa.Integer(), nullable=False),
        sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
        sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column('event', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column('lookback_days', sa.Integer(), nullable=True),
        sa.Column('device_count', sa.Integer(), nullable=False),
        sa.Column('last_upload', sa.JSON(), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['advertiser_id'], ['users.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    for column in ('advertiser_id', 'name', 'status', 'created_at'):
        op.create_index(op.f(f'ix_audiences_{column}'), 'audiences', [column], unique=False)
    op.create_table(
        'audience_devices',
        sa.Column('audience_id', sa.Integer(), nullable=False),
        sa.Column('device_id', sa.LargeBinary(length=16), nullable=False),
        sa.ForeignKeyConstraint(['audience_id'], ['audiences.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('audience_id', 'device_id'),
        sqlite_with_rowid=False,  # SQLite: the key's B-tree is the table (PostgreSQL ignores it)
    )


def downgrade() -> None:
    op.drop_table('audience_devices')
    for column in ('created_at', 'status', 'name', 'advertiser_id'):
        op.drop_index(op.f(f'ix_audiences_{column}'), table_name='audiences')
    op.drop_table('audiences')
