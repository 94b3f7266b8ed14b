"""dsps.seat_id: the buyer seat a DSP gave this console, sent with every push (spec section 5's identifier rule)

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-24

DSPs added before have no seat.
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel.sql.sqltypes  # noqa: F401  (the module path autogenerate writes, named for mypy)
from alembic import op

revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('dsps', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seat_id', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False,
                                      server_default=''))


def downgrade() -> None:
    with op.batch_alter_table('dsps', schema=None) as batch_op:
        batch_op.drop_column('seat_id')
