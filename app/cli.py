"""python -m app: serve, migrate, seed-demo, simulate, create-admin."""

from __future__ import annotations

import argparse
import contextlib
import getpass
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import app.tables  # noqa: F401  (every table and every domain's hooks)
from app.kernel.config import get_settings
from app.kernel.logging_setup import configure_logging, logging_config

if TYPE_CHECKING:
    from app.kernel.config import Settings
    from app.warehouse.base import StatisticsStore


WORKERS_NEED_POSTGRESQL = ("DSP_WORKERS={n}: several server processes need PostgreSQL (DATABASE_URL=postgresql://…); "
                           "SQLite serves one process. Set DSP_WORKERS=1, or move the database to PostgreSQL.")
WORKERS_NEED_SHARED_STORE = ("DSP_WORKERS={n}: several server processes need a statistics store they share, and the "
                             "{kind} store is opened by one process. Set DSP_STATISTICS_URL=clickhouse://user:pass@"
                             "host:8123/db, or DSP_WORKERS=1.")


def serving_processes(settings: Settings) -> int:
    """How many server processes `serve` runs: DSP_WORKERS, or by default one per core when the database
    (PostgreSQL) and the statistics store (a ClickHouse server) are both ones processes share, else one.
    Asked for more than one where they cannot share, it exits naming the setting to change: the processes would
    otherwise start, look healthy and fail on the first write or statistics read."""
    from app.warehouse import shared_by_processes

    shared_database = settings.sqlalchemy_url.startswith("postgresql")
    shared_store = shared_by_processes(settings.statistics_url)
    if settings.workers is None:
        return (os.cpu_count() or 1) if shared_database and shared_store else 1
    if settings.workers > 1 and not shared_database:
        sys.exit(WORKERS_NEED_POSTGRESQL.format(n=settings.workers))
    if settings.workers > 1 and not shared_store:
        kind = settings.statistics_url.partition("://")[0] or "duckdb"
        sys.exit(WORKERS_NEED_SHARED_STORE.format(n=settings.workers, kind="DuckDB" if kind == "duckdb" else "chDB"))
    return settings.workers


def _serve(args: argparse.Namespace) -> None:
    import threading

    import uvicorn

    from app.reference import geo

    settings = get_settings()
    workers = serving_processes(settings)
    configure_logging(settings)
    # Before listening: a second server on the same statistics file would start, look healthy and answer every
    # statistics call with a 500. It refuses instead, naming the settings that give it a file of its own.
    _open_store(STORE_HELD_FOR_SERVE)
    if workers > 1:
        from app.kernel.metrics import prepare_multiprocess
        from app.warehouse.clickhouse_store import close_stores

        prepare_multiprocess(settings.data_dir)  # each worker process's metrics add up at /metrics

        close_stores()  # the store answered; each worker process opens its own client
    else:
        # A head start on data the campaign pages read; a request that needs it meanwhile waits for it.
        threading.Thread(target=geo.warm_up, name="geo-warm-up", daemon=True).start()
    # --fd serves on a socket the caller already bound and passed down (tests: no window in which another
    # process could take a port between choosing it and binding it).
    where: dict[str, Any] = {"fd": args.fd} if args.fd is not None else {"host": settings.host, "port": settings.port}
    # log_config: uvicorn applies the same configuration in each worker process it starts (a fresh interpreter
    # each, which would otherwise log with Python's defaults). access_log=False: app/web/observe.py writes the
    # access lines, with request id, route, user and duration.
    uvicorn.run("app.main:create_app", factory=True, proxy_headers=True, log_level="info", ws_ping_interval=20,
                workers=workers, log_config=logging_config(settings), access_log=False, **where)


def _migrate(_args: argparse.Namespace) -> None:
    from app.kernel.db import migrate

    migrate()
    print("database is at the newest schema")


@contextlib.contextmanager
def _signed_in(email: str) -> Iterator[tuple[Any, Any]]:
    """(db, actor) of a demo person signed in like anyone, so what the seed makes passes the pages' checks."""
    from app.access import sessions
    from app.accounts import service as accounts
    from app.demo.seed import DEMO_PASSWORD
    from app.kernel.db import session_scope

    with session_scope() as db:
        login = accounts.login(db, email=email, password=DEMO_PASSWORD, kind="browser")
        db.flush()
        actor = sessions.actor_for(db, login.new_session.session)
        assert actor is not None
        yield db, actor
        sessions.revoke(db, session_id=actor.session_id)


def _seed(_args: argparse.Namespace) -> None:
    from app.demo.advertising import approve_demo_exchanges, seed_demo_advertising
    from app.demo.seed import DEMO_PASSWORD, seed_demo
    from app.kernel.db import session_scope

    with session_scope() as db:
        ids = seed_demo(db)
    with _signed_in("advertiser@demo.example") as (db, advertiser):
        made = seed_demo_advertising(db, actor=advertiser)
    with _signed_in("admin@demo.example") as (db, admin):
        approved = approve_demo_exchanges(db, actor=admin)
    print(f"demo data ready: {', '.join(ids)} (password {DEMO_PASSWORD})"
          + (f"; {made} campaigns and a creative of each type for the advertiser" if made else "")
          + (f"; {approved} exchange requests approved" if approved else ""))


