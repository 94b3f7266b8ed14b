"""reports: saved reports (dimensions, metrics, events, filters, period, schedule) and their generation runs

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel.sql.sqltypes  # noqa: F401  (the module path autogenerate writes, named for mypy)
from alembic import op


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('reports',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('owner_id', sa.Integer(), nullable=False),
    sa.Column('advertiser_id', sa.Integer(), nullable=True),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
    sa.Column('report_type', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('dimensions', sa.JSON(), nullable=False),
    sa.Column('metrics', sa.JSON(), nullable=False),
    sa.Column('events', sa.JSON(), nullable=False),
    sa.Column('filters', sa.JSON(), nullable=False),
    sa.Column('period', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('start_date', sa.Date(), nullable=True),
    sa.Column('end_date', sa.Date(), nullable=True),
    sa.Column('time_zone', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('schedule', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False),
    sa.Column('recipients', sa.JSON(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['advertiser_id'], ['users.id'], ),
    sa.ForeignKeyConstraint(['owner_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('reports', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_reports_advertiser_id'), ['advertiser_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_reports_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_reports_owner_id'), ['owner_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_reports_schedule'), ['schedule'], unique=False)

    op.create_table('report_runs',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('report_id', sa.Integer(), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('progress', sa.Integer(), nullable=False),
    sa.Column('error', sa.Text(), server_default='', nullable=False),
    sa.Column('row_count', sa.Integer(), nullable=True),
    sa.Column('result_file', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
    sa.Column('requested_by', sa.Integer(), nullable=False),
    sa.Column('scheduled_for', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('period_start', sa.Date(), nullable=True),
    sa.Column('period_end', sa.Date(), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('columns', sa.JSON(), nullable=False),
    sa.Column('totals', sa.JSON(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('started_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('finished_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.ForeignKeyConstraint(['report_id'], ['reports.id'], ),
    sa.ForeignKeyConstraint(['requested_by'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('report_id', 'scheduled_for', name='uq_report_runs_scheduled')
    )
    with op.batch_alter_table('report_runs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_report_runs_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_report_runs_report_id'), ['report_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_report_runs_status'), ['status'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('report_runs', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_report_runs_status'))
        batch_op.drop_index(batch_op.f('ix_report_runs_report_id'))
        batch_op.drop_index(batch_op.f('ix_report_runs_created_at'))

    op.drop_table('report_runs')
    with op.batch_alter_table('reports', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_reports_schedule'))
        batch_op.drop_index(batch_op.f('ix_reports_owner_id'))
        batch_op.drop_index(batch_op.f('ix_reports_created_at'))
        batch_op.drop_index(batch_op.f('ix_reports_advertiser_id'))

    op.drop_table('reports')
