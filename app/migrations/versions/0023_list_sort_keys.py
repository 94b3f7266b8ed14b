"""campaigns.name_key and users.name_key, the names' natural-order keys (app/kernel/natural_order.py), filled for
existing rows; an index ending with the id on every sortable column of the campaign list, on the users' key and on
the creatives' order (newest change first), so every sort of the API's lists pages by keyset on an index.

Revision ID: 0023_list_sort_keys
Revises: 0022_second_factor
Create Date: 2026-11-26

The keys are computed by the application's own function, not a copy frozen here: a key must compare with the keys
the application writes from now on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic import op

from app.kernel.natural_order import SORT_KEY_TYPE, natural_sort_key

revision = '0023_list_sort_keys'
down_revision = '0022_second_factor'
branch_labels = None
depends_on = None

# As app/campaigns/models.py's SORTED_COLUMNS (kept as written here: a migration does not change with the model).
CAMPAIGN_SORTED_COLUMNS = ("name_key", "status", "objective", "advertiser_id", "starts_at", "ends_at",
                           "total_budget_micros", "daily_budget_micros", "bid_strategy", "bid_micros", "traffic_type",
                           "updated_at")
BATCH = 1000


def _fill(table: str, columns: tuple[str, ...], text_of: Callable[[Any], str]) -> None:
    """name_key of every row of `table`, from its `columns`, a batch of rows at a time."""
    connection = op.get_bind()
    rows = connection.execute(sa.text(f"SELECT id, {', '.join(columns)} FROM {table}")).all()
    update = sa.text(f"UPDATE {table} SET name_key = :key WHERE id = :id")
    for start in range(0, len(rows), BATCH):
        connection.execute(update, [{"id": row[0], "key": natural_sort_key(text_of(row))}
                                    for row in rows[start:start + BATCH]])


def upgrade() -> None:
    for table in ("campaigns", "users"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column('name_key', SORT_KEY_TYPE, server_default='', nullable=False))
    _fill("campaigns", ("name",), lambda row: row[1] or "")
    # As app/access/models.py's shown_name: the company, else the person's name.
    _fill("users", ("company_name", "first_name", "last_name"),
          lambda row: row[1] or f"{row[2] or ''} {row[3] or ''}".strip())
    for column in CAMPAIGN_SORTED_COLUMNS:
        op.create_index(f"ix_campaigns_{column}_id", "campaigns", [column, "id"])
    op.create_index("ix_users_name_key_id", "users", ["name_key", "id"])
    op.create_index("ix_creatives_updated_at_id", "creatives", ["updated_at", "id"])


def downgrade() -> None:
    op.drop_index("ix_creatives_updated_at_id", "creatives")
    op.drop_index("ix_users_name_key_id", "users")
    for column in CAMPAIGN_SORTED_COLUMNS:
        op.drop_index(f"ix_campaigns_{column}_id", "campaigns")
    for table in ("campaigns", "users"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column('name_key')
