"""Creating, editing and configuring accounts, password resets, moving advertisers between
agencies, change logs and payment lists — and that an agency never reaches beyond its own."""

import pytest
from sqlmodel import select

from app.access import api_keys, sessions
from app.access.models import AuthSession, User, UserSettings
from app.accounts import directory, impersonation, user_config, users
from app.funds import ledger
from app.history import change_log
from app.kernel.errors import Forbidden, Invalid, NotFound
from app.messaging.models import EmailOutbox
from app.reference.models import ReferenceValue
from tests.helpers import actor_of, other_tenant, user_by_email

NEW = {"email": "Nova@Brand.example", "password": "nova-Pass-1", "first_name": "Nova", "last_name": "Lane",
       "company_name": "Nova Brands"}


def test_admin_creates_any_role_and_the_change_log_shows_it(db):
    admin = actor_of(db, "admin@demo.example")
    agency = user_by_email(db, "agency@demo.example")
    created = users.create_user(db, actor=admin, role="ADVERTISER", agency_id=agency.id, **NEW)
    assert created.email == "nova@brand.example" and created.agency_id == agency.id
    assert db.get(UserSettings, created.id) is not None
    co = users.create_user(db, actor=admin, role="CO-ADMIN", **{**NEW, "email": "co2@demo.example",
                                                                 "company_name": ""})
    assert co.role == "CO-ADMIN" and co.agency_id is None
    log = change_log.page(db, actor=admin, kind="user", record_id=created.id).entries
    assert log[0].action == "create" and log[0].actor.startswith("Ada Admin")


def test_create_reports_every_bad_field_and_duplicate_email(db):
    admin = actor_of(db, "admin@demo.example")
    with pytest.raises(Invalid) as bad:
        users.create_user(db, actor=admin, role="AGENCY", email="nope", password="short", first_name="",
                          last_name="Ok", company_name="")
    assert set(bad.value.fields) == {"email", "password", "first_name", "company_name"}
    with pytest.raises(Invalid) as taken:
        users.create_user(db, actor=admin, role="AGENCY", **{**NEW, "email": "agency@demo.example"})
    assert taken.value.fields == {"email": "An account with this email already exists."}
    with pytest.raises(Invalid) as role:
        users.create_user(db, actor=admin, role="ROOT", **NEW)
    assert "role" in role.value.fields


def test_only_admin_adds_users_and_an_agency_only_its_own_advertisers(db):
    with pytest.raises(Forbidden):
        users.create_user(db, actor=actor_of(db, "coadmin@demo.example"), role="ADVERTISER", **NEW)
    agency = actor_of(db, "agency@demo.example")
    rival_agency, _ = other_tenant(db)
    created = users.create_user(db, actor=agency, role="ADVERTISER", agency_id=rival_agency.id, **NEW)
    assert created.agency_id == agency.id  # the agency cannot place advertisers elsewhere
    with pytest.raises(Forbidden):
        users.create_user(db, actor=agency, role="AGENCY", **{**NEW, "email": "x@y.example"})


def test_edit_is_scoped_and_audited(db):
    _, rival_advertiser = other_tenant(db)
    agency = actor_of(db, "agency@demo.example")
    own = user_by_email(db, "advertiser@demo.example")
    with pytest.raises(NotFound):
        users.update_user(db, actor=agency, user_id=rival_advertiser.id, email="a@b.example", first_name="A",
                          last_name="B", company_name="C")
    with pytest.raises(NotFound):
        users.get_user(db, actor=agency, user_id=rival_advertiser.id)
    with pytest.raises(NotFound):
        change_log.page(db, actor=agency, kind="user", record_id=rival_advertiser.id)
    with pytest.raises(NotFound):
        ledger.payment_history(db, actor=agency, advertiser_id=rival_advertiser.id)
    users.update_user(db, actor=agency, user_id=own.id, email=own.email, first_name="Arlo", last_name="Renamed",
                      company_name="Acme Outdoor")
    entry = change_log.page(db, actor=agency, kind="user", record_id=own.id).entries[0]
    assert entry.action == "update" and [c.model_dump() for c in entry.changes] == [
        {"field": "last_name", "old": "Advertiser", "new": "Renamed"}]


