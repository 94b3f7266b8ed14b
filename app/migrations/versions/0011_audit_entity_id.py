"""audit entity ids up to 128 characters: a statistics batch's id (up to 100) is the entity id of its entry

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-23

PostgreSQL refused batch ids over 40 characters in the audit log (SQLite does not check lengths, so only the
PostgreSQL run of the suite showed it).
"""

from __future__ import annotations

import sqlmodel.sql.sqltypes  # noqa: F401  (the module path autogenerate writes, named for mypy)
from alembic import op

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.alter_column('entity_id', existing_type=sqlmodel.sql.sqltypes.AutoString(length=40),
                              type_=sqlmodel.sql.sqltypes.AutoString(length=128), existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.alter_column('entity_id', existing_type=sqlmodel.sql.sqltypes.AutoString(length=128),
                              type_=sqlmodel.sql.sqltypes.AutoString(length=40), existing_nullable=False)
