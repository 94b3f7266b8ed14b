"""White-label configuration: host choice, admin-only edits with field messages, image uploads."""

from __future__ import annotations

import pytest
from sqlmodel import select
from starlette.testclient import TestClient

from app.demo.seed import DEMO_PASSWORD
from app.history.models import AuditEntry
from app.kernel.db import run
from app.kernel.errors import Forbidden, Invalid
from app.kernel.storage import get_storage
from app.main import create_app
from app.settings import company
from app.settings.models import CompanyConfig
from tests.helpers import actor_of
from tests.media_files import image_bytes

PNG = image_bytes(32, 32)  # a whole picture: a PNG signature alone is refused


def test_host_picks_its_brand_or_the_default(db):
    db.add(CompanyConfig(host="ads.acme.example", name="Acme Ads", meta_title="Acme"))
    db.flush()
    assert company.branding_for_host(db, "ads.acme.example:8000").name == "Acme Ads"
    assert company.branding_for_host(db, "other.example").name == "Northwind DSP"


def test_only_admin_edits_the_brand_and_changes_are_audited(db):
    config_id = company.branding_for_host(db, "").id
    with pytest.raises(Forbidden):
        company.update_config(db, actor=actor_of(db, "coadmin@demo.example"), config_id=config_id, values={"name": "X"})
    admin = actor_of(db, "admin@demo.example")
    brand = company.update_config(db, actor=admin, config_id=config_id,
                                  values={"name": "Harbor Ads", "primary_color": "#0d9488", "maintenance_mode": True})
    assert brand.name == "Harbor Ads" and brand.primary_color == "#0d9488" and brand.maintenance_mode
    entry = db.exec(select(AuditEntry).where(AuditEntry.entity == "company_config")).one()
    assert entry.changes["name"] == ["Northwind DSP", "Harbor Ads"] and entry.real_user_id == admin.id


def test_bad_values_name_their_fields_and_change_nothing(db):
    config_id = company.branding_for_host(db, "").id
    admin = actor_of(db, "admin@demo.example")
    with pytest.raises(Invalid) as error:
        company.update_config(db, actor=admin, config_id=config_id,
                              values={"primary_color": "red", "help_and_support_link": "not a url", "name": "",
                                      "footer_start_year": "1800"})
    assert set(error.value.fields) == {"primary_color", "help_and_support_link", "name", "footer_start_year"}
    assert company.branding_for_host(db, "").name == "Northwind DSP"


def test_image_upload_checks_content_not_the_name(db):
    config_id = company.branding_for_host(db, "").id
    admin = actor_of(db, "admin@demo.example")
    with pytest.raises(Invalid):
        company.store_image(db, actor=admin, config_id=config_id, kind="logo", filename="evil.png", content=b"<svg onload=x>")
    with pytest.raises(Invalid):
        company.store_image(db, actor=admin, config_id=config_id, kind="logo", filename="big.png",
                            content=PNG + b"\x00" * 2_000_000)
    brand = company.store_image(db, actor=admin, config_id=config_id, kind="logo", filename="logo.png", content=PNG)
    assert brand.logo_url.startswith("/files/branding/logo-")
    assert get_storage().read(company.branding_file(brand.logo_url.rsplit("/", 1)[-1])) == PNG
    assert company.branding_file("../../etc/passwd") is None


def test_upload_form_posts_and_serves_the_file(demo_ids):
    with TestClient(create_app(), base_url="http://testserver") as client:
        token = client.post("/api/auth/login/", json={"email": "admin@demo.example", "password": DEMO_PASSWORD}).json()["data"]["token"]
        config_id = run(company.branding_for_host, host="").id
        reply = client.post(f"/api/company-config/{config_id}/favicon", files={"file": ("fav.png", PNG, "image/png")},
                            headers={"Authorization": f"Bearer {token}"})
        assert reply.status_code == 200, reply.text
        served = client.get(reply.json()["data"]["favicon"])
        assert served.status_code == 200 and served.content == PNG
        agency = client.post("/api/auth/login/", json={"email": "agency@demo.example", "password": DEMO_PASSWORD}).json()["data"]["token"]
        refused = client.post(f"/api/company-config/{config_id}/logo", files={"file": ("l.png", PNG, "image/png")},
                              headers={"Authorization": f"Bearer {agency}"})
        assert refused.status_code == 403
