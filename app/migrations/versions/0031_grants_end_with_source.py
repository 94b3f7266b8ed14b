"""api_credentials.revoked_reason and auth_sessions.notice: a move of an advertiser to another agency (or to none)
ends what the old agency held through it. The keys the old agency made for it are revoked in the move's transaction,
and the key list says they were ended by the move ("moved"); a session of the old agency acting as the advertiser
falls back to the agency, and its next page says why (the notice, shown once). Keys revoked before have no reason
(by hand); sessions have no notice.

Revision ID: 0031_grants_end_with_source
Revises: 0030_api_key_scopes
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel.sql.sqltypes  # noqa: F401  (the module path autogenerate writes, named for mypy)
from alembic import op

revision = '0031_grants_end_with_source'
down_revision = '0030_api_key_scopes'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('api_credentials', schema=None) as batch_op:
        batch_op.add_column(sa.Column('revoked_reason', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False,
                                      server_default=''))
    with op.batch_alter_table('auth_sessions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('notice', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False,
                                      server_default=''))


def downgrade() -> None:
    with op.batch_alter_table('auth_sessions', schema=None) as batch_op:
        batch_op.drop_column('notice')
    with op.batch_alter_table('api_credentials', schema=None) as batch_op:
        batch_op.drop_column('revoked_reason')
