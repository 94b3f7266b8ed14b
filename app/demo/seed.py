"""Demo data: one brand and one user per role (password demo-Pass-2026). Safe to run again."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, select

from app.access.models import User, UserSettings, UserStatus
from app.access.passwords import hash_password
from app.access.roles import Role
from app.funds.models import LedgerEntry
from app.kernel.model_base import utcnow
from app.kernel.money import MICROS_PER_DOLLAR
from app.messaging.models import Notification
from app.reference.metadata import link_reference_details, seed_reference_values
from app.reference.models import ReferenceValue
from app.settings.models import CompanyConfig

DEMO_PASSWORD = "demo-Pass-2026"
DEMO_USERS: tuple[tuple[str, Role, str, str, str], ...] = (
    ("admin@demo.example", Role.ADMIN, "Ada", "Admin", "Northwind Media"),
    ("coadmin@demo.example", Role.CO_ADMIN, "Colin", "Coadmin", "Northwind Media"),
    ("agency@demo.example", Role.AGENCY, "Agnes", "Agency", "Blue Harbor Agency"),
    ("advertiser@demo.example", Role.ADVERTISER, "Arlo", "Advertiser", "Acme Outdoor"),
)
DEMO_OPENING_DEPOSIT_MICROS = 5_000 * MICROS_PER_DOLLAR
DEMO_HISTORY_DAYS = 30  # what `python -m app simulate` writes by default


def create_user(db: Session, *, email: str, role: Role, password: str, first_name: str = "", last_name: str = "",
                company_name: str = "", agency_id: int | None = None) -> User:
    user = User(email=email.lower(), password_hash=hash_password(password), role=role, first_name=first_name,
                last_name=last_name, company_name=company_name, agency_id=agency_id, status=UserStatus.ACTIVE)
    db.add(user)
    db.flush()
    return user


def _untouched_default(config: CompanyConfig) -> bool:
    neutral = CompanyConfig(host="")
    fields = ("meta_title", "name", "logo_file", "favicon_file", "agency_id", "help_and_support", "footer_text",
              "primary_color", "maintenance_mode")
    return all(getattr(config, f) == getattr(neutral, f) for f in fields)


def seed_demo(db: Session) -> dict[str, int]:
    ids: dict[str, int] = {}
    for email, role, first, last, company in DEMO_USERS:
        user = db.exec(select(User).where(User.email == email)).first()
        if user is None:
            agency_id = ids.get("agency@demo.example") if role == Role.ADVERTISER else None
            user = create_user(db, email=email, role=role, password=DEMO_PASSWORD, first_name=first, last_name=last,
                               company_name=company, agency_id=agency_id)
            assert user.id is not None
            db.add(Notification(user_id=user.id, title="Welcome to the console",
                                body="Your account is ready. Open the documentation to get started.",
                                link="/documentation/console"))
        assert user.id is not None
        ids[email] = user.id

    advertiser_id = ids["advertiser@demo.example"]
    if db.get(UserSettings, advertiser_id) is None:
        db.add(UserSettings(user_id=advertiser_id, insight_dashboard=True, postback_enabled="ENABLED", api_access=True))
    if db.exec(select(LedgerEntry).where(LedgerEntry.advertiser_id == advertiser_id)).first() is None:
        # Booked before the 30 days `python -m app simulate` charges (dated at the hours they delivered in), so
        # the demo's ledger reads in order: the deposit, then the spending.
        db.add(LedgerEntry(advertiser_id=advertiser_id, amount_micros=DEMO_OPENING_DEPOSIT_MICROS, kind="deposit",
                           note="Opening deposit", created_by=ids["admin@demo.example"],
                           created_at=utcnow() - timedelta(days=DEMO_HISTORY_DAYS + 1)))

    # Only into an empty table: a value an admin renamed or retired must not come back on the next `make run`.
    if db.exec(select(ReferenceValue)).first() is None:
        seed_reference_values(db)
    elif db.exec(select(ReferenceValue).where(ReferenceValue.kind == "operating_system")).first() is None:
        # Data from before operating systems were a list (migration 0005): add them once, and link the known
        # versions and carriers; later runs see the systems and leave an admin's choices alone.
        seed_reference_values(db, kinds=("operating_system",))
        link_reference_details(db)

    config = db.exec(select(CompanyConfig).where(CompanyConfig.host == "")).first()
    demo_brand = {"meta_title": "Northwind DSP", "name": "Northwind DSP", "agency_id": ids["agency@demo.example"],
                  "footer_start_year": 2024, "footer_text": "Northwind DSP. All rights reserved.",
                  "help_and_support": True, "help_and_support_link": "https://support.northwind.example/"}
    if config is None:
        db.add(CompanyConfig.model_validate({"host": "", **demo_brand}))
    elif _untouched_default(config):
        # A request that came before the seed made the neutral brand (company.config_row_for_host): the demo's
        # replaces it. An admin's own brand is never overwritten.
        for field, value in demo_brand.items():
            setattr(config, field, value)
        db.add(config)
    return ids
