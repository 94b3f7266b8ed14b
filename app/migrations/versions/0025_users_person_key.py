"""users.person_key, the natural-order key (app/kernel/natural_order.py) of the name the user lists' Name column
shows (the full name, else the e-mail), filled for existing rows, with an index ending with the id: the users grid
sorts by name in SQL a page at a time.

Revision ID: 0025_users_person_key
Revises: 0024_alerts
Create Date: 2026-11-27

As 0023, the keys come from the application's own function, so they compare with the keys it writes from now on.
"""

from __future__ import annotations

from alembic import op

from app.kernel.sort_key_migrations import add_key_column, fill_keys

revision = '0025_users_person_key'
down_revision = '0024_alerts'
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_key_column("users", "person_key")
    # As app/access/models.py's person_name: the full name, else the e-mail.
    fill_keys("users", "person_key", ("first_name", "last_name", "email"),
              lambda row: f"{row[0] or ''} {row[1] or ''}".strip() or row[2])
    op.create_index("ix_users_person_key_id", "users", ["person_key", "id"])


def downgrade() -> None:
    op.drop_index("ix_users_person_key_id", "users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column('person_key')
