"""/campaignForm (new), /campaignEditForm/{id} (edit) and /campaignClone/{id} (a new campaign from another's
settings), for every role that has them: one sectioned form (basics, budget and bidding, targeting) with a
summary of what will run beside it.

Every field is its own small component writing into a FieldStore (components/ui/field_store.py), so a
keystroke re-renders one field and the summary, not the page; saving reads the store, which every field's
change handler writes before any later event (the save click) is handled, never a closure of an older
render. A field error keeps everything typed.

There is deliberately no <form> element: ReactPy's client serializes an input event's target with its
`form`, that is every element of the form, so a keystroke in a form this size sent 29 MB.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any
from zoneinfo import available_timezones

from reactpy import Ref, component, html, use_ref, use_state

from app.access.roles import Role
from app.campaigns import flight, targeting_options
from app.campaigns import service as campaigns
from app.campaigns.models import (
    BID_STRATEGIES,
    FREQUENCY_PERIODS,
    GOAL_METRICS,
    OBJECTIVES,
    PACING,
    CampaignStatus,
)
from app.campaigns.schemas import (
    AdvertiserChoice,
    CampaignDescription,
    CampaignOptions,
    CampaignRead,
    CampaignUpdate,
    CloneDraft,
    ClonePlan,
    StaleValue,
)
from app.campaigns.targeting import DEVICE_TYPES, EMPTY
from app.creatives import service as creatives
from app.kernel.errors import Conflict
from app.reference.schemas import ReferenceOption
from components.campaigns.campaign_audiences import AudiencePicker
from components.campaigns.common import back_to_list, campaign_tabs, not_found
from components.campaigns.summary import CampaignSummary
from components.campaigns.targeting import (
    LOADED_CREATIVES,
    CheckboxGroup,
    CityPicker,
    CreativesPicker,
    DaypartingGrid,
    GeoFenceField,
    InventoryListsPicker,
    RegionPicker,
    SmartAppListsPicker,
    TagPicker,
)
from components.ui.console import Console, use_console
from components.ui.elements import card, loading_page, page_header, spinner
from components.ui.field_store import FieldStore, StoreSelect, StoreText, use_field_store
from components.ui.forms import alert, select_field
from components.ui.hooks import use_action, use_query
from components.ui.links import app_link
from components.ui.navigation import use_navigation
from components.ui.routes import use_subject_id
from components.ui.saved_since import saved_since

SCALAR_FIELDS = ("name", "objective", "traffic_type", "starts_at", "ends_at", "time_zone", "total_budget",
                 "daily_budget", "pacing", "bid_strategy", "bid", "bid_min", "bid_max", "frequency_cap",
                 "frequency_period", "goal_metric", "goal_target")
TIME_ZONES = sorted(available_timezones() - {"localtime", "Factory"})
# Fields an edit sends along with a changed one, so the service judges them as the form shows them: a frequency cap
# with its period, a goal with its target, and the flight's times with a new time zone (they are shown in it).
SENT_WITH: dict[str, tuple[str, ...]] = {"frequency_cap": ("frequency_period",), "frequency_period": ("frequency_cap",),
                                         "goal_metric": ("goal_target",), "goal_target": ("goal_metric",),
                                         "time_zone": ("starts_at", "ends_at")}
# Reference-list targeting shown as checkbox groups: (targeting key, label key, the targeting key whose choice
# narrows what it offers, the option field that must be among those chosen). An OS version offers itself only
# under its chosen system, a carrier only in its chosen country; choosing none of those offers them all.
REFERENCE_GROUPS = (("operating_systems", "campaigns.field.operating_systems", "", ""),
                    ("os_versions", "campaigns.field.os_versions", "operating_systems", "parent_id"),
                    ("manufacturers", "campaigns.field.manufacturers", "", ""),
                    ("browsers", "campaigns.field.browsers", "", ""),
                    ("carriers", "campaigns.field.carriers", "countries", "country"))


def flight_value(iso: str | None, zone: str, *, end: bool, between: str = "T") -> str:
    """A flight's start or end as the buyer gave it, in the campaign's time zone (app/campaigns/flight.py): the
    date (an end: its last day) of one that falls on the zone's midnight, else its local date and time (the
    datetime-local text for `between` "T")."""
    return flight.day_text(flight.read(iso), flight.zone(zone), end=end, between=between) or ""


def flight_kind(value: str) -> str:
    """A flight field's input: a date, unless the saved value has a time of day the form must keep."""
    return "datetime-local" if "T" in value else "date"


