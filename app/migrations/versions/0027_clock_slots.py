"""clock_slots: the one process clock's slots, a row a periodic key (app/jobs/clock.py), in place of the alert
checks' own alert_clock row (its next slot is simply due again once: the first tick after the upgrade claims it).

Revision ID: 0027_clock_slots
Revises: 0026_grid_sort_keys
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0027_clock_slots'
down_revision = '0026_grid_sort_keys'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('clock_slots',
                    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
                    sa.Column('next_due', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
                    sa.Column('lease_until', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
                    sa.PrimaryKeyConstraint('key'))
    op.drop_table('alert_clock')


def downgrade() -> None:
    op.create_table('alert_clock',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('next_due', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
                    sa.Column('lease_until', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
                    sa.PrimaryKeyConstraint('id'))
    op.drop_table('clock_slots')
