"""login_attempts.action: the table counts requests for mailed codes too (app/auth/throttle.py)

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-24

Rows written before are sign-ins.
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel.sql.sqltypes  # noqa: F401  (the module path autogenerate writes, named for mypy)
from alembic import op

revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('login_attempts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('action', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False,
                                      server_default='sign_in'))


def downgrade() -> None:
    with op.batch_alter_table('login_attempts', schema=None) as batch_op:
        batch_op.drop_column('action')
