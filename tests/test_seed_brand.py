"""The demo seed's brand wins over a neutral default that a request made first, never over an admin's."""

from __future__ import annotations

from sqlmodel import select

from app.demo.seed import seed_demo
from app.settings import company
from app.settings.models import CompanyConfig


def test_a_neutral_default_made_before_the_seed_becomes_the_demo_brand(db):
    for row in db.exec(select(CompanyConfig)):
        db.delete(row)
    db.flush()
    assert company.branding_for_host(db, "").name == "DSP Console"  # a first request's neutral brand
    seed_demo(db)
    assert company.branding_for_host(db, "").name == "Northwind DSP"


def test_an_admins_brand_is_kept(db):
    row = db.exec(select(CompanyConfig).where(CompanyConfig.host == "")).one()
    row.name, row.meta_title = "DSP Console", "DSP Console"  # chosen by an admin, but the colours are theirs too
    row.primary_color = "#0d9488"
    db.add(row)
    db.flush()
    seed_demo(db)
    assert company.branding_for_host(db, "").name == "DSP Console"
