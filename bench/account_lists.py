"""How long the account lists take to load at scale (prints milliseconds).

Builds 100 agencies with 50 advertisers each (5,000 advertisers, 20 ledger entries apiece) in a
throwaway SQLite database, then times the service calls behind /admin/users, /admin/agencies,
/agency/advertiser and a payment list. Usage: `.venv/bin/python bench/account_lists.py [agencies] [per_agency]`.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DSP_DATA_DIR", tempfile.mkdtemp(prefix="dsp-bench-"))

from sqlmodel import Session  # noqa: E402

from app.access.models import User, UserStatus  # noqa: E402
from app.access.passwords import hash_password  # noqa: E402
from app.access.roles import Role  # noqa: E402
from app.accounts import account_grids, directory  # noqa: E402
from app.demo.seed import seed_demo  # noqa: E402
from app.funds import ledger  # noqa: E402
from app.funds import service as funds  # noqa: E402
from app.funds.models import LedgerEntry  # noqa: E402
from app.kernel.db import migrate, run  # noqa: E402
from app.kernel.money import MICROS_PER_DOLLAR  # noqa: E402
from tests.helpers import actor_of  # noqa: E402

ENTRIES_PER_ADVERTISER = 20


def populate(db: Session, agencies: int, per_agency: int) -> int:
    """Adds the accounts; returns the id of one advertiser of the first added agency."""
    password = hash_password("bench-Pass-1")  # one hash for all: hashing is not what is measured
    first_advertiser = 0
    for a in range(agencies):
        agency = User(email=f"agency{a}@bench.example", password_hash=password, role=Role.AGENCY,
                      first_name="Agency", last_name=str(a), company_name=f"Bench Agency {a}",
                      status=UserStatus.ACTIVE)
        db.add(agency)
        db.flush()
        advertisers = [User(email=f"adv{a}-{i}@bench.example", password_hash=password, role=Role.ADVERTISER,
                            first_name="Advertiser", last_name=f"{a}-{i}", company_name=f"Brand {a}-{i}",
                            agency_id=agency.id, status=UserStatus.ACTIVE) for i in range(per_agency)]
        db.add_all(advertisers)
        db.flush()
        first_advertiser = first_advertiser or int(advertisers[0].id or 0)
        db.add_all(LedgerEntry(advertiser_id=adv.id or 0, amount_micros=(100 + n) * MICROS_PER_DOLLAR,
                               kind="deposit" if n % 4 == 0 else "spend", note="bench")
                   for adv in advertisers for n in range(ENTRIES_PER_ADVERTISER))
    return first_advertiser


def timed(label: str, call: Callable[[Session], Any], rounds: int) -> None:
    timings, size = [], 0
    for _ in range(rounds):
        start = time.perf_counter()
        result = run(call)
        timings.append((time.perf_counter() - start) * 1000)
        size = len(getattr(result, "items", getattr(result, "rows", result)))
    print(f"{label:<34} {size:>6} rows   median {statistics.median(timings):7.1f} ms   "
          f"max {max(timings):7.1f} ms   ({rounds} rounds)")


def main(agencies: int = 100, per_agency: int = 50, rounds: int = 5) -> None:
    migrate()
    run(seed_demo)
    start = time.perf_counter()
    advertiser_id = run(lambda db: populate(db, agencies, per_agency))
    print(f"built {agencies} agencies, {agencies * per_agency} advertisers, "
          f"{agencies * per_agency * ENTRIES_PER_ADVERTISER} ledger entries in {time.perf_counter() - start:.1f} s")

    admin = run(lambda db: actor_of(db, "admin@demo.example"))
    agency = run(lambda db: actor_of(db, "agency@demo.example"))
    timed("/admin/users (every account)", lambda db: directory.accounts_overview(db, actor=admin), rounds)
    timed("/admin/users?role=ADVERTISER", lambda db: directory.accounts_overview(
        db, actor=admin, role=Role.ADVERTISER.value), rounds)
    timed("/admin/agencies", lambda db: directory.agencies_overview(db, actor=admin), rounds)
    timed("/agency/advertiser (demo agency)", lambda db: directory.accounts_overview(db, actor=agency), rounds)
    timed("payment list (20 entries)", lambda db: ledger.payment_history(
        db, actor=admin, advertiser_id=advertiser_id), rounds)
    # The paged API lists and the funds grid (issue 26): one page of 50, however long the list.
    timed("GET /api/agencies (a page of 50)", lambda db: directory.agencies_page(db, actor=admin), rounds)
    timed("GET /api/funds (a page of 50)", lambda db: funds.funds_page(db, actor=admin), rounds)
    timed("GET /api/funds (every advertiser)", lambda db: funds.funds_overview(db, actor=admin), rounds)
    timed("/admin/funds grid (page 1, by balance)", lambda db: funds.funds_list_page(
        db, actor=admin, sort="-balance"), rounds)
    # The account grids a page at a time (issue 26, account_grids): before, each read every account above.
    timed("/admin/users grid (page 1 of 50)", lambda db: account_grids.accounts_list_page(db, actor=admin), rounds)
    timed("/admin/users grid (page 100)", lambda db: account_grids.accounts_list_page(db, actor=admin, page=100),
          rounds)
    timed("/admin/users grid (by name)", lambda db: account_grids.accounts_list_page(db, actor=admin, sort="name"),
          rounds)
    timed("/admin/users grid (by balance)", lambda db: account_grids.accounts_list_page(
        db, actor=admin, sort="-balance"), rounds)
    timed("/admin/users grid (search)", lambda db: account_grids.accounts_list_page(
        db, actor=admin, search="brand 7-4"), rounds)
    timed("/admin/agencies grid (page 1)", lambda db: account_grids.agencies_list_page(db, actor=admin), rounds)
    timed("/admin/agencies grid (by balance)", lambda db: account_grids.agencies_list_page(
        db, actor=admin, sort="-balance"), rounds)
    timed("GET /api/users/{id}/payments (page)", lambda db: ledger.payment_history_page(
        db, actor=admin, advertiser_id=advertiser_id, limit=10), rounds)


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]))
