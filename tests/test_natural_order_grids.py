"""The report, inventory-list, smart-app-list and DSP grids sort names as people read them ("Report 2" before
"Report 10"), by the natural-order key each row keeps (app/kernel/natural_order.py), which follows a rename; the DSP
API's pages keep that order from cursor to cursor; and migration 0029 keys the rows written before it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from sqlmodel import Session, SQLModel

from app.dsps import service as dsps
from app.dsps.models import Dsp
from app.kernel.natural_order import natural_sort_key
from app.reports import service as reports
from app.reports.models import Report
from app.supply import app_lists, smart_apps
from app.supply.models import AppList, SmartAppList
from tests.helpers import actor_of, run_alembic, user_by_email

ADMIN = "admin@demo.example"
# Names no demo row has ("zq"), so the grids' search shows these rows only; cases mixed, as users type them.
NAMES = ("Zq 10", "zq 9", "Zq 2")
BY_NAME = ["Zq 2", "zq 9", "Zq 10"]

# Each grid: a row of it named so (for an advertiser's id), and the names its page shows for a sort.
Make = Callable[[int, str], SQLModel]
Shown = Callable[[Session, Any, str], list[str]]
GRIDS: dict[str, tuple[Make, Shown]] = {
    "reports": (lambda owner, name: Report(owner_id=owner, advertiser_id=owner, name=name, report_type="campaign"),
                lambda db, actor, sort: [r.name for r in reports.list_reports_page(
                    db, actor=actor, search="zq", sort=sort).rows]),
    "inventory lists": (lambda owner, name: AppList(advertiser_id=owner, name=name),
                        lambda db, actor, sort: [r.name for r in app_lists.list_lists_page(
                            db, actor=actor, search="zq", sort=sort).rows]),
    "smart-app lists": (lambda _owner, name: SmartAppList(name=name, category_id="36", genre_id="6014"),
                        lambda db, actor, sort: [r.name for r in smart_apps.list_lists_page(
                            db, actor=actor, search="zq", sort=sort).rows]),
    "DSPs": (lambda _owner, name: Dsp(name=name, endpoint_url=f"https://{name.replace(' ', '')}.example/rtb"),
             lambda db, actor, sort: [r.name for r in dsps.list_dsps_page(
                 db, actor=actor, search="zq", sort=sort).rows]),
}


@pytest.mark.parametrize("grid", GRIDS)
def test_a_grid_sorted_by_name_shows_2_before_10_and_a_renamed_row_moves(db: Session, grid: str) -> None:
    make, shown = GRIDS[grid]
    advertiser = user_by_email(db, "advertiser@demo.example")
    rows = {name: make(advertiser.id or 0, name) for name in NAMES}
    db.add_all(rows.values())
    db.commit()
    admin = actor_of(db, ADMIN)
    assert shown(db, admin, "name") == BY_NAME
    assert shown(db, admin, "-name") == BY_NAME[::-1]
    renamed = rows["zq 9"]
    renamed.name = "Zq 11"  # type: ignore[attr-defined]  # every grid's model has a name
    db.add(renamed)
    db.commit()
    assert shown(db, admin, "name") == ["Zq 2", "Zq 10", "Zq 11"]


def test_the_dsp_list_names_in_natural_order_and_its_api_pages_newest_first(db: Session) -> None:
    """dsp/list names "DSP 2" before "DSP 10"; the API's keyset pages (dsp) read every DSP once, newest first, so a
    rename while paging moves none between pages (issue 38)."""
    db.add_all(Dsp(name=f"Zq {n}", endpoint_url=f"https://zq{n}.example/rtb") for n in (10, 9, 2, 100))
    db.commit()
    admin = actor_of(db, ADMIN)
    seen: list[str] = []
    cursor = None
    while True:
        page = dsps.dsps_page(db, actor=admin, limit=2, cursor=cursor)
        seen += [row.name for row in page.items]
        if (cursor := page.next_cursor) is None:
            break
    ours = ["Zq 2", "Zq 9", "Zq 10", "Zq 100"]
    assert [name for name in seen if name.startswith("Zq")] == ["Zq 100", "Zq 2", "Zq 9", "Zq 10"]  # newest first
    assert [row.name for row in dsps.list_dsps(db, actor=admin) if row.name.startswith("Zq")] == ours


# -- the migration --------------------------------------------------------------------------------------------

BEFORE = "0028_approvals_requested_at"
KEYED = ("reports", "app_lists", "smart_app_lists", "dsps")
OLD_NAMES = ("Old 10", "old 9", "Old 2")


def test_the_migration_keys_the_names_written_before_it(empty_database: str) -> None:
    run_alembic(empty_database, "upgrade", BEFORE)
    engine = sa.create_engine(empty_database)
    try:
        _insert_old_rows(engine)
        run_alembic(empty_database, "upgrade", "head")
        with engine.connect() as connection:
            for table in KEYED:
                keys = dict(connection.execute(sa.text(f"SELECT name, name_key FROM {table}")).all())
                assert keys == {name: natural_sort_key(name) for name in OLD_NAMES}, table
                ordered = connection.execute(sa.text(f"SELECT name FROM {table} ORDER BY name_key, id")).scalars()
                assert list(ordered) == ["Old 2", "old 9", "Old 10"], table
        run_alembic(empty_database, "downgrade", BEFORE)
        inspector = sa.inspect(engine)
        for table in KEYED:
            assert "name_key" not in {column["name"] for column in inspector.get_columns(table)}, table
    finally:
        engine.dispose()


def _insert_old_rows(engine: sa.Engine) -> None:
    """OLD_NAMES in each keyed table, written through the tables as they were before 0029 (not today's models)."""
    tables = sa.MetaData()
    tables.reflect(engine, only=["users", *KEYED])
    now = datetime.now(UTC).replace(tzinfo=None)
    stamps = {"created_at": now, "updated_at": now}
    with engine.begin() as connection:
        owner = connection.execute(sa.insert(tables.tables["users"]).values(
            email="old@old.example", password_hash="", role="ADVERTISER", status="active", first_name="Old",
            last_name="", company_name="", agency_id=None, **stamps)).inserted_primary_key[0]
        for n, name in enumerate(OLD_NAMES):
            connection.execute(sa.insert(tables.tables["reports"]).values(
                owner_id=owner, advertiser_id=owner, name=name, report_type="campaign", dimensions=[], metrics=[],
                events=[], filters={}, period="last_7_days", time_zone="UTC", schedule="none", recipients=[],
                **stamps))
            connection.execute(sa.insert(tables.tables["app_lists"]).values(
                advertiser_id=owner, name=name, kind="allow", status="active", **stamps))
            connection.execute(sa.insert(tables.tables["smart_app_lists"]).values(
                name=name, category_id="36", genre_id="6014", subgenre_id="", status="active", **stamps))
            connection.execute(sa.insert(tables.tables["dsps"]).values(
                name=name, connector="http_json", endpoint_url=f"https://dsp{n}.example/rtb", credentials_encrypted="",
                status="active", exchange_ids=[], last_test_message="", **stamps))
