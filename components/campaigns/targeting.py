"""The targeting pickers of the campaign form. Each is its own component keeping its own state and writing
its value into the form's FieldStore under "targeting.<key>", so picking a country re-renders the country
picker (and the region picker, which depends on it), not the whole form."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import groupby
from typing import Any

from reactpy import component, html, use_state

from app.campaigns.targeting import geo_fence_from_csv
from app.creatives import service as creatives
from app.kernel.i18n.collation import fold
from app.reference import geo
from app.supply import app_lists, smart_apps
from components.ui import styles
from components.ui.console import use_console
from components.ui.field_store import FieldStore, StoreTextArea, use_field, use_watch
from components.ui.forms import checkbox_list
from components.ui.hooks import use_query
from components.widgets.file_text import file_text

MAX_MATCHES = 8
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def _hour_spans(hours: Sequence[int]) -> str:
    """Hour slots as spans of the clock: [8, 9, 10, 14] -> "08:00–11:00, 14:00–15:00"."""
    ordered = sorted(set(hours))
    runs = [[hour for _, hour in run] for _, run in groupby(enumerate(ordered), key=lambda pair: pair[1] - pair[0])]
    return ", ".join(f"{run[0]:02d}:00–{run[-1] + 1:02d}:00" for run in runs)


def schedule_text(t: Callable[..., str], days: Sequence[Sequence[int]]) -> str:
    """The dayparting grid as a buyer reads it back: neighbouring days with the same hours share one entry
    ("Mon–Fri 08:00–20:00"), instead of every hour of every day listed."""
    shown = [(index, tuple(sorted(set(hours)))) for index, hours in enumerate(days) if hours]
    parts = []
    # Consecutive positions in `shown` whose weekday minus position is constant are neighbouring days.
    for _, run in groupby(enumerate(shown), key=lambda item: (item[1][0] - item[0], item[1][1])):
        members = [day for _, day in run]
        first, last = members[0][0], members[-1][0]
        label = t(f"campaigns.day.{WEEKDAYS[first]}") + (f"–{t(f'campaigns.day.{WEEKDAYS[last]}')}" if last > first
                                                          else "")
        parts.append(f"{label} {_hour_spans(members[0][1])}")
    return "; ".join(parts)


def _error(name: str, error: str | None) -> Any:
    return html.div({"className": "invalid-feedback d-block", "data-field-error": name}, error) if error else ""


def _chip(label: str, remove_label: str, on_remove: Any, value: str) -> Any:
    return html.span({"className": "badge rounded-pill text-bg-light border d-inline-flex align-items-center gap-1 "
                                   "fw-normal dsp-chip", "key": f"chip-{value}", "data-chip": value},
                     label,
                     html.button({"type": "button", "className": "btn-close btn-close-sm", "aria-label": remove_label,
                                  "style": {"fontSize": ".55rem"}, "onClick": lambda _e: on_remove(value)}))


def _matches(options: Sequence[tuple[str, str]], query: str, chosen: set[str]) -> list[tuple[str, str]]:
    folded = fold(query.strip())
    if not folded:
        return []
    starts = [o for o in options if o[0] not in chosen and fold(o[1]).startswith(folded)]
    inside = [o for o in options if o[0] not in chosen and o not in starts
              and (folded in fold(o[1]) or folded == o[0].lower())]
    return (starts + inside)[:MAX_MATCHES]


def picker_box(name: str, label: str, chips: list[Any], query: str, set_query: Any, matches: list[tuple[str, str]],
               pick: Any, *, placeholder: str, error: str | None, help_text: str, empty_text: str) -> Any:
    """A search box over chips of what is chosen, with up to MAX_MATCHES matches below it to pick from."""
    input_id = f"field-{name}"
    return html.div(
        {"className": "mb-3 dsp-picker", "data-picker": name},
        html.label({"className": styles.FORM_LABEL, "htmlFor": input_id}, label),
        html.div({"className": "form-control d-flex flex-wrap gap-1 align-items-center"
                               + (" is-invalid" if error else ""), "style": {"minHeight": "2.4rem"}},
                 *chips,
                 html.input({"id": input_id, "type": "search", "className": "border-0 flex-grow-1 dsp-picker-input",
                             "style": {"outline": "none", "minWidth": "10rem", "background": "transparent"},
                             "placeholder": placeholder, "value": query, "autoComplete": "off",
                             "onChange": lambda event: set_query(event["target"]["value"])})),
        html.div({"className": "list-group shadow-sm mt-1 dsp-picker-matches"},
                 *[html.button({"type": "button", "key": value, "className": "list-group-item list-group-item-action py-1 small",
                                "data-option": value, "onClick": lambda _e, v=value: pick(v)}, text)
                   for value, text in matches]) if matches else
        (html.div({"className": "small text-body-secondary mt-1"}, empty_text) if query.strip() else ""),
        _error(name, error),
        html.div({"className": "form-text"}, help_text) if help_text and not error else "",
    )


@component
def TagPicker(store: FieldStore, field: str, label: str, options: Sequence[tuple[str, str]], error: str | None = None,
              help_text: str = "") -> Any:
    """Choose any number of `options` ((value, text) pairs) by typing part of their name."""
    t = use_console().t
    chosen, set_chosen = use_field(store, f"targeting.{field}")
    query, set_query = use_state("")
    chosen = list(chosen or [])
    names = dict(options)

    def pick(value: str) -> None:
        set_chosen(sorted({*chosen, value}))
        set_query("")

    def remove(value: str) -> None:
        set_chosen([c for c in chosen if c != value])

    chips = [_chip(names.get(value, value), t("common.remove"), remove, value) for value in chosen]
    return picker_box(field, label, chips, query, set_query, _matches(options, query, set(chosen)), pick,
                      placeholder=t("campaigns.type_to_search"), error=error, help_text=help_text,
                      empty_text=t("campaigns.no_matches"))


@component
def RegionPicker(store: FieldStore, error: str | None = None) -> Any:
    """Regions of the chosen countries; choosing none of them targets the whole countries."""
    console = use_console()
    t = console.t
    countries = list(use_watch(store, "regions", ["targeting.countries"]).get("targeting.countries") or [])
    regions = use_query(geo.regions_of_countries, actor=console.actor, countries=countries, language=console.language,
                        deps=[",".join(countries), console.language])
    chosen, set_chosen = use_field(store, "targeting.regions")
    query, set_query = use_state("")
    chosen = [code for code in chosen or [] if code.split("-")[0] in countries] if countries else []
    options = [(r.code, f"{r.name} ({r.code.split('-')[0]})") for r in regions.value or []]
    names = dict(options)
    if not countries:
        return html.div({"className": "mb-3", "data-picker": "regions"},
                        html.div({"className": styles.FORM_LABEL}, t("campaigns.field.regions")),
                        html.div({"className": "form-text mt-0"}, t("campaigns.regions_need_country")))

    def pick(value: str) -> None:
        set_chosen(sorted({*chosen, value}))
        set_query("")

    chips = [_chip(names.get(code, code), t("common.remove"), lambda c: set_chosen([x for x in chosen if x != c]), code)
             for code in chosen]
    return picker_box("regions", t("campaigns.field.regions"), chips, query, set_query,
                      _matches(options, query, set(chosen)), pick, placeholder=t("campaigns.type_to_search"),
                      error=error, help_text=t("campaigns.regions_help"), empty_text=t("campaigns.no_matches"))


def _city_label(city: dict[str, Any]) -> str:
    return f"{city['name']}, {city.get('region') or ''} {city['country']}".replace(",  ", ", ").replace(" ,", ",")


@component
def CityPicker(store: FieldStore, error: str | None = None) -> Any:
    """Cities found by the start of their name (GeoNames, 5,000 people or more), biggest first."""
    console = use_console()
    t = console.t
    chosen_ids, set_chosen_ids = use_field(store, "targeting.cities")
    saved = use_query(geo.named_cities, actor=console.actor, ids=list(chosen_ids or []), deps=[])
    none_picked: dict[Any, dict[str, Any]] = {}
    picked, set_picked = use_state(none_picked)  # id -> city, for cities chosen on this page
    query, set_query = use_state("")
    found = use_query(geo.search_cities, actor=console.actor, query=query.strip() or "-", limit=MAX_MATCHES,
                      deps=[query.strip()])
    found_cities = [c.model_dump() for c in found.value or []]
    known = {c.id: c.model_dump() for c in (saved.value or [])} | picked
    chosen = list(chosen_ids or [])

    def pick(value: str) -> None:
        city = next(c for c in found_cities if str(c["id"]) == value)
        set_picked({**picked, city["id"]: city})
        set_chosen_ids(sorted({*chosen, city["id"]}))
        set_query("")

    matches = [(str(c["id"]), f"{_city_label(c)} · {c['population']:,}") for c in found_cities
               if c["id"] not in chosen] if query.strip() else []
    chips = [_chip(_city_label(known[i]) if i in known else f"#{i}", t("common.remove"),
                   lambda v: set_chosen_ids([c for c in chosen if str(c) != v]), str(i)) for i in chosen]
    return picker_box("cities", t("campaigns.field.cities"), chips, query, set_query, matches, pick,
                      placeholder=t("campaigns.city_search"), error=error, help_text=t("campaigns.cities_help"),
                      empty_text=t("common.loading") if found.loading else t("campaigns.no_matches"))


@component
def CheckboxGroup(store: FieldStore, field: str, label: str, options: Sequence[tuple[Any, ...]],
                  error: str | None = None, help_text: str = "", narrowed_by: str = "") -> Any:
    """Checkboxes for `options` ((value, text) or (value, text, what narrows it)). With `narrowed_by` (another
    targeting key), an option shows only when what narrows it is among that key's choices, or is empty; a
    choice that stops showing is dropped, so the campaign never keeps an OS version without its system."""
    values = use_watch(store, f"narrow-{field}", [f"targeting.{narrowed_by}"]) if narrowed_by else {}
    chosen, set_chosen = use_field(store, f"targeting.{field}")
    limits = {str(x) for x in values.get(f"targeting.{narrowed_by}") or []}
    shown = [(o[0], o[1]) for o in options if not limits or len(o) < 3 or o[2] in (None, "") or str(o[2]) in limits]
    offered = {value for value, _text in shown}
    kept = [value for value in chosen or [] if value in offered]
    if limits and kept != list(chosen or []):
        store.put(f"targeting.{field}", kept)
    return checkbox_list(name=field, label=label, options=shown, selected=kept,
                         on_change=set_chosen, error=error, help_text=help_text)


@component
def GeoFenceField(store: FieldStore, error: str | None = None) -> Any:
    """Points pasted as `lat,long,radius|...`, or read from a CSV of latitude, longitude, radius rows."""
    console = use_console()
    t = console.t
    problem, set_problem = use_state("")
    version, set_version = use_state(0)  # remounts the text area after an upload replaced its value
    text = use_watch(store, "geo_fence", ["targeting.geo_fence"]).get("targeting.geo_fence") or ""
    points = len([p for p in str(text).split("|") if p.strip()])

    def uploaded(content: str, file_name: str) -> None:
        fence, message = geo_fence_from_csv(content)
        if message:
            set_problem(f"{file_name}: {t(message)}")
            return
        set_problem("")
        store.set("targeting.geo_fence", fence)
        set_version(version + 1)
        console.toast("success", t("campaigns.geo_fence_loaded", count=len(fence.split("|")), file=file_name))

    def refused(reason: str, file_name: str) -> None:
        set_problem(t(f"campaigns.upload_{reason}", file=file_name))

    return html.div(
        {"data-field": "geo_fence"},
        StoreTextArea(store, "targeting.geo_fence", t("campaigns.field.geo_fence"), error=error or problem or None,
                      rows=3, placeholder="40.7128,-74.0060,5|51.5072,-0.1276,2.5", help_text=t("campaigns.geo_fence_help"),
                      key=f"fence-{version}"),
        html.div({"className": "d-flex align-items-center gap-2 mb-3", "style": {"marginTop": "-.5rem"}},
                 file_text(name="geo_fence", label=t("campaigns.geo_fence_upload"), on_text=uploaded, on_error=refused),
                 html.span({"className": "small text-body-secondary", "data-points": str(points)},
                           t("campaigns.geo_fence_points", count=points, limit=2500))),
    )


@component
def DaypartingGrid(store: FieldStore, error: str | None = None) -> Any:
    """Hours × weekdays in the campaign's time zone. Nothing chosen means every hour of every day."""
    t = use_console().t
    value, set_value = use_field(store, "targeting.dayparting")
    days: list[list[int]] = [list(day) for day in value] if value else [[] for _ in WEEKDAYS]

    def save(new_days: list[list[int]]) -> None:
        set_value([] if not any(new_days) else [sorted(set(day)) for day in new_days])

    def clicked(event: dict[str, Any]) -> None:
        # One handler for the 168 cells (a handler each would make the grid's model five times bigger):
        # the clicked cell says which it is in its data-cell.
        target = event.get("target") if isinstance(event, dict) else None
        cell = str(((target or {}).get("dataset") or {}).get("cell") or "")
        day, _, hour = cell.partition("-")
        if day.isdigit() and hour.isdigit() and int(day) < 7 and int(hour) < 24:
            toggle(int(day), int(hour))

    def toggle(day: int, hour: int) -> None:
        new = [list(d) for d in days]
        new[day] = [h for h in new[day] if h != hour] if hour in new[day] else [*new[day], hour]
        save(new)

    def toggle_day(day: int) -> None:
        new = [list(d) for d in days]
        new[day] = [] if len(new[day]) == 24 else list(range(24))
        save(new)

    def preset(kind: str) -> None:
        working = list(range(8, 20))
        presets: dict[str, list[list[int]]] = {"clear": [[] for _ in WEEKDAYS], "business": [working] * 5 + [[], []],
                                               "evenings": [list(range(18, 24))] * 7}
        save(presets[kind])

    # Keys never look like indexes: ReactPy names unkeyed children by position, and "0" would collide.
    header = html.tr(html.th({"className": "dsp-daypart-day", "key": "day"}),
                     *[html.th({"key": f"h{h}", "className": "dsp-daypart-hour"}, str(h) if h % 3 == 0 else "")
                       for h in range(24)])
    rows = [html.tr({"key": name},
                    html.th({"className": "dsp-daypart-day", "key": "day"},
                            html.button({"type": "button", "className": "btn btn-link btn-sm p-0 text-decoration-none",
                                         "data-day": name, "onClick": lambda _e, d=index: toggle_day(d)},
                                        t(f"campaigns.day.{name}"))),
                    *[html.td({"key": f"h{h}"},
                              html.button({"type": "button", "data-cell": f"{index}-{h}",
                                           "aria-pressed": "true" if h in days[index] else "false",
                                           "aria-label": f"{t(f'campaigns.day.{name}')} {h}:00",
                                           "className": "dsp-daypart-cell" + (" on" if h in days[index] else "")}))
                      for h in range(24)])
            for index, name in enumerate(WEEKDAYS)]
    chosen_hours = sum(len(d) for d in days)
    return html.div(
        {"className": "mb-3", "data-field": "dayparting"},
        html.div({"className": "d-flex flex-wrap align-items-center justify-content-between gap-2 mb-1"},
                 html.span({"className": styles.FORM_LABEL + " mb-0"}, t("campaigns.field.dayparting")),
                 html.div({"className": "btn-group btn-group-sm"},
                          *[html.button({"type": "button", "className": "btn btn-outline-secondary", "key": kind,
                                         "data-preset": kind, "onClick": lambda _e, k=kind: preset(k)},
                                        t(f"campaigns.daypart_{kind}")) for kind in ("business", "evenings", "clear")])),
        html.div({"className": "table-responsive"},
                 html.table({"className": "dsp-daypart", "onClick": clicked}, html.thead(header), html.tbody(*rows))),
        html.div({"className": "form-text"},
                 t("campaigns.daypart_all") if not chosen_hours else
                 t("campaigns.daypart_some", hours=chosen_hours)),
        _error("dayparting", error),
    )


