"""users.person_key, the natural-order key (app/kernel/natural_order.py) of the name the user lists' Name column
shows (the full name, else the e-mail), filled for existing rows, with an index ending with the id: the users grid
sorts by name in SQL a page at a time.

Revision ID: 0025_users_person_key
Revises: 0024_alerts
Create Date: 2026-11-27

As 0023, the keys come from the application's own function, so they compare with the keys it writes from now on.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from app.kernel.natural_order import SORT_KEY_TYPE, natural_sort_key

revision = '0025_users_person_key'
down_revision = '0024_alerts'
branch_labels = None
depends_on = None

BATCH = 1000


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column('person_key', SORT_KEY_TYPE, server_default='', nullable=False))
    connection = op.get_bind()
    rows = connection.execute(sa.text("SELECT id, first_name, last_name, email FROM users")).all()
    update = sa.text("UPDATE users SET person_key = :key WHERE id = :id")
    # As app/access/models.py's person_name: the full name, else the e-mail.
    for start in range(0, len(rows), BATCH):
        connection.execute(update, [{"id": row[0], "key": natural_sort_key(
            f"{row[1] or ''} {row[2] or ''}".strip() or row[3])} for row in rows[start:start + BATCH]])
    op.create_index("ix_users_person_key_id", "users", ["person_key", "id"])


def downgrade() -> None:
    op.drop_index("ix_users_person_key_id", "users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column('person_key')
