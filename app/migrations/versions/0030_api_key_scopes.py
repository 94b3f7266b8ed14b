"""api_credentials.scope: what an API key may call (app/access/key_scopes.py: read, read_write or reporting),
chosen when it is made. Keys made before can do what keys always could: read_write, so no client breaks.

Revision ID: 0030_api_key_scopes
Revises: 0029_more_sort_keys
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel.sql.sqltypes  # noqa: F401  (the module path autogenerate writes, named for mypy)
from alembic import op

revision = '0030_api_key_scopes'
down_revision = '0029_more_sort_keys'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('api_credentials', schema=None) as batch_op:
        batch_op.add_column(sa.Column('scope', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False,
                                      server_default='read_write'))


def downgrade() -> None:
    with op.batch_alter_table('api_credentials', schema=None) as batch_op:
        batch_op.drop_column('scope')
