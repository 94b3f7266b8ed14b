"""dsps: DSP connections (credentials only encrypted) and the ids each DSP gave our campaigns and creatives

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel.sql.sqltypes  # noqa: F401  (the module path autogenerate writes, named for mypy)
from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'dsps',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
        sa.Column('connector', sqlmodel.sql.sqltypes.AutoString(length=24), nullable=False),
        sa.Column('endpoint_url', sqlmodel.sql.sqltypes.AutoString(length=2048), nullable=False),
        sa.Column('credentials_encrypted', sa.Text(), nullable=False),
        sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column('exchange_ids', sa.JSON(), nullable=False),
        sa.Column('last_test_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column('last_test_ok', sa.Boolean(), nullable=True),
        sa.Column('last_test_message', sqlmodel.sql.sqltypes.AutoString(length=255), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('name'),
    )
    op.create_index(op.f('ix_dsps_status'), 'dsps', ['status'], unique=False)
    op.create_index(op.f('ix_dsps_created_at'), 'dsps', ['created_at'], unique=False)
    op.create_table(
        'dsp_associations',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('dsp_id', sa.Integer(), nullable=False),
        sa.Column('entity', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column('local_id', sa.Integer(), nullable=False),
        sa.Column('remote_id', sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
        sa.Column('synced_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column('attempted_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column('last_error', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False),
        sa.ForeignKeyConstraint(['dsp_id'], ['dsps.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('dsp_id', 'entity', 'local_id', name='uq_dsp_association'),
    )
    op.create_index(op.f('ix_dsp_associations_dsp_id'), 'dsp_associations', ['dsp_id'], unique=False)
    op.create_index('ix_dsp_associations_entity_local', 'dsp_associations', ['entity', 'local_id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_dsp_associations_entity_local', table_name='dsp_associations')
    op.drop_index(op.f('ix_dsp_associations_dsp_id'), table_name='dsp_associations')
    op.drop_table('dsp_associations')
    op.drop_index(op.f('ix_dsps_created_at'), table_name='dsps')
    op.drop_index(op.f('ix_dsps_status'), table_name='dsps')
    op.drop_table('dsps')
