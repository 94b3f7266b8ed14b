"""A unit of work is all or nothing, savepoints included: bulk edits save each row in a savepoint inside one
transaction, and a crash (or an error) before the commit must leave none of the rows saved.

SQLite's Python driver opens its transaction only at the first INSERT/UPDATE/DELETE, not at a SAVEPOINT; a
savepoint issued before any write then *started* the transaction and its RELEASE committed it. So a bulk edit's
first row was saved on its own, which a kill -9 in the middle of a 250-campaign bulk edit showed."""

from __future__ import annotations

from sqlmodel import Session, select

from app.access.models import User
from app.kernel.db import get_engine


def test_rows_saved_in_savepoints_go_when_the_transaction_rolls_back(db, demo_ids) -> None:
    user_id = demo_ids["advertiser@demo.example"]
    with Session(get_engine()) as session:
        session.exec(select(User).where(User.id == user_id)).one()  # a read first, as a bulk edit reads its rows
        for name in ("First", "Second"):
            with session.begin_nested():
                session.get(User, user_id).first_name = name  # type: ignore[union-attr]
        session.rollback()  # what a crash before the commit amounts to
    with Session(get_engine()) as session:
        assert session.get(User, user_id).first_name != "First"  # type: ignore[union-attr]
        assert session.get(User, user_id).first_name != "Second"  # type: ignore[union-attr]