def initial_values(campaign: CampaignRead | None) -> dict[str, Any]:
    """The store's first values: a saved campaign's settings (or a clone's plan), or a new campaign's defaults."""
    if campaign is None:
        values: dict[str, Any] = {"objective": "awareness", "traffic_type": "app", "time_zone": "UTC",
                                  "pacing": "even", "bid_strategy": "cpm", "frequency_period": "day",
                                  "goal_metric": "none"}
        targeting: dict[str, Any] = {}
    else:
        saved = campaign.model_dump(include=set(SCALAR_FIELDS))
        values = {name: "" if saved.get(name) is None else str(saved[name]) for name in SCALAR_FIELDS}
        values["frequency_period"] = campaign.frequency_period or "day"
        values["starts_at"] = flight_value(campaign.starts_at, campaign.time_zone, end=False)
        values["ends_at"] = flight_value(campaign.ends_at, campaign.time_zone, end=True)
        targeting = campaign.targeting.model_dump()
    for key, empty in EMPTY.items():
        values[f"targeting.{key}"] = targeting.get(key, empty)
    if isinstance(campaign, CloneDraft):  # a clone's plan: what it takes from the original (its creatives)
        values.update({field: list(ids) for field, ids in campaign.taken.items()})
    return values


def submitted_data(store: FieldStore, loaded: Mapping[str, Any] | None = None,
                   version: int | None = None) -> CampaignUpdate:
    """The service's `data` from what the fields hold. An edit gives `loaded` (the values the form started from)
    and the `version` it loaded: then only what the person changed is sent (with the fields that go with it,
    SENT_WITH), the targeting only by the kinds changed, so a save never lays the form's old copy over what
    someone else saved meanwhile, and the service refuses it if the campaign was saved since that version."""
    values = store.snapshot()
    data: dict[str, Any] = {name: values.get(name, "") for name in SCALAR_FIELDS}
    if not str(data.get("frequency_cap") or "").strip():
        data["frequency_cap"] = None
    targeting = {key: values.get(f"targeting.{key}", empty) for key, empty in EMPTY.items()}
    if loaded is not None:
        changed = {name for name in SCALAR_FIELDS if values.get(name, "") != loaded.get(name, "")}
        changed |= {linked for name in changed for linked in SENT_WITH.get(name, ())}
        data = {name: value for name, value in data.items() if name in changed}
        targeting = {key: value for key, value in targeting.items() if value != loaded.get(f"targeting.{key}")}
    if targeting or loaded is None:
        data["targeting"] = targeting
    return CampaignUpdate.model_validate({**data, "version": version})


def choices(console: Console, prefix: str, keys: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(key, console.t(f"{prefix}.{key}")) for key in keys]


def traffic_label(console: Console, code: str, name: str = "") -> str:
    """A traffic type's label: the catalog's words for the seeded ones (app, web, ctv), else the admin's name."""
    key = f"campaigns.traffic.{code}"
    text = console.t(key)
    return text if text != key else (name or code)


def stale_badge(console: Console, reason: str) -> Any:
    """The mark of a targeting value the campaign keeps but could not choose today (retired, not allowed)."""
    return html.span({"className": "badge rounded-pill text-bg-warning fw-normal ms-1", "data-stale": reason},
                     console.t(f"campaigns.stale_{reason}"))


def _stale_options(console: Console, stale: dict[str, list[StaleValue]], key: str) -> list[tuple[Any, Any]]:
    """Checkbox options for a key's stale values: ticked, marked, and unticking them removes them."""
    return [(row.id, html.span(row.name, stale_badge(console, row.reason))) for row in stale.get(key, [])]


def _section(title: str, icon: str, *children: Any, marker: str) -> Any:
    return html.section({"className": "card dsp-card shadow-sm border-0 mb-4", "data-section": marker},
                        html.div({"className": "card-header bg-transparent d-flex align-items-center gap-2"},
                                 html.i({"className": f"bi {icon} text-primary"}),
                                 html.h2({"className": "h6 mb-0 fw-semibold"}, title)),
                        html.div({"className": "card-body"}, *children))


