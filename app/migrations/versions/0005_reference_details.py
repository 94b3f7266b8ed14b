"""reference details: an OS version's operating system, a carrier's country; campaign list sort index

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23

The operating_system kind needs no schema change (kind is text). Existing rows keep NULL details; the demo
seed (app/services/seed.py) adds the operating systems and links the versions and carriers it knows.
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel.sql.sqltypes  # noqa: F401  (the module path autogenerate writes, named for mypy)
from alembic import op


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('reference_values', schema=None) as batch_op:
        batch_op.add_column(sa.Column('parent_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('country', sqlmodel.sql.sqltypes.AutoString(length=2), nullable=True))
        batch_op.create_index(batch_op.f('ix_reference_values_parent_id'), ['parent_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_reference_values_country'), ['country'], unique=False)
        batch_op.create_foreign_key('fk_reference_values_parent_id', 'reference_values', ['parent_id'], ['id'])
    # The campaign list's default order (newest change first) reads this index instead of sorting the table.
    with op.batch_alter_table('campaigns', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_campaigns_updated_at'), ['updated_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('campaigns', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_campaigns_updated_at'))
    with op.batch_alter_table('reference_values', schema=None) as batch_op:
        batch_op.drop_constraint('fk_reference_values_parent_id', type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_reference_values_country'))
        batch_op.drop_index(batch_op.f('ix_reference_values_parent_id'))
        batch_op.drop_column('country')
        batch_op.drop_column('parent_id')
