"""jobs: the durable job queue (app/jobs). SQLite: our jobs table. PostgreSQL: procrastinate's schema (its
tables, types and functions, as the pinned procrastinate version ships it); the jobs table is created there
too, unused, so the models and the schema agree on both databases.

Revision ID: 0018_jobs
Revises: 0017
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0018_jobs'
down_revision = '0017'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'jobs',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('task', sa.String(length=80), nullable=False),
        sa.Column('args', sa.JSON(), nullable=False),
        sa.Column('key', sa.String(length=120), nullable=False),
        sa.Column('status', sa.String(length=8), nullable=False),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('crashes', sa.Integer(), nullable=False),
        sa.Column('run_after', sa.Float(), nullable=False),
        sa.Column('lease_until', sa.Float(), nullable=True),
        sa.Column('worker', sa.String(length=80), nullable=False),
        sa.Column('error', sa.Text(), server_default='', nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_jobs_key', 'jobs', ['key'])
    op.create_index('ix_jobs_status', 'jobs', ['status'])
    op.create_index('ix_jobs_created_at', 'jobs', ['created_at'])
    if op.get_bind().dialect.name == 'postgresql':
        from procrastinate.schema import SchemaManager

        # The driver's own execute: the schema is many statements with $$-quoted function bodies.
        op.get_bind().connection.driver_connection.execute(SchemaManager.get_schema())  # type: ignore[union-attr]


def downgrade() -> None:
    if op.get_bind().dialect.name == 'postgresql':
        op.execute('DROP TABLE IF EXISTS procrastinate_events, procrastinate_periodic_defers, procrastinate_jobs, '
                   'procrastinate_workers, procrastinate_version CASCADE')
    op.drop_table('jobs')
