"""jobs.queue: the queue a job was deferred to (DSP_JOBS_QUEUE), so processes sharing a database keep their jobs
apart. procrastinate's jobs carry a queue_name already.

Revision ID: 0019_job_queues
Revises: 0018_jobs
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0019_job_queues'
down_revision = '0018_jobs'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('jobs') as batch:
        batch.add_column(sa.Column('queue', sa.String(length=40), server_default='default', nullable=False))
        batch.create_index('ix_jobs_queue', ['queue'])


def downgrade() -> None:
    with op.batch_alter_table('jobs') as batch:
        batch.drop_index('ix_jobs_queue')
        batch.drop_column('queue')