def _subhead(text: str) -> Any:
    return html.h3({"className": "small text-uppercase text-body-secondary fw-semibold mt-2 mb-2 dsp-subhead"}, text)


def _col(width: str, *children: Any) -> Any:
    return html.div({"className": width}, *children)


@component
def CampaignForm(*, campaign: CampaignRead | None, mode: str, advertisers: list[AdvertiserChoice] | None,
                 stale: dict[str, list[StaleValue]] | None = None, on_reload: Callable[[], None] | None = None) -> Any:
    """`mode`: "create", "edit" or "clone" (`campaign` then what campaigns.clone_plan made of the original).
    `advertisers`: who a new campaign may be for (None: the saved campaign's advertiser); an advertiser's own
    list holds only itself. `stale`: the saved campaign's retired or no-longer-allowed targeting values
    (campaigns.stale_targeting), shown ticked and marked so the buyer can untick them. `on_reload`: load the
    campaign as it is now (offered when a save is refused as made from an older copy)."""
    console = use_console()
    t = console.t
    stale = stale or {}
    initial = initial_values(campaign)
    loaded: Ref[dict[str, Any] | None] = use_ref(None)  # what the form started from: an edit sends what differs
    if loaded.current is None:
        loaded.current = copy.deepcopy(initial)
    store = use_field_store(initial)
    advertiser, set_advertiser = use_state(campaign.advertiser_id if campaign else
                                           (advertisers[0].id if advertisers else None))
    advertiser_name = campaign.advertiser if campaign else next(
        (a.name for a in advertisers or [] if a.id == advertiser), "")
    choose_advertiser = mode == "create" and advertisers is not None and console.role != Role.ADVERTISER
    options_query = use_query(targeting_options.options, actor=console.actor, advertiser_id=advertiser,
                              language=console.language, deps=[advertiser, console.language])
    navigation, go = use_navigation()

    def finished(result: CampaignRead) -> None:
        console.toast("success", t("campaigns.saved" if mode == "edit" else "campaigns.created", name=result.name))
        go(console.path("campaign.view", id=result.id) or console.path("campaigns") or "/")

    # One save, one unit of work: the settings and the creatives together (creatives.save_campaign), so a refused
    # creative leaves the settings unsaved too. Creatives not loaded yet (None) stay as they are.
    # A campaign saved by someone else since this form loaded (409) is said above the save button, and everything
    # typed stays in the form.
    action = use_action(creatives.save_campaign, on_done=finished, in_place=(Conflict,))
    errors = action.errors

    def submit(_event: Any = None) -> None:
        chosen_creatives = store.get("creative_ids")
        creative_ids = None if chosen_creatives is None else list(chosen_creatives)
        if mode == "edit":
            assert campaign is not None
            data = submitted_data(store, loaded.current, campaign.version)
            if creative_ids is not None and sorted(creative_ids) == sorted(store.get(LOADED_CREATIVES) or []):
                creative_ids = None  # unchanged: the campaign's creatives stay as they are
            action.submit(actor=console.actor, campaign_id=campaign.id, data=data, creative_ids=creative_ids)
            return
        chosen = store.get("advertiser_id") or advertiser
        action.submit(actor=console.actor, data=submitted_data(store), advertiser_id=int(chosen) if chosen else None,
                      creative_ids=creative_ids)

    def pick_advertiser(value: str) -> None:
        store.set("advertiser_id", value)
        set_advertiser(int(value) if value else None)

    if options_query.value is None:  # one full render once the pickers' data is in, not two
        return spinner(t("common.loading"))
    options: CampaignOptions = options_query.value
    zone_options = [(zone, zone.replace("_", " ")) for zone in TIME_ZONES]
    traffic_choices = [(row.code, traffic_label(console, row.code, row.name)) for row in options.traffic_type_values]
    saved_traffic = campaign.traffic_type if campaign else ""
    if saved_traffic and saved_traffic not in dict(traffic_choices):  # retired since: kept, and said so
        traffic_choices.append((saved_traffic, f"{traffic_label(console, saved_traffic)} ({t('campaigns.stale_retired')})"))
    basics = _section(
        t("campaigns.section_basics"), "bi-card-text",
        html.div({"className": "row gx-3"},
                 _col("col-md-8", StoreText(store, "name", t("campaigns.field.name"), error=errors.get("name"),
                                            max_length=120, key="name")),
                 _col("col-md-4", select_field(name="advertiser_id", label=t("campaigns.field.advertiser"),
                                               value=str(advertiser or ""), error=errors.get("advertiser_id"),
                                               options=[(str(a.id), a.name) for a in advertisers or []],
                                               on_change=pick_advertiser)
                      if choose_advertiser else
                      html.div({"className": "mb-3"},
                               html.div({"className": "form-label small fw-medium"}, t("campaigns.field.advertiser")),
                               html.div({"className": "form-control-plaintext fw-medium py-1", "data-advertiser": ""},
                                        advertiser_name))),
                 _col("col-md-6", StoreSelect(store, "objective", t("campaigns.field.objective"),
                                              choices(console, "campaigns.objective", OBJECTIVES),
                                              error=errors.get("objective"), key="objective")),
                 _col("col-md-6", StoreSelect(store, "traffic_type", t("campaigns.field.traffic_type"),
                                              traffic_choices, error=errors.get("traffic_type"),
                                              key="traffic_type"))),
        _subhead(t("campaigns.flight")),
        html.div({"className": "row gx-3"},
                 _col("col-md-6", StoreText(store, "starts_at", t("campaigns.field.starts_at"),
                                            kind=flight_kind(initial.get("starts_at", "")),
                                            error=errors.get("starts_at"), key="starts_at")),
                 _col("col-md-6", StoreText(store, "ends_at", t("campaigns.field.ends_at"),
                                            kind=flight_kind(initial.get("ends_at", "")),
                                            error=errors.get("ends_at"), help_text=t("campaigns.ends_help"),
                                            key="ends_at")),
                 _col("col-md-6", StoreSelect(store, "time_zone", t("campaigns.field.time_zone"), zone_options,
                                              error=errors.get("time_zone"), key="time_zone"))),
        marker="basics")

    budget = _section(
        t("campaigns.section_budget"), "bi-cash-coin",
        html.div({"className": "row gx-3"},
                 _col("col-md-3", StoreText(store, "total_budget", t("campaigns.field.total_budget"),
                                            error=errors.get("total_budget"), key="total_budget")),
                 _col("col-md-3", StoreText(store, "daily_budget", t("campaigns.field.daily_budget"),
                                            error=errors.get("daily_budget"),
                                            help_text=t("campaigns.optional"), key="daily_budget")),
                 _col("col-md-6", StoreSelect(store, "pacing", t("campaigns.field.pacing"),
                                              choices(console, "campaigns.pacing", PACING),
                                              error=errors.get("pacing"), key="pacing"))),
        _subhead(t("campaigns.bidding")),
        html.div({"className": "row gx-3"},
                 _col("col-md-6", StoreSelect(store, "bid_strategy", t("campaigns.field.bid_strategy"),
                                              choices(console, "campaigns.strategy", BID_STRATEGIES),
                                              error=errors.get("bid_strategy"), key="bid_strategy")),
                 _col("col-md-6", StoreText(store, "bid", t("campaigns.field.bid"), error=errors.get("bid"),
                                            key="bid")),
                 _col("col-md-6", StoreText(store, "bid_min", t("campaigns.field.bid_min"), error=errors.get("bid_min"),
                                            help_text=t("campaigns.optional"), key="bid_min")),
                 _col("col-md-6", StoreText(store, "bid_max", t("campaigns.field.bid_max"), error=errors.get("bid_max"),
                                            help_text=t("campaigns.optional"), key="bid_max"))),
        _subhead(t("campaigns.delivery")),
        html.div({"className": "row gx-3"},
                 _col("col-md-6", StoreText(store, "frequency_cap", t("campaigns.field.frequency_cap"),
                                            error=errors.get("frequency_cap"), help_text=t("campaigns.frequency_help"),
                                            key="frequency_cap")),
                 _col("col-md-6", StoreSelect(store, "frequency_period", t("campaigns.field.frequency_period"),
                                              choices(console, "campaigns.period", FREQUENCY_PERIODS),
                                              error=errors.get("frequency_period"), key="frequency_period")),
                 _col("col-md-6", StoreSelect(store, "goal_metric", t("campaigns.field.goal_metric"),
                                              choices(console, "campaigns.goal", GOAL_METRICS),
                                              error=errors.get("goal_metric"), key="goal_metric")),
                 _col("col-md-6", StoreText(store, "goal_target", t("campaigns.field.goal_target"),
                                            error=errors.get("goal_target"), help_text=t("campaigns.goal_help"),
                                            key="goal_target"))),
        marker="budget")

    def listed(key: str) -> list[ReferenceOption]:
        found: list[ReferenceOption] = getattr(options, key)
        return found

    def reference(key: str) -> list[tuple[int, str]]:
        return [(row.id, row.name) for row in listed(key)]

    exchanges = reference("exchanges") + _stale_options(console, stale, "exchanges")
    targeting = _section(
        t("campaigns.section_targeting"), "bi-bullseye",
        alert("warning", t("campaigns.stale_note")) if stale else "",
        _subhead(t("campaigns.geography")),
        TagPicker(store, "countries", t("campaigns.field.countries"),
                  [(c.code, c.name) for c in options.countries],
                  error=errors.get("targeting.countries"), help_text=t("campaigns.countries_help"), key="countries"),
        RegionPicker(store, error=errors.get("targeting.regions"), key="regions"),
        CityPicker(store, error=errors.get("targeting.cities"), key="cities"),
        GeoFenceField(store, error=errors.get("targeting.geo_fence"), key="geo_fence"),
        _subhead(t("campaigns.people_devices")),
        TagPicker(store, "languages", t("campaigns.field.languages"),
                  [(c.code, c.name) for c in options.languages],
                  error=errors.get("targeting.languages"), key="languages"),
        CheckboxGroup(store, "device_types", t("campaigns.field.device_types"),
                      choices(console, "campaigns.device", DEVICE_TYPES), error=errors.get("targeting.device_types"),
                      key="device_types"),
        *[CheckboxGroup(store, key, t(label), [(row.id, row.name, getattr(row, detail, None) if detail else None)
                                               for row in listed(key)]
                        + _stale_options(console, stale, key),
                        error=errors.get(f"targeting.{key}"), help_text=t("campaigns.none_means_all"),
                        narrowed_by=narrowed_by, key=key)
          for key, label, narrowed_by, detail in REFERENCE_GROUPS if listed(key) or stale.get(key)],
        _subhead(t("audiences.menu_label")),
        AudiencePicker(store, advertiser, error=errors.get("targeting.audiences"), key=f"audiences-{advertiser}"),
        _subhead(t("campaigns.supply")),
        CheckboxGroup(store, "exchanges", t("campaigns.field.exchanges"), exchanges,
                      error=errors.get("targeting.exchanges"), help_text=t("campaigns.exchanges_help"),
                      key=f"exchanges-{advertiser}") if exchanges else
        html.p({"className": "small text-body-secondary", "data-empty": "exchanges"}, t("campaigns.no_exchanges")),
        InventoryListsPicker(store, advertiser, error=errors.get("targeting.inventory_lists"),
                             key=f"inventory-lists-{advertiser}"),
        SmartAppListsPicker(store, error=errors.get("targeting.smart_app_lists"), key="smart-app-lists"),
        _subhead(t("campaigns.schedule")),
        DaypartingGrid(store, error=errors.get("targeting.dayparting"), key="dayparting"),
        marker="targeting")

    creatives_section = _section(
        t("campaigns.section_creatives"), "bi-images",
        CreativesPicker(store, advertiser, campaign.id if campaign and mode == "edit" else None,
                        error=errors.get("creative_ids"), key=f"creatives-{advertiser}"),
        marker="creatives")

    cancel_path = (console.path("campaign.view", id=campaign.id) if campaign and mode == "edit"
                   else console.path("campaigns"))
    problems = len(errors)
    return html.div(
        navigation,
        html.div({"data-form": "campaign"},
             html.div({"className": "row g-4"},
                      html.div({"className": "col-xl-8"}, basics, budget, targeting, creatives_section),
                      html.div({"className": "col-xl-4"},
                               html.div({"className": "dsp-sticky"},
                                        alert("danger", t("campaigns.fix_fields", count=problems)) if problems else "",
                                        saved_since(console, action.message, on_reload or (lambda: None)),
                                        CampaignSummary(store, options=options, advertiser=advertiser_name,
                                                        advertiser_id=advertiser),
                                        html.div({"className": "d-flex gap-2 mt-3"},
                                                 html.button({"type": "button", "data-action": "save-campaign",
                                                              "className": "btn btn-primary flex-grow-1",
                                                              "disabled": action.pending,
                                                              "onClick": submit},
                                                             html.span({"className": "spinner-border spinner-border-sm "
                                                                                    "me-2"})
                                                             if action.pending else "",
                                                             t("campaigns.save" if mode == "edit"
                                                               else "campaigns.create")),
                                                 app_link({"to": cancel_path, "className": "btn btn-outline-secondary"},
                                                          t("common.cancel")) if cancel_path else ""))))),
    )