def test_impersonated_writes_name_the_real_user(db):
    admin = actor_of(db, "admin@demo.example")
    agency = user_by_email(db, "agency@demo.example")
    impersonation.impersonate(db, actor=admin, target_id=agency.id)
    db.flush()
    acting = sessions.actor_for(db, sessions.find_by_id(db, session_id=admin.session_id))
    own = user_by_email(db, "advertiser@demo.example")
    user_config.set_margin(db, actor=acting, user_id=own.id, margin="12.5")
    entry = change_log.page(db, actor=admin, kind="user", record_id=own.id).entries[0]
    assert entry.actor.startswith("Blue Harbor Agency · Agnes Agency") and entry.on_behalf.startswith("Ada Admin")
    assert [c.model_dump() for c in entry.changes] == [{"field": "margin_bps", "old": 0, "new": 1250}]
    row = next(r for r in directory.accounts_overview(db, actor=acting) if r.id == own.id)
    assert row.margin == "12.5 %"


def test_password_reset_mails_a_code_to_the_user(db):
    agency = actor_of(db, "agency@demo.example")
    own = user_by_email(db, "advertiser@demo.example")
    assert users.send_password_reset(db, actor=agency, user_id=own.id) == own.email
    mail = db.exec(select(EmailOutbox).where(EmailOutbox.to_address == own.email)).all()[-1]
    assert "reset your password" in mail.body
    with pytest.raises(Forbidden):
        users.send_password_reset(db, actor=actor_of(db, "advertiser@demo.example"), user_id=own.id)


def test_config_switches_margin_and_exchanges(db):
    admin = actor_of(db, "admin@demo.example")
    own = user_by_email(db, "advertiser@demo.example")
    adx = ReferenceValue(kind="exchange", name="Test AdX")
    os_value = ReferenceValue(kind="os_version", name="Android 99")
    db.add_all([adx, os_value])
    db.flush()
    base = {"insight_dashboard": False, "postback_enabled": False, "api_access": True}
    user_config.update_config(db, actor=admin, user_id=own.id, margin="7.25", allowed_exchanges=[adx.id], **base)
    config = user_config.get_config(db, actor=admin, user_id=own.id)
    assert config.margin == "7.25" and config.allowed_exchanges == [adx.id] and not config.postback_enabled
    for margin in ("-1", "91", "abc", "1.234"):
        with pytest.raises(Invalid) as bad:
            user_config.update_config(db, actor=admin, user_id=own.id, margin=margin, allowed_exchanges=[], **base)
        assert "margin" in bad.value.fields
    with pytest.raises(Invalid) as wrong_kind:
        user_config.update_config(db, actor=admin, user_id=own.id, margin="0", allowed_exchanges=[os_value.id],
                                  **base)
    assert "allowed_exchanges" in wrong_kind.value.fields
    with pytest.raises(Forbidden):
        user_config.get_config(db, actor=actor_of(db, "agency@demo.example"), user_id=own.id)
    entry = change_log.page(db, actor=admin, kind="user", record_id=own.id).entries[0]
    assert {c.field for c in entry.changes} >= {"margin_bps", "allowed_exchanges", "postback_enabled"}


