"""creatives.name_key and audiences.name_key, the names' natural-order keys (app/kernel/natural_order.py), filled for
existing rows and indexed with the id: the creative and audience grids page on the server and sort by name in SQL,
as the campaign list does (0023).

Revision ID: 0026_grid_sort_keys
Revises: 0025_users_person_key
Create Date: 2026-11-27

The keys are computed by the application's own function, not a copy frozen here: a key must compare with the keys
the application writes from now on.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from app.kernel.natural_order import SORT_KEY_TYPE, natural_sort_key

revision = '0026_grid_sort_keys'
down_revision = '0025_users_person_key'
branch_labels = None
depends_on = None

TABLES = ("creatives", "audiences")
BATCH = 1000


def upgrade() -> None:
    connection = op.get_bind()
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column('name_key', SORT_KEY_TYPE, server_default='', nullable=False))
        rows = connection.execute(sa.text(f"SELECT id, name FROM {table}")).all()
        update = sa.text(f"UPDATE {table} SET name_key = :key WHERE id = :id")
        for start in range(0, len(rows), BATCH):
            connection.execute(update, [{"id": row[0], "key": natural_sort_key(row[1] or "")}
                                        for row in rows[start:start + BATCH]])
        op.create_index(f"ix_{table}_name_key_id", table, ["name_key", "id"])


def downgrade() -> None:
    for table in TABLES:
        op.drop_index(f"ix_{table}_name_key_id", table)
        with op.batch_alter_table(table) as batch:
            batch.drop_column('name_key')
