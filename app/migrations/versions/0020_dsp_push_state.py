"""dsp_associations.push_state and queued_at: DSP pushes go through the job queue, so the map shows whether the
last one is queued, delivered or failed. Existing rows take the state their last sync left.

Revision ID: 0020_dsp_push_state
Revises: 0019_job_queues
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel.sql.sqltypes  # noqa: F401  (the module path autogenerate writes, named for mypy)
from alembic import op

revision = '0020_dsp_push_state'
down_revision = '0019_job_queues'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('dsp_associations') as batch:
        batch.add_column(sa.Column('push_state', sqlmodel.sql.sqltypes.AutoString(length=16), server_default='', nullable=False))
        batch.add_column(sa.Column('queued_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch.create_index('ix_dsp_associations_push_state', ['push_state'])
    op.execute("UPDATE dsp_associations SET push_state = CASE WHEN last_error <> '' THEN 'failed' "
               "WHEN remote_id <> '' THEN 'delivered' ELSE '' END")


def downgrade() -> None:
    with op.batch_alter_table('dsp_associations') as batch:
        batch.drop_index('ix_dsp_associations_push_state')
        batch.drop_column('queued_at')
        batch.drop_column('push_state')
