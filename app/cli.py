"""python -m app: serve, migrate, seed-demo, simulate, create-admin, backup, restore. A setting it cannot use, or a
database it cannot serve, is refused in one line naming what to change (and a non-zero exit), never a traceback."""

from __future__ import annotations

import argparse
import contextlib
import getpass
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

import app.tables  # noqa: F401  (every table and every domain's hooks)
from app.kernel.config import get_settings, refusal_lines
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


SCHEMA_BEHIND = ("The database's schema ({applied}) is not this release's newest ({newest}). Back the database up, "
                 "run `python -m app migrate`, then serve again.")
DATABASE_UNREACHABLE = ("The database {url} cannot be reached: {reason}. Check DATABASE_URL, and that the database "
                        "server is running.")
SCHEMA_NEWER = ("The database's schema ({applied}) was made by a newer release than this one (newest {newest}). Serve "
                "it with that release, or restore a backup taken before the upgrade.")
SCHEMA_UNMANAGED = ("The database has tables but no record of any migration (no alembic_version table): it was not "
                    "made by `python -m app migrate`. Point DATABASE_URL at the console's own database, or at an "
                    "empty one, which serve migrates itself.")


def _database_reachable() -> None:
    """Every command works on the database: one it cannot connect to is said in a line, not a driver traceback."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import OperationalError

    from app.kernel.db import get_engine

    settings = get_settings()
    try:
        get_engine().connect().close()
    except OperationalError as error:
        url = make_url(settings.database_url or settings.sqlalchemy_url).render_as_string(hide_password=True)
        sys.exit(DATABASE_UNREACHABLE.format(url=url, reason=str(error.orig).strip().splitlines()[0]))


def _schema_ready() -> None:
    """A database with no tables at all (a fresh data directory) is migrated here: there is nothing in it to lose.
    One at another release's schema is not: an upgrade is the operator's step, after a backup."""
    from app.kernel import db

    state = db.schema_state()
    if state == "new":
        print("the database is empty: migrating it first (python -m app migrate)", flush=True)
        db.migrate()
    elif state in ("behind", "newer"):
        applied, newest = db.schema_revisions()
        refusal = SCHEMA_BEHIND if state == "behind" else SCHEMA_NEWER
        sys.exit(refusal.format(applied=", ".join(sorted(applied)), newest=", ".join(sorted(newest))))
    elif state == "unmanaged":
        sys.exit(SCHEMA_UNMANAGED)


def _serve(args: argparse.Namespace) -> None:
    import threading

    import uvicorn

    from app.kernel.db import get_engine
    from app.reference import geo

    settings = get_settings()
    workers = serving_processes(settings)
    configure_logging(settings)  # this process's; each worker process's in serving_app()
    _schema_ready()
    # Before listening: a second server on the same statistics file would start, look healthy and answer every
    # statistics call with a 500. It refuses instead, naming the settings that give it a file of its own.
    _open_store(STORE_HELD_FOR_SERVE)
    if workers > 1:
        from app.kernel.metrics import prepare_multiprocess
        from app.warehouse.clickhouse_store import close_stores

        prepare_multiprocess(settings.data_dir)  # each worker process's metrics add up at /metrics

        close_stores()  # the store answered; each worker process opens its own client
        get_engine().dispose()  # so did the database (its checks above): the supervisor keeps no connection idle
    else:
        # A head start on data the campaign pages read; a request that needs it meanwhile waits for it.
        threading.Thread(target=geo.warm_up, name="geo-warm-up", daemon=True).start()
    # --fd serves on a socket the caller already bound and passed down (tests: no window in which another
    # process could take a port between choosing it and binding it).
    where: dict[str, Any] = {"fd": args.fd} if args.fd is not None else {"host": settings.host, "port": settings.port}
    # Only the proxies named in DSP_FORWARDED_ALLOW_IPS may say who the client is (X-Forwarded-For) and that it
    # came over https (X-Forwarded-Proto): the sign-in throttle counts that address, HSTS follows that scheme.
    # log_config: uvicorn applies the same configuration in each worker process it starts (a fresh interpreter
    # each, which would otherwise log with Python's defaults). access_log=False: app/web/observe.py writes the
    # access lines, with request id, route, user and duration.
    uvicorn.run("app.cli:serving_app", factory=True, proxy_headers=True, log_config=logging_config(settings),
                log_level="info", ws_ping_interval=20, forwarded_allow_ips=settings.forwarded_allow_ips,
                access_log=False, workers=workers, **where)


def serving_app() -> Any:
    """The app of one serving process (uvicorn's factory, called in each worker process as it starts): its
    logging configured first, as in the process that ran `serve`."""
    from app.main import create_app

    configure_logging(get_settings())
    return create_app()


def _migrate(args: argparse.Namespace) -> None:
    from app.kernel.db import migrate

    migrate(args.to)
    print("database is at the newest schema" if args.to == "head" else f"database is at schema revision {args.to}")


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


SEED_IN_PRODUCTION = ("seed-demo makes demo accounts whose password ({password}) is published in the README, and "
                      "this is production (DSP_ENVIRONMENT=production): refused. Create your own admin with "
                      "`python -m app create-admin EMAIL`, or add --i-know-this-is-production to seed anyway.")


def _seed(args: argparse.Namespace) -> None:
    from app.demo.advertising import approve_demo_exchanges, seed_demo_advertising
    from app.demo.seed import DEMO_PASSWORD, seed_demo
    from app.kernel.db import session_scope

    if get_settings().environment == "production" and not args.i_know_this_is_production:
        sys.exit(SEED_IN_PRODUCTION.format(password=DEMO_PASSWORD))

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


def _backup(args: argparse.Namespace) -> None:
    from pathlib import Path

    from app.operations.archive import ArchiveRefused
    from app.operations.backup import backup

    if args.to.endswith("/"):  # a folder, even one that does not exist yet
        Path(args.to).mkdir(parents=True, exist_ok=True)
    try:
        done = backup(Path(args.to))
    except ArchiveRefused as refusal:
        sys.exit(str(refusal))
    print(f"backup written: {done.archive} ({done.archive.stat().st_size:,} bytes; schema "
          f"{done.manifest.alembic_revision}, {done.manifest.database} database, {done.manifest.statistics} "
          f"statistics, {done.files} files)")
    for note in done.notes:
        print(f"note: {note}")


def _restore(args: argparse.Namespace) -> None:
    from pathlib import Path

    from app.operations.archive import ArchiveRefused
    from app.operations.backup import restore

    try:
        done = restore(Path(args.archive), force=args.force, other_revision=args.other_revision)
    except ArchiveRefused as refusal:
        sys.exit(str(refusal))
    print(f"restored {done.archive} (made {done.manifest.created} by DSP Console {done.manifest.app_version}, "
          f"{done.files} files); the database is at the newest schema")
    for note in done.notes:
        print(f"note: {note}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m app", description="DSP Console")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve on $PORT (default 8000)")
    serve.add_argument("--fd", type=int, help="serve on this already-bound listening socket instead")
    serve.set_defaults(run=_serve)
    migrate = commands.add_parser("migrate", help="apply database migrations")
    migrate.add_argument("--to", default="head", help="stop at this revision (default: the newest)")
    migrate.set_defaults(run=_migrate)
    seed = commands.add_parser("seed-demo", help="create the demo brand and users")
    seed.add_argument("--i-know-this-is-production", action="store_true",
                      help="seed even with DSP_ENVIRONMENT=production (the demo password is public)")
    seed.set_defaults(run=_seed)
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
    backup = commands.add_parser(
        "backup", help="write the database, the statistics and the files into one archive",
        description="Writes one .tar.gz: a manifest (version, schema revision, store kinds, time, checksums), the "
                    "entity database (a consistent copy while the server serves), the statistics store (DuckDB, "
                    "chDB: stop the server first, it holds them; a ClickHouse server is backed up on its own) and "
                    "the files (data directory or bucket).")
    backup.add_argument("--to", default=".", help="the archive's path, or a folder for a dated name (default: here)")
    backup.set_defaults(run=_backup)
    restore = commands.add_parser(
        "restore", help="put an archive's database, statistics and files in place, then migrate",
        description="Checks every checksum first. Refuses a console that holds data unless --force, and an "
                    "archive of another schema revision unless --other-revision. Run it with the server stopped.")
    restore.add_argument("archive", help="a file written by `python -m app backup`")
    restore.add_argument("--force", action="store_true", help="replace the data this console holds (it is lost)")
    restore.add_argument("--other-revision", action="store_true",
                         help="restore an archive of an older schema revision, then migrate it to this code's")
    restore.set_defaults(run=_restore)
    args = parser.parse_args(argv)
    try:
        get_settings()
    except ValidationError as error:
        sys.exit("\n".join(refusal_lines(error)))
    _database_reachable()
    args.run(args)