LOADED_CREATIVES = "creative_ids.loaded"  # the campaign's creatives as the picker loaded them (an edit's baseline)


@component
def CreativesPicker(store: FieldStore, advertiser_id: int | None, source_campaign_id: int | None = None,
                    error: str | None = None) -> Any:
    """Which of the advertiser's creatives the campaign shows; an edit starts from the saved campaign's, a clone
    from what its plan put in the store (the original's, less archived ones). Kept in the store as
    "creative_ids" (None until the saved ones are in: saving then leaves the campaign's creatives as they are)."""
    console = use_console()
    t = console.t
    offered = use_query(creatives.list_creatives, actor=console.actor, advertiser_id=advertiser_id or 0,
                        deps=[advertiser_id])
    saved = use_query(creatives.campaign_creatives, actor=console.actor, campaign_id=source_campaign_id or 0,
                      deps=[source_campaign_id]) if source_campaign_id else None
    chosen, set_chosen = use_field(store, "creative_ids")
    if chosen is None and (saved is None or saved.value is not None):
        chosen = [c.id for c in (saved.value if saved is not None else [])]
        store.put("creative_ids", chosen)
        store.put(LOADED_CREATIVES, list(chosen))  # an edit sends creative_ids only when they differ from these
    options = [(c.id, f"{c.name} · {t('creatives.type.' + c.type)}") for c in offered.value or []]
    if offered.loading:
        return html.p({"className": "small text-body-secondary"}, t("common.loading"))
    if not options:
        return html.p({"className": "small text-body-secondary", "data-empty": "creatives"},
                      t("creatives.advertiser_has_none"))
    return checkbox_list(name="creative_ids", label=t("creatives.choose_for_campaign"), options=options,
                         selected=list(chosen or []), on_change=set_chosen, error=error, hide_label=True)


