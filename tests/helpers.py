"""Small helpers shared by tests."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, select

from app.access import sessions
from app.access.models import User
from app.access.policy import Actor
from app.access.roles import Role
from app.accounts import service as accounts
from app.demo.seed import DEMO_PASSWORD, create_user


def actor_of(db: Session, email: str) -> Actor:
    """A freshly logged-in browser session's actor for a demo user."""
    result = accounts.login(db, email=email, password=DEMO_PASSWORD, kind="browser")
    db.flush()
    actor = sessions.actor_for(db, result.new_session.session)
    assert actor is not None
    return actor


def browser_session(email: str) -> tuple[str, str]:
    """(session cookie token, session id) of a freshly logged-in, redeemed browser session for a demo user."""
    from app.kernel.db import run

    def make(db: Session) -> tuple[str, str]:
        result = accounts.login(db, email=email, password=DEMO_PASSWORD, kind="browser")
        db.flush()
        row, token = sessions.redeem_ticket(db, ticket=result.new_session.secret)
        return token, row.id
    return run(make)


def bearer_headers(client: Any, email: str) -> dict[str, str]:
    """Authorization headers of a fresh API login of a demo user, through `client` (a TestClient)."""
    reply = client.post("/api/auth/login/", json={"email": email, "password": DEMO_PASSWORD})
    assert reply.status_code == 200, reply.text
    return {"Authorization": f"Bearer {reply.json()['data']['token']}"}


def other_tenant(db: Session) -> tuple[User, User]:
    """A second agency with its own advertiser, outside the demo agency."""
    agency = create_user(db, email="rival-agency@other.example", role=Role.AGENCY, password=DEMO_PASSWORD,
                         first_name="Rival", last_name="Agency", company_name="Rival Media")
    advertiser = create_user(db, email="rival-adv@other.example", role=Role.ADVERTISER, password=DEMO_PASSWORD,
                             first_name="Rival", last_name="Advertiser", company_name="Rival Shoes", agency_id=agency.id)
    db.flush()
    return agency, advertiser


SHOPS = [f"Shop {n:02d}" for n in range(55)]


def agency_shops(db: Session) -> tuple[User, User]:
    """SHOPS: 55 more advertisers of the demo agency (company "Shop 00".."Shop 54", person "Shop Keeper n"; its own
    is Acme Outdoor), and other_tenant's agency with its advertiser; committed. (the demo agency, the rival agency)"""
    agency = user_by_email(db, "agency@demo.example")
    for n, name in enumerate(SHOPS):
        db.add(User(email=f"shop{n:02d}@demo.example", password_hash="-", role=Role.ADVERTISER, agency_id=agency.id,
                    company_name=name, first_name="Shop", last_name=f"Keeper {n}"))
    rival, _advertiser = other_tenant(db)
    db.commit()
    return agency, rival


def user_by_email(db: Session, email: str) -> User:
    user = db.exec(select(User).where(User.email == email)).first()
    assert user is not None
    return user


def wait_for_run(run_id: int, timeout: float = 60) -> Any:
    """A report run once it has completed or failed (a worker of the job queue runs it; without one started,
    this thread runs the queued jobs); fails the test if it is still pending after `timeout` seconds (a bound on
    a hang, not a timing check)."""
    import time

    from app import jobs
    from app.kernel.db import session_scope
    from app.reports.models import ReportRun

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not jobs.running():
            jobs.drain()
        with session_scope() as db:
            run = db.get(ReportRun, run_id)
            assert run is not None
            if run.status in ("completed", "failed"):
                return run
        time.sleep(0.05)
    raise AssertionError(f"report run {run_id} did not finish")


def stored_csv_text(key: str) -> str:
    """A CSV the app wrote to its file store (data directory or bucket), as text without its byte-order mark."""
    from app.kernel.storage import get_storage

    return get_storage().read(key).decode("utf-8-sig")


def settle_jobs(timeout: float = 60) -> None:
    """Wait until the job queue has nothing left to do, retries included (this thread runs the due jobs when no
    worker is started); fails the test after `timeout` seconds (a bound on a hang, not a timing check)."""
    import time

    from app import jobs

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not jobs.running():
            jobs.drain()
        if jobs.outstanding() == 0:
            return
        time.sleep(0.02)
    raise AssertionError(f"{jobs.outstanding()} jobs still to run")


def walk_pages(client: Any, headers: dict[str, str], path: str, limit: int, *, counted: bool = False,
               **params: Any) -> list[dict[str, Any]]:
    """Every row of a paged API list (app/kernel/paging.py), `limit` at a time, each page as documented; on the
    last, the total (where the list counts one; `counted`: it must) is the rows seen."""
    rows: list[dict[str, Any]] = []
    cursor = None
    for _ in range(200):
        reply = client.get(path, headers=headers, params={**params, "limit": limit, **({"cursor": cursor} if cursor else {})})
        assert reply.status_code == 200, reply.text
        page = reply.json()["data"]
        assert page["limit"] == limit and len(page["items"]) <= limit
        rows += page["items"]
        cursor = page["next_cursor"]
        if cursor is None:
            assert page["total"] in ((len(rows),) if counted else (None, len(rows))), (path, page["total"], len(rows))
            return rows
    raise AssertionError("the pages never ended")


def run_alembic(url: str, verb: str, revision: str) -> None:
    """alembic `verb` (upgrade, downgrade) to `revision` on the database at `url`, with the app's migrations."""
    from alembic import command
    from alembic.config import Config

    from app.kernel.db import REPO_ROOT

    config = Config(str(REPO_ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(REPO_ROOT / "app" / "migrations"))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    getattr(command, verb)(config, revision)


def insert_bare_user(connection: Any, role: str = "advertiser") -> None:
    """One account row written in SQL, for a migration test's database at an older revision (no models there)."""
    from sqlalchemy import text

    connection.execute(text("INSERT INTO users (email, password_hash, role, status, first_name, last_name, company_name, "
                            "created_at, updated_at) VALUES ('a@x.example', '', :role, 'active', 'A', 'B', 'C', "
                            "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"), {"role": role})


FOOTING_SPEND, FOOTING_SPENDS = 1_234_567, 6


def statement_to_foot(db: Session) -> int:
    """An advertiser of the demo agency, footing@shop.example: $100 deposited, then six spends of $1.234567, each on
    a day of its own (six statement rows whose amounts, rounded one by one, summed to $92.62 against a balance of
    $92.59); committed. Its id."""
    from datetime import UTC, datetime, timedelta

    from app.funds import service as funds

    advertiser = create_user(db, email="footing@shop.example", role=Role.ADVERTISER, password=DEMO_PASSWORD,
                             company_name="Footing Shop", agency_id=user_by_email(db, "agency@demo.example").id)
    assert advertiser.id is not None
    funds.add_funds(db, actor=actor_of(db, "admin@demo.example"), advertiser_id=advertiser.id, amount="100",
                    kind="deposit", note="Wire")
    first = datetime.now(UTC).replace(minute=0, second=0, microsecond=0) + timedelta(days=1)
    for day in range(FOOTING_SPENDS):
        funds.charge_delivery(db, charges={advertiser.id: FOOTING_SPEND}, reference=f"foot:{day}",
                              booked_at=first + timedelta(days=day))
    db.commit()
    return advertiser.id
