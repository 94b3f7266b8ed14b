"""creatives.name_key and audiences.name_key, the names' natural-order keys (app/kernel/natural_order.py), filled for
existing rows and indexed with the id: the creative and audience grids page on the server and sort by name in SQL,
as the campaign list does (0023).

Revision ID: 0026_grid_sort_keys
Revises: 0025_users_person_key
Create Date: 2026-11-27
"""

from __future__ import annotations

from app.kernel.sort_key_migrations import add_name_keys, drop_name_keys

revision = '0026_grid_sort_keys'
down_revision = '0025_users_person_key'
branch_labels = None
depends_on = None

TABLES = ("creatives", "audiences")


def upgrade() -> None:
    add_name_keys(TABLES)


def downgrade() -> None:
    drop_name_keys(TABLES)