@component
def InventoryListsPicker(store: FieldStore, advertiser_id: int | None, error: str | None = None) -> Any:
    """The advertiser's active inventory lists: its allow lists to allow, its block lists to block. Kept in the
    store as "targeting.inventory_lists" = {allow: [ids], block: [ids]}."""
    console = use_console()
    t = console.t
    offered = use_query(app_lists.targeting_choices, actor=console.actor, advertiser_id=advertiser_id,
                        deps=[advertiser_id])
    value, set_value = use_field(store, "targeting.inventory_lists")
    chosen = {"allow": list((value or {}).get("allow") or []), "block": list((value or {}).get("block") or [])}
    if offered.loading:
        return html.p({"className": "small text-body-secondary"}, t("common.loading"))
    rows = offered.value or []
    if not rows:
        return html.div({"className": "mb-3", "data-picker": "inventory_lists"},
                        html.div({"className": styles.FORM_LABEL}, t("campaigns.field.inventory_lists")),
                        html.div({"className": "form-text mt-0", "data-empty": "inventory_lists"},
                                 t("applists.none_for_campaign")), _error("inventory_lists", error))

    def side(kind: str) -> Any:
        options = [(r.id, f"{r.name} · {t('applists.entries_count', count=r.entries)}")
                   for r in rows if r.kind == kind]
        if not options:
            return ""
        return checkbox_list(name=f"inventory_{kind}", label=t(f"applists.target_{kind}"), options=options,
                             selected=chosen[kind], on_change=lambda ids: set_value({**chosen, kind: ids}))

    return html.div({"data-picker": "inventory_lists"}, side("allow"), side("block"), _error("inventory_lists", error))


@component
def SmartAppListsPicker(store: FieldStore, error: str | None = None) -> Any:
    """Active smart-app lists (curated by staff) to allow; "targeting.smart_app_lists" = [ids]."""
    console = use_console()
    t = console.t
    offered = use_query(smart_apps.targeting_choices, actor=console.actor)
    value, set_value = use_field(store, "targeting.smart_app_lists")
    if offered.loading:
        return html.p({"className": "small text-body-secondary"}, t("common.loading"))
    options = [(r.id, f"{r.name} · {' › '.join(p for p in (r.genre, r.subgenre) if p)}")
               for r in offered.value or []]
    if not options:
        return html.div({"className": "mb-3", "data-picker": "smart_app_lists"},
                        html.div({"className": styles.FORM_LABEL}, t("campaigns.field.smart_app_lists")),
                        html.div({"className": "form-text mt-0", "data-empty": "smart_app_lists"},
                                 t("smartapps.none_for_campaign")), _error("smart_app_lists", error))
    return html.div({"data-picker": "smart_app_lists"},
                    checkbox_list(name="smart_app_lists", label=t("campaigns.field.smart_app_lists"), options=options,
                                  selected=list(value or []), on_change=set_value, error=error,
                                  help_text=t("smartapps.campaign_help")))
