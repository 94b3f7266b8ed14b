"""A natural-order key column (app/kernel/natural_order.py) added to a table by a migration (0023, 0025, 0026, 0029):
each existing row's key, computed by the application's own natural_sort_key (a key must compare with the keys the
application writes from now on, so not a copy frozen in the migration), a batch of rows at a time; for a name's key,
the column and its index ending with the id, which the lists sort and page on. Declared once so a migration only
says which tables and, for another key, from which columns."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

from app.kernel.natural_order import SORT_KEY_TYPE, natural_sort_key

BATCH = 1000


def add_key_column(table: str, key: str) -> None:
    """The key column, empty until fill_keys fills it (a server default, so existing rows satisfy NOT NULL)."""
    with op.batch_alter_table(table) as batch:
        batch.add_column(sa.Column(key, SORT_KEY_TYPE, server_default='', nullable=False))


def fill_keys(table: str, key: str, columns: Sequence[str], text_of: Callable[[Sequence[Any]], str]) -> None:
    """`key` of every row of `table`: natural_sort_key of text_of(the row's `columns`, in that order)."""
    connection = op.get_bind()
    rows = connection.execute(sa.text(f"SELECT id, {', '.join(columns)} FROM {table}")).all()
    update = sa.text(f"UPDATE {table} SET {key} = :key WHERE id = :id")
    for start in range(0, len(rows), BATCH):
        connection.execute(update, [{"id": row[0], "key": natural_sort_key(text_of(row[1:]))}
                                    for row in rows[start:start + BATCH]])


def add_name_keys(tables: Sequence[str]) -> None:
    """name_key on each of `tables`, the key of its `name` column, filled and indexed with the id."""
    for table in tables:
        add_key_column(table, "name_key")
        fill_keys(table, "name_key", ("name",), lambda values: values[0] or "")
        op.create_index(f"ix_{table}_name_key_id", table, ["name_key", "id"])


def drop_name_keys(tables: Sequence[str]) -> None:
    """add_name_keys undone."""
    for table in tables:
        op.drop_index(f"ix_{table}_name_key_id", table)
        with op.batch_alter_table(table) as batch:
            batch.drop_column('name_key')
