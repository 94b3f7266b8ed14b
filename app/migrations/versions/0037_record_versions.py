"""campaigns.version and creatives.version, each record's edit counter (1 for every existing row), and
audit_log.version, the version a change made: a save names the version it read, one made from an older version is
refused (409) naming who changed what since (app/history/versions.py), and every UPDATE of those rows is
conditional on the version it read (SQLAlchemy's version_id_col), so two writers cannot lose each other's change.

Revision ID: 0037_record_versions
Revises: 0034_charge_checks
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0037_record_versions'
down_revision = '0034_charge_checks'
branch_labels = None
depends_on = None

VERSIONED = ("campaigns", "creatives")


def upgrade() -> None:
    for table in VERSIONED:
        with op.batch_alter_table(table) as batch_op:
            batch_op.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="1"))
    with op.batch_alter_table("audit_log") as batch_op:
        batch_op.add_column(sa.Column("version", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("audit_log") as batch_op:
        batch_op.drop_column("version")
    for table in VERSIONED:
        with op.batch_alter_table(table) as batch_op:
            batch_op.drop_column("version")
