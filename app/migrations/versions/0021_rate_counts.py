"""rate_counts: write calls counted per credential and per client address, a row per bucket and minute
(app/access/write_limits.py).

Revision ID: 0021_rate_counts
Revises: 0020_dsp_push_state
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0021_rate_counts'
down_revision = '0020_dsp_push_state'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('rate_counts',
                    sa.Column('bucket', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
                    sa.Column('window_start', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
                    sa.Column('count', sa.Integer(), nullable=False),
                    sa.PrimaryKeyConstraint('bucket', 'window_start'))


def downgrade() -> None:
    op.drop_table('rate_counts')