@component
def CreateCampaignPage() -> Any:
    console = use_console()
    t = console.t
    advertisers = use_query(campaigns.advertiser_choices, actor=console.actor)
    header = page_header(t("campaigns.new_title"), t("campaigns.new_subtitle"), back_to_list(console))
    if advertisers.loading:
        return loading_page(t, t("campaigns.new_title"))
    if not advertisers.value:
        return html.div(header, card(html.p({"className": "mb-0", "data-state": "no-advertisers"},
                                            t("campaigns.no_advertisers"))))
    return html.div({"data-page": "campaign-form"}, header,
                    CampaignForm(campaign=None, mode="create", advertisers=advertisers.value))


def _load_existing(db: Any, *, actor: Any, campaign_id: int, mode: str) -> ClonePlan | CampaignDescription:
    """What the edit or clone form starts from: the campaign with its stale values to edit; its plan to clone."""
    if mode == "clone":
        return campaigns.clone_plan(db, actor=actor, campaign_id=campaign_id)
    return campaigns.describe_campaign(db, actor=actor, campaign_id=campaign_id)


def _clone_notes(console: Console, plan: ClonePlan) -> Any:
    """What the clone did not take from the original, and that an ended original's clone needs new dates."""
    t = console.t
    notes = [html.li({"data-note": "left-out"}, t("campaigns.clone_left_out", names=", ".join(plan.left_out)))
             if plan.left_out else "",
             html.li({"data-note": "needs-dates"}, t("campaigns.clone_needs_dates")) if plan.needs_dates else ""]
    if not any(notes):
        return ""
    return html.div({"className": "alert alert-info small d-flex gap-2", "role": "note", "data-clone-notes": ""},
                    html.i({"className": "bi bi-info-circle-fill"}), html.ul({"className": "mb-0 ps-3"}, *notes))