# What a process that finds the statistics file held by another says (DuckDB lets one process open a file).
STORE_HELD_BY_SERVER = ("The statistics file is in use by the running server (DuckDB allows one process per file). "
                        "Stop the server to simulate, or send statistics through the ingestion API "
                        "(POST /api/statistics/batches).")
STORE_HELD_FOR_SERVE = ("Another process holds the statistics file {path} (DuckDB allows one process per file), so "
                        "this server would answer every statistics call with an error. Stop the other server, or "
                        "give this one a data directory of its own (DSP_DATA_DIR) or a statistics file of its own "
                        "(DSP_ANALYTICS_FILE).")


STORE_DIRECTORY_HELD = ("The statistics directory {path} cannot be opened: another process holds it (chDB allows one "
                        "process per directory) or it is not a chDB directory ({reason}). Stop the other process, "
                        "give this one a directory of its own, or share a ClickHouse server between processes "
                        "(DSP_STATISTICS_URL=clickhouse://user:pass@host:8123/db).")


def _open_store(refusal: str) -> StatisticsStore:
    """The statistics store, or exit with `refusal` (its {path} filled in) when another process holds its file."""
    import duckdb

    from app.warehouse import get_store
    from app.warehouse.base import StoreInUse

    try:
        return get_store()
    except StoreInUse as error:
        sys.exit(STORE_DIRECTORY_HELD.format(path=error.path, reason=error.reason))
    except duckdb.IOException as error:
        if "lock" not in str(error).lower():
            raise
        sys.exit(refusal.format(path=get_settings().analytics_path))


def _simulate(args: argparse.Namespace) -> None:
    from app.demo import simulator
    from app.kernel.db import session_scope

    store = _open_store(STORE_HELD_BY_SERVER)
    if args.if_empty and store.first_and_last_hour(None) is not None:
        print("statistics already present: nothing simulated")
        return
    if args.reset:
        store.clear()
        print("statistics emptied")
    if args.rows:
        seconds = simulator.write_synthetic(args.rows, seed=args.seed)
        print(f"{args.rows:,} synthetic rows written in {seconds:.1f} s ({args.rows / seconds:,.0f} rows/s)")
        return
    with session_scope() as db:
        result = simulator.simulate(db, days=args.days, seed=args.seed, log=print)
    print(f"simulated {result['hours']} hours of the active campaigns: {result['batches_written']} new hourly "
          f"batches, {result['rows']:,} rows, ${result['spend_micros'] / 1e6:,.2f} charged")


def _create_admin(args: argparse.Namespace) -> None:
    from app.access.roles import Role
    from app.accounts.service import find_user_by_email
    from app.demo.seed import create_user
    from app.kernel import validation as v
    from app.kernel.db import session_scope

    password = args.password or getpass.getpass("Password: ")
    problem = v.email(args.email) or v.password(password)
    if problem:
        sys.exit(problem)
    with session_scope() as db:
        if find_user_by_email(db, args.email):
            sys.exit(f"{args.email} already exists")
        create_user(db, email=args.email, role=Role.ADMIN, password=password, first_name="Admin")
    print(f"admin {args.email} created")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m app", description="DSP Console")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve on $PORT (default 8000)")
    serve.add_argument("--fd", type=int, help="serve on this already-bound listening socket instead")
    serve.set_defaults(run=_serve)
    commands.add_parser("migrate", help="apply database migrations").set_defaults(run=_migrate)
    commands.add_parser("seed-demo", help="create the demo brand and users").set_defaults(run=_seed)
    simulate = commands.add_parser(
        "simulate", help="write realistic delivery statistics for the active campaigns",
        description="Writes hourly delivery for the ACTIVE campaigns over the last N days, within their flights, "
                    "budgets, pacing and targeting, charged to the advertisers' balances (never below zero). "
                    "Each hour is one batch with a fixed id, so running again over the same hours changes nothing. "
                    "Run it while the server is stopped: the server holds the statistics file.")
    simulate.add_argument("--days", type=int, default=30, help="the last N days up to the current hour (default 30)")
    simulate.add_argument("--seed", type=int, default=1, help="random seed: the same seed gives the same numbers")
    simulate.add_argument("--rows", type=int, help="benchmark mode: write N synthetic rows (made-up advertisers "
                                                   "and campaigns) straight into the store in batches of 50,000, "
                                                   "printing rows/s; NO ledger charges in this mode")
    simulate.add_argument("--reset", action="store_true", help="empty the statistics store first")
    simulate.add_argument("--if-empty", action="store_true", help="do nothing when the store holds statistics")
    simulate.set_defaults(run=_simulate)
    admin = commands.add_parser("create-admin", help="create an ADMIN account")
    admin.add_argument("email")
    admin.add_argument("--password", help="read from the terminal when omitted")
    admin.set_defaults(run=_create_admin)
    args = parser.parse_args(argv)
    args.run(args)
