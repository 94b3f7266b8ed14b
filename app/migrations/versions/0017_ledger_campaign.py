"""ledger campaign: the campaign a delivery charge paid for, so the ledger reads a row per campaign and day

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-24

Nullable: deposits, refunds and adjustments have no campaign, nor do charges booked before this revision (the
ledger shows them as delivery without a campaign). batch_alter_table rebuilds the table on SQLite (which cannot
add a foreign key by ALTER TABLE) and is plain ALTER TABLE on PostgreSQL.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('ledger_entries', schema=None) as batch_op:
        batch_op.add_column(sa.Column('campaign_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key('fk_ledger_entries_campaign_id_campaigns', 'campaigns', ['campaign_id'], ['id'])


def downgrade() -> None:
    with op.batch_alter_table('ledger_entries', schema=None) as batch_op:
        batch_op.drop_constraint('fk_ledger_entries_campaign_id_campaigns', type_='foreignkey')
        batch_op.drop_column('campaign_id')