def _existing_page(mode: str) -> Any:
    console = use_console()
    t = console.t
    campaign_id = use_subject_id()
    query = use_query(_load_existing, actor=console.actor, campaign_id=campaign_id, mode=mode, deps=[campaign_id])
    title = t("campaigns.edit_title" if mode == "edit" else "campaigns.clone_title")
    if query.loading:
        return loading_page(t, title)
    if query.value is None:
        return html.div(page_header(title), not_found(console))
    found: ClonePlan | CampaignDescription = query.value
    campaign = found.campaign
    if mode == "edit" and campaign.status == CampaignStatus.ARCHIVED:
        return html.div(page_header(title, campaign.name, back_to_list(console)),
                        campaign_tabs(console, campaign.id, campaign.status, current="campaign.edit"),
                        card(html.p({"className": "mb-0", "data-state": "read-only"}, t("campaigns.archived_read_only"))))
    return html.div({"data-page": "campaign-form"},
                    page_header(title, campaign.name, back_to_list(console)),
                    campaign_tabs(console, campaign.id, campaign.status, current=f"campaign.{mode}"),
                    _clone_notes(console, found) if isinstance(found, ClonePlan) else "",
                    CampaignForm(campaign=campaign, mode=mode, advertisers=None,
                                 stale=found.stale if isinstance(found, CampaignDescription) else None,
                                 on_reload=query.reload, key=f"{mode}-{campaign_id}-{campaign.version}"))


@component
def EditCampaignPage() -> Any:
    return _existing_page("edit")


@component
def CloneCampaignPage() -> Any:
    return _existing_page("clone")

