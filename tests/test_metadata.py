"""Reference lists (/admin/metadata): add, rename, retire, delete only when unused; who may do what;
every write audited; the page renders the lists."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlmodel import Session, select

from app.access.models import UserSettings
from app.access.roles import Role
from app.campaigns.models import Campaign
from app.history.models import AuditEntry
from app.kernel.db import run
from app.kernel.errors import Conflict, Forbidden, Invalid, NotFound
from app.kernel.hooks import Hook
from app.reference import metadata
from app.reference.models import REFERENCE_KINDS, ReferenceValue
from app.reference.schemas import ReferenceOption, ReferenceValueRead
from components.pages import page_path
from tests.helpers import actor_of, user_by_email
from tests.render import render_model, signed_in_console, text_of, walk


@pytest.fixture
def ref(db: Session) -> Session:
    """The seeded demo plus the reference data."""
    metadata.seed_reference_values(db)
    db.flush()
    return db


def _names(rows: list[ReferenceOption] | list[ReferenceValueRead]) -> list[str]:
    return [r.name for r in rows]


def _id_of(db: Session, kind: str, name: str) -> int:
    row = db.exec(select(ReferenceValue).where(ReferenceValue.kind == kind, ReferenceValue.name == name)).one()
    assert row.id is not None
    return row.id


def _audit(db: Session, value_id: int) -> list[tuple[str, int | None]]:
    rows = db.exec(select(AuditEntry).where(AuditEntry.entity == "reference_value",
                                            AuditEntry.entity_id == str(value_id)).order_by(AuditEntry.id)).all()
    return [(r.action, r.actor_id) for r in rows]


def _use_exchange(db: Session, email: str, value_id: int) -> None:
    user = user_by_email(db, email)
    settings = db.get(UserSettings, user.id) or UserSettings(user_id=user.id)
    settings.allowed_exchanges = [*settings.allowed_exchanges, value_id]
    db.add(settings)
    db.flush()


def test_seed_has_real_names_and_is_idempotent(ref):
    admin = actor_of(ref, "admin@demo.example")
    assert {"Google AdX", "OpenX", "PubMatic", "Magnite", "Index Exchange", "Xandr", "InMobi", "Smaato", "Unity Ads",
            "AppLovin"} <= set(_names(metadata.active_values(ref, actor=admin, kind="exchange")))
    assert _names(metadata.active_values(ref, actor=admin, kind="traffic_type")) == ["App", "CTV", "Web"]
    assert "Android 11" not in _names(metadata.active_values(ref, actor=admin, kind="os_version"))  # seeded retired
    for kind in REFERENCE_KINDS:
        assert metadata.active_values(ref, actor=admin, kind=kind), kind
    assert metadata.seed_reference_values(ref) == 0


def test_admin_adds_a_value_trimmed_and_pickers_offer_it(ref):
    admin = actor_of(ref, "admin@demo.example")
    added = metadata.add_value(ref, actor=admin, kind="exchange", name="  Equativ   Exchange ")
    assert added.name == "Equativ Exchange" and added.retired is False and added.used == 0
    assert "Equativ Exchange" in _names(metadata.list_values(ref, actor=admin, kind="exchange"))
    assert {"id": added.id, "name": "Equativ Exchange"} in [r.model_dump() for r in metadata.active_values(ref, actor=admin, kind="exchange")]
    # Each list is its own: the same name may exist under another kind.
    metadata.add_value(ref, actor=admin, kind="carrier", name="Equativ Exchange")


def test_duplicates_blank_long_and_unknown_kinds_are_refused(ref):
    admin = actor_of(ref, "admin@demo.example")
    for name in ("OpenX", "openx", " OPENX "):
        with pytest.raises(Invalid) as error:
            metadata.add_value(ref, actor=admin, kind="exchange", name=name)
        assert error.value.fields == {"name": "This name is already in the list."}
    with pytest.raises(Invalid) as error:
        metadata.add_value(ref, actor=admin, kind="exchange", name="   ")
    assert error.value.fields == {"name": "This field is required."}
    with pytest.raises(Invalid) as error:
        metadata.add_value(ref, actor=admin, kind="exchange", name="x" * 121)
    assert error.value.fields == {"name": "At most 120 characters."}
    assert metadata.add_value(ref, actor=admin, kind="exchange", name="x" * 120).name == "x" * 120
    with pytest.raises(Invalid) as error:
        metadata.add_value(ref, actor=admin, kind="planet", name="Mars")
    assert error.value.fields == {"kind": "Not an allowed value."}
    with pytest.raises(Invalid):
        metadata.active_values(ref, actor=admin, kind="planet")


def test_rename_changes_the_name_and_refuses_a_taken_one(ref):
    admin = actor_of(ref, "admin@demo.example")
    value_id = _id_of(ref, "exchange", "Xandr")
    renamed = metadata.rename_value(ref, actor=admin, value_id=value_id, name="Microsoft Invest")
    assert renamed.name == "Microsoft Invest" and renamed.id == value_id
    names = _names(metadata.active_values(ref, actor=admin, kind="exchange"))
    assert "Microsoft Invest" in names and "Xandr" not in names
    with pytest.raises(Invalid) as error:
        metadata.rename_value(ref, actor=admin, value_id=value_id, name="pubmatic")
    assert error.value.fields == {"name": "This name is already in the list."}
    # Changing only the case of its own name is fine.
    assert metadata.rename_value(ref, actor=admin, value_id=value_id, name="MICROSOFT INVEST").name == "MICROSOFT INVEST"
    with pytest.raises(Invalid):
        metadata.rename_value(ref, actor=admin, value_id=value_id, name="")
    with pytest.raises(NotFound):
        metadata.rename_value(ref, actor=admin, value_id=999_999, name="Nope")


def test_retired_values_leave_the_pickers_but_stay_in_the_admin_list(ref):
    admin = actor_of(ref, "admin@demo.example")
    value_id = _id_of(ref, "browser", "Opera")
    assert metadata.set_retired(ref, actor=admin, value_id=value_id, retired=True).retired is True
    assert "Opera" not in _names(metadata.active_values(ref, actor=admin, kind="browser"))
    rows = {r.name: r for r in metadata.list_values(ref, actor=admin, kind="browser")}
    assert rows["Opera"].retired is True
    assert "Opera" not in _names(metadata.list_values(ref, actor=admin, kind="browser", include_retired=False))
    counts = metadata.kind_counts(ref, actor=admin)
    assert counts["browser"].retired == 2  # Opera and the seeded Internet Explorer
    # Repeating it changes nothing (a replayed click after a reconnect).
    metadata.set_retired(ref, actor=admin, value_id=value_id, retired=True)
    assert [a for a, _ in _audit(ref, value_id)] == ["retire"]
    metadata.set_retired(ref, actor=admin, value_id=value_id, retired=False)
    assert "Opera" in _names(metadata.active_values(ref, actor=admin, kind="browser"))


def test_unused_values_can_be_deleted(ref):
    admin = actor_of(ref, "admin@demo.example")
    value_id = metadata.add_value(ref, actor=admin, kind="manufacturer", name="Nokia").id
    gone = metadata.delete_value(ref, actor=admin, value_id=value_id)
    assert gone.name == "Nokia"
    assert "Nokia" not in _names(metadata.list_values(ref, actor=admin, kind="manufacturer"))
    assert ref.get(ReferenceValue, value_id) is None
    with pytest.raises(NotFound):
        metadata.delete_value(ref, actor=admin, value_id=value_id)


def test_used_values_cannot_be_deleted_only_retired(ref):
    admin = actor_of(ref, "admin@demo.example")
    value_id = _id_of(ref, "exchange", "Magnite")
    _use_exchange(ref, "advertiser@demo.example", value_id)
    _use_exchange(ref, "agency@demo.example", value_id)
    rows = {r.name: r for r in metadata.list_values(ref, actor=admin, kind="exchange")}
    assert rows["Magnite"].used == 2 and rows["OpenX"].used == 0
    with pytest.raises(Conflict) as error:
        metadata.delete_value(ref, actor=admin, value_id=value_id)
    assert error.value.message == "This value is in use; retire it instead."
    assert ref.get(ReferenceValue, value_id) is not None
    assert metadata.set_retired(ref, actor=admin, value_id=value_id, retired=True).used == 2
    with pytest.raises(Conflict):
        metadata.delete_value(ref, actor=admin, value_id=value_id)  # retired, still used


def test_later_features_plug_their_usage_in(ref, monkeypatch):
    admin = actor_of(ref, "admin@demo.example")
    value_id = _id_of(ref, "traffic_type", "CTV")
    monkeypatch.setitem(metadata.USAGE_COUNTERS, "traffic_type", Hook("uses of traffic_type values"))
    metadata.register_usage_counter("traffic_type", "a later feature",
                                    lambda _db, ids: {value_id: 3} if value_id in ids else {})
    assert {r.name: r.used for r in metadata.list_values(ref, actor=admin, kind="traffic_type")}["CTV"] == 3
    with pytest.raises(Conflict):
        metadata.delete_value(ref, actor=admin, value_id=value_id)
    with pytest.raises(KeyError):
        metadata.register_usage_counter("planet", "a later feature", lambda _db, _ids: {})


def test_a_json_list_counter_counts_each_row_once_for_each_value_it_names(ref):
    """The one way usages kept in JSON lists are counted (accounts' allowed exchanges, DSPs' exchanges, campaign
    targeting): a row naming a value twice counts once, empty rows and values nobody names count nothing."""
    magnite, openx = _id_of(ref, "exchange", "Magnite"), _id_of(ref, "exchange", "OpenX")
    for email, named in (("advertiser@demo.example", [magnite, magnite]), ("agency@demo.example", [magnite, openx])):
        for value_id in named:
            _use_exchange(ref, email, value_id)
    accounts = metadata.json_list_counter(UserSettings.allowed_exchanges)
    assert accounts(ref, [magnite, openx, -1]) == {magnite: 2, openx: 1}
    advertiser_id = user_by_email(ref, "advertiser@demo.example").id
    ref.add_all(Campaign(advertiser_id=advertiser_id, name=f"Counted {number}", starts_at=datetime(2026, 12, 1, tzinfo=UTC),
                         total_budget_micros=10**9, bid_micros=10**6, targeting=targeting)
                for number, targeting in enumerate(({"exchanges": [openx, openx, magnite]}, {"exchanges": None}, {})))
    ref.flush()
    assert metadata.json_list_counter(Campaign.targeting, "exchanges")(ref, [magnite, openx]) == {magnite: 1, openx: 1}


def test_co_admin_manages_the_lists(ref):
    co_admin = actor_of(ref, "coadmin@demo.example")
    value_id = metadata.add_value(ref, actor=co_admin, kind="carrier", name="Three UK").id
    metadata.rename_value(ref, actor=co_admin, value_id=value_id, name="Three")
    metadata.set_retired(ref, actor=co_admin, value_id=value_id, retired=True)
    assert "Three" in _names(metadata.list_values(ref, actor=co_admin, kind="carrier"))
    metadata.delete_value(ref, actor=co_admin, value_id=value_id)
    assert [a for a, actor in _audit(ref, value_id) if actor == co_admin.id] == ["create", "rename", "retire", "delete"]


@pytest.mark.parametrize("email", ["agency@demo.example", "advertiser@demo.example"])
def test_clients_read_active_values_but_cannot_manage_or_see_usage(ref, email):
    client = actor_of(ref, email)
    admin = actor_of(ref, "admin@demo.example")
    value_id = _id_of(ref, "exchange", "OpenX")
    retired_id = _id_of(ref, "os_version", "iOS 15")
    names = _names(metadata.active_values(ref, actor=client, kind="exchange"))
    assert "OpenX" in names
    assert "iOS 15" not in _names(metadata.active_values(ref, actor=client, kind="os_version"))
    attempts = [
        lambda: metadata.add_value(ref, actor=client, kind="exchange", name="Rogue Exchange"),
        lambda: metadata.rename_value(ref, actor=client, value_id=value_id, name="Rogue"),
        lambda: metadata.set_retired(ref, actor=client, value_id=value_id, retired=True),
        lambda: metadata.set_retired(ref, actor=client, value_id=retired_id, retired=False),
        lambda: metadata.delete_value(ref, actor=client, value_id=value_id),
        # Usage counts tell how other tenants' accounts are configured: staff only.
        lambda: metadata.list_values(ref, actor=client, kind="exchange"),
        lambda: metadata.kind_counts(ref, actor=client),
    ]
    for attempt in attempts:
        with pytest.raises(Forbidden):
            attempt()
    rows = {r.name: r for r in metadata.list_values(ref, actor=admin, kind="exchange")}
    assert rows["OpenX"].retired is False and "Rogue Exchange" not in rows
    assert _audit(ref, value_id) == []


def test_every_write_is_audited_with_the_acting_user(ref):
    admin = actor_of(ref, "admin@demo.example")
    value_id = metadata.add_value(ref, actor=admin, kind="os_version", name="Android 16").id
    metadata.rename_value(ref, actor=admin, value_id=value_id, name="Android 16 Beta")
    metadata.rename_value(ref, actor=admin, value_id=value_id, name="Android 16 Beta")  # no change, no entry
    metadata.set_retired(ref, actor=admin, value_id=value_id, retired=True)
    metadata.set_retired(ref, actor=admin, value_id=value_id, retired=False)
    with pytest.raises(Invalid):
        metadata.rename_value(ref, actor=admin, value_id=value_id, name="iOS 17")  # refused: no entry
    metadata.delete_value(ref, actor=admin, value_id=value_id)
    assert _audit(ref, value_id) == [("create", admin.id), ("rename", admin.id), ("retire", admin.id),
                                     ("restore", admin.id), ("delete", admin.id)]
    rename = ref.exec(select(AuditEntry).where(AuditEntry.entity_id == str(value_id),
                                               AuditEntry.action == "rename")).one()
    assert rename.changes == {"name": ["Android 16", "Android 16 Beta"]}


def test_reference_lists_menu_entry_follows_the_route_table():
    assert page_path("metadata", Role.ADMIN) == "/admin/metadata"
    assert page_path("metadata", Role.CO_ADMIN) == "/admin/metadata"
    assert page_path("metadata", Role.AGENCY) is None
    assert page_path("metadata", Role.ADVERTISER) is None


def test_page_shows_the_lists_their_counts_and_the_values(demo_ids):
    from components.reference.metadata_page import MetadataPage

    run(metadata.seed_reference_values)
    model = render_model(MetadataPage, signed_in_console("admin@demo.example"), path="/admin/metadata")
    text = text_of(model)
    for label in ("Exchanges", "Operating systems", "OS versions", "Browsers", "Manufacturers", "Carriers",
                  "Traffic types"):
        assert label in text
    counts = {n["attributes"]["data-kind"]: n for n in walk(model) if "data-kind" in n.get("attributes", {})}
    assert set(counts) == set(REFERENCE_KINDS)
    badges = [n["attributes"]["data-count"] for n in walk(model) if "data-count" in n.get("attributes", {})]
    assert badges == ["10", "8", "15", "6", "10", "14", "3"]  # active values per list, retired ones not counted
    values = [n["attributes"]["data-value"] for n in walk(model) if "data-value" in n.get("attributes", {})]
    assert values[:3] == ["AppLovin", "Google AdX", "Index Exchange"]
    assert "Not used" in text and "Rename" in text and "Retire" in text
