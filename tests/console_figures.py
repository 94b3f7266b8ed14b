"""`python -m tests.console_figures START END`: what a user and an operator of the configured console see, as
JSON: the users, the campaigns, each advertiser's balance, the admin's and the advertiser's dashboards over
START..END (ISO dates), and every stored file's checksum. Two consoles that print the same hold the same data."""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

from sqlalchemy import func
from sqlmodel import select

import app.tables  # noqa: F401  (every table, as the console loads them)
from app.access.models import User
from app.campaigns.models import Campaign
from app.funds.models import LedgerEntry
from app.kernel.db import session_scope
from app.kernel.storage import FOLDERS, get_storage
from app.statistics import dashboards
from tests.helpers import actor_of


def figures(start: str, end: str) -> dict[str, Any]:
    storage = get_storage()
    with session_scope() as db:
        emails = {user.id: user.email for user in db.exec(select(User))}
        return {
            "users": sorted([u.email, u.role, u.status, u.first_name, emails.get(u.agency_id)]
                            for u in db.exec(select(User))),
            "campaigns": sorted([emails[c.advertiser_id], c.name, c.status, c.total_budget_micros, c.bid_micros,
                                 c.targeting] for c in db.exec(select(Campaign))),
            "balances": sorted([emails[advertiser], int(total)] for advertiser, total in db.exec(
                select(LedgerEntry.advertiser_id, func.sum(LedgerEntry.amount_micros))
                .group_by(LedgerEntry.advertiser_id))),
            "dashboards": {email: dashboards.dashboard(db, actor=actor_of(db, email), start=start, end=end)
                           .model_dump(mode="json") for email in ("admin@demo.example", "advertiser@demo.example")},
            "files": sorted([found.key, hashlib.sha256(storage.read(found.key)).hexdigest()]
                            for folder in FOLDERS for found in storage.list(folder + "/")),
        }


if __name__ == "__main__":
    print(json.dumps(figures(sys.argv[1], sys.argv[2]), default=str))
