"""second_factors, recovery_codes, sign_in_policy: two-factor sign-in with an authenticator app (TOTP) and the
admin's rule that staff must use it (app/accounts/second_factor.py).

Revision ID: 0022_second_factor
Revises: 0021_rate_counts
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0022_second_factor'
down_revision = '0021_rate_counts'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('second_factors',
                    sa.Column('user_id', sa.Integer(), nullable=False),
                    sa.Column('secret_encrypted', sqlmodel.sql.sqltypes.AutoString(length=255), nullable=False),
                    sa.Column('confirmed_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
                    sa.Column('last_step', sa.Integer(), nullable=False),
                    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
                    sa.ForeignKeyConstraint(['user_id'], ['users.id']),
                    sa.PrimaryKeyConstraint('user_id'))
    op.create_index(op.f('ix_second_factors_created_at'), 'second_factors', ['created_at'], unique=False)
    op.create_table('recovery_codes',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('user_id', sa.Integer(), nullable=False),
                    sa.Column('code_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
                    sa.Column('used_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
                    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
                    sa.ForeignKeyConstraint(['user_id'], ['users.id']),
                    sa.PrimaryKeyConstraint('id'))
    op.create_index(op.f('ix_recovery_codes_user_id'), 'recovery_codes', ['user_id'], unique=False)
    op.create_index(op.f('ix_recovery_codes_created_at'), 'recovery_codes', ['created_at'], unique=False)
    op.create_table('sign_in_policy',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('staff_second_factor', sa.Boolean(), nullable=False),
                    sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
                    sa.PrimaryKeyConstraint('id'))


def downgrade() -> None:
    op.drop_table('sign_in_policy')
    op.drop_index(op.f('ix_recovery_codes_created_at'), table_name='recovery_codes')
    op.drop_index(op.f('ix_recovery_codes_user_id'), table_name='recovery_codes')
    op.drop_table('recovery_codes')
    op.drop_index(op.f('ix_second_factors_created_at'), table_name='second_factors')
    op.drop_table('second_factors')
