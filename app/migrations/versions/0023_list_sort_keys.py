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

from alembic import op

from app.kernel.sort_key_migrations import add_key_column, fill_keys

revision = '0023_list_sort_keys'
down_revision = '0022_second_factor'
branch_labels = None
depends_on = None

# As app/campaigns/models.py's SORTED_COLUMNS (kept as written here: a migration does not change with the model).
CAMPAIGN_SORTED_COLUMNS = ("name_key", "status", "objective", "advertiser_id", "starts_at", "ends_at",
                           "total_budget_micros", "daily_budget_micros", "bid_strategy", "bid_micros", "traffic_type",
                           "updated_at")


def upgrade() -> None:
    for table in ("campaigns", "users"):
        add_key_column(table, "name_key")
    fill_keys("campaigns", "name_key", ("name",), lambda row: row[0] or "")
    # As app/access/models.py's shown_name: the company, else the person's name.
    fill_keys("users", "name_key", ("company_name", "first_name", "last_name"),
              lambda row: row[0] or f"{row[1] or ''} {row[2] or ''}".strip())
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
