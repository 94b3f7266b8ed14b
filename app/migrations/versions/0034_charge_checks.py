"""charge_checks: how far the reconciler of lost charges has read the statistics store (app/statistics/
charge_reconciler.py). No row yet: its first pass after the upgrade reads every stored batch once.

Revision ID: 0034_charge_checks
Revises: 0031_grants_end_with_source
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0034_charge_checks'
down_revision = '0031_grants_end_with_source'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('charge_checks',
                    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
                    sa.Column('checked_until', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
                    sa.PrimaryKeyConstraint('key'))


def downgrade() -> None:
    op.drop_table('charge_checks')
