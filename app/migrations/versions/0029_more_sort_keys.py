"""reports.name_key, app_lists.name_key, smart_app_lists.name_key and dsps.name_key, the names' natural-order keys
(app/kernel/natural_order.py), filled for existing rows and indexed with the id: the report, inventory-list,
smart-app-list and DSP grids (and the DSP lists' keyset) sort by name in natural order in SQL ("Report 2" before
"Report 10"), as the campaign, creative and audience lists do (0023, 0026).

Revision ID: 0029_more_sort_keys
Revises: 0028_approvals_requested_at
Create Date: 2026-11-27
"""

from __future__ import annotations

from app.kernel.sort_key_migrations import add_name_keys, drop_name_keys

revision = '0029_more_sort_keys'
down_revision = '0028_approvals_requested_at'
branch_labels = None
depends_on = None

TABLES = ("reports", "app_lists", "smart_app_lists", "dsps")


def upgrade() -> None:
    add_name_keys(TABLES)


def downgrade() -> None:
    drop_name_keys(TABLES)