def test_assigning_an_advertiser_moves_it_with_its_funds_and_ends_the_old_agencys_reach(db):
    rival_agency, _ = other_tenant(db)
    admin = actor_of(db, "admin@demo.example")
    agency = actor_of(db, "agency@demo.example")
    own = user_by_email(db, "advertiser@demo.example")
    user_config.set_margin(db, actor=agency, user_id=own.id, margin="10")
    impersonation.impersonate(db, actor=agency, target_id=own.id)  # the agency is acting as it right now
    db.flush()
    assert users.assign_advertisers(db, actor=admin, advertiser_ids=[own.id], agency_id=rival_agency.id) == 1
    db.flush()
    assert db.get(User, own.id).agency_id == rival_agency.id
    assert db.get(UserSettings, own.id).margin_bps == 0  # the old agency's margin does not follow
    row = db.get(AuthSession, agency.session_id)
    assert row.stack == [agency.id]  # the agency's session falls back to the agency itself
    with pytest.raises(NotFound):
        users.get_user(db, actor=agency, user_id=own.id)
    rival = actor_of(db, "rival-agency@other.example")
    assert ledger.payment_history(db, actor=rival, advertiser_id=own.id)[0].balance == "5000.00"
    assert [e.action for e in change_log.page(db, actor=admin, kind="user", record_id=rival_agency.id).entries][0] \
        == "advertiser_moved_to"
    # The advertiser's own log names both agencies for the admin; its new agency does not learn the old one's name.
    moved = [c.model_dump() for c in change_log.page(db, actor=admin, kind="user", record_id=own.id).entries[0].changes]
    assert {"field": "agency_id", "old": "Blue Harbor Agency", "new": "Rival Media"} in moved
    moved = [c.model_dump() for c in change_log.page(db, actor=rival, kind="user", record_id=own.id).entries[0].changes]
    assert {"field": "agency_id", "old": f"#{agency.id}", "new": "Rival Media"} in moved
    with pytest.raises(Forbidden):
        users.assign_advertisers(db, actor=agency, advertiser_ids=[own.id], agency_id=agency.id)
    with pytest.raises(Invalid):
        users.assign_advertisers(db, actor=admin, advertiser_ids=[own.id], agency_id=admin.id)


def test_lists_filter_and_agencies_total_their_advertisers(db):
    admin = actor_of(db, "admin@demo.example")
    rows = directory.accounts_overview(db, actor=admin, role="ADVERTISER")
    assert {r.email for r in rows} == {"advertiser@demo.example"}
    assert directory.accounts_overview(db, actor=admin, status="disabled") == []
    with pytest.raises(Invalid):
        directory.accounts_overview(db, actor=admin, role="nobody")
    agencies = directory.agencies_overview(db, actor=admin)
    assert [(a.email, a.advertisers, a.balance) for a in agencies] == [("agency@demo.example", 1, "5000.00")]
    with pytest.raises(Forbidden):
        directory.agencies_overview(db, actor=actor_of(db, "agency@demo.example"))


def test_payment_history_runs_a_balance(db):
    admin = actor_of(db, "admin@demo.example")
    own = user_by_email(db, "advertiser@demo.example")
    history = ledger.payment_history(db, actor=admin, advertiser_id=own.id)
    assert history[0].amount == "5000.00" and history[0].by == "Ada Admin"
    with pytest.raises(NotFound):  # agencies have no payment list of their own
        ledger.payment_history(db, actor=admin, advertiser_id=user_by_email(db, "agency@demo.example").id)


def test_switching_api_access_off_revokes_the_users_keys(db):
    from app.settings import api_credentials

    admin = actor_of(db, "admin@demo.example")
    own = user_by_email(db, "advertiser@demo.example")
    token = api_credentials.generate(db, actor=admin, user_id=own.id, label="Reporting").token
    base = {"insight_dashboard": True, "postback_enabled": True, "margin": "0", "allowed_exchanges": []}
    user_config.update_config(db, actor=admin, user_id=own.id, api_access=False, **base)
    user_config.update_config(db, actor=admin, user_id=own.id, api_access=True, **base)
    db.flush()
    assert api_keys.authenticate(db, token=token) is None
    assert all(c.revoked for c in api_credentials.list_credentials(db, actor=admin, user_id=own.id))
