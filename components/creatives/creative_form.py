"""The creative form, for a new creative (in a dialog on the creative list) and an existing one (on its view
page): the fields of its type (spec section 3: click URL for image, native and video; pixel URLs for image;
one impression URL for native, several for video; markup and size for html), its files uploaded over HTTP,
and a live preview beside them. Fields write into a FieldStore (components/ui/field_store.py).

An edit sends only the fields the person changed, with the version of the creative the form loaded: a creative
saved by someone else since is refused (409, who changed what and when), said above the fields with a reload,
and everything typed stays until the person reloads."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from reactpy import Ref, component, html, use_ref, use_state

from app.access.roles import Role
from app.creatives import service as creatives
from app.creatives.models import CreativeType
from app.creatives.rules import NATIVE_TEXT_MAX, TYPE_FIELDS
from app.creatives.schemas import CreativeCreate, CreativeFile, CreativeRead, CreativeUpdate
from app.kernel.errors import Conflict
from components.creatives.preview import creative_preview
from components.ui.console import use_console
from components.ui.field_store import (
    FieldStore,
    StoreSelect,
    StoreText,
    StoreTextArea,
    use_field,
    use_field_store,
    use_watch,
)
from components.ui.forms import alert, select_field
from components.ui.hooks import use_action
from components.ui.saved_since import saved_since
from components.widgets.file_upload import file_upload

UPLOAD_URL = "/api/uploads/creative"
ACCEPT = {"image": "image/png,image/jpeg,image/gif,image/webp", "icon": "image/png,image/jpeg,image/gif,image/webp",
          "video": "video/mp4"}
# Files a type takes: (field, the upload's purpose, label key).
FILES = {CreativeType.IMAGE: (("asset_id", "image", "creatives.field.image"),),
         CreativeType.VIDEO: (("asset_id", "video", "creatives.field.video"),),
         CreativeType.NATIVE: (("main_image_asset_id", "image", "creatives.field.main_image"),
                               ("icon_asset_id", "icon", "creatives.field.icon"))}
# The preview's name for each file field.
PREVIEW_KEYS = {"asset_id": "asset", "main_image_asset_id": "main_image", "icon_asset_id": "icon"}


def initial_values(creative: CreativeRead | None, markup: str = "") -> dict[str, Any]:
    if creative is None:
        return {"type": CreativeType.IMAGE.value, "name": ""}
    values: dict[str, Any] = creative.model_dump(include={"name", "type", "click_url", "title", "description",
                                                          "call_to_action", "width", "height"})
    values.update(pixel_urls=", ".join(creative.pixel_urls), impression_urls=", ".join(creative.impression_urls),
                  html=markup)
    for field, key in PREVIEW_KEYS.items():
        file: CreativeFile | None = getattr(creative, key)
        values[field] = file.id if file else None
        values[f"{field}.file"] = file.model_dump() if file else None  # the form's JSON, as an upload answers it
    return {key: "" if value is None and not key.endswith("_id") else value for key, value in values.items()}


def submitted_data(store: FieldStore, creative_type: str,
                   loaded: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The service's data: the name and the fields of the creative's type only (others must stay empty). An edit
    gives `loaded` (the values the form started from): then only the fields the person changed are sent, so the
    form's old copy of the others is never laid over what someone else saved meanwhile."""
    values = store.snapshot()
    data = {"name": values.get("name", ""),
            **{field: values.get(field) for field in TYPE_FIELDS[CreativeType(creative_type)]}}
    if loaded is None:
        return data
    return {field: value for field, value in data.items() if value != loaded.get(field, "")}


@component
def AssetField(store: FieldStore, field: str, purpose: str, label: str, advertiser_id: int | None,
               error: str | None = None) -> Any:
    """A creative's file: what is there now (thumbnail, size, length) and an upload button that replaces it."""
    console = use_console()
    t = console.t
    file, set_file = use_field(store, f"{field}.file")
    problem, set_problem = use_state("")

    def uploaded(data: dict[str, Any]) -> None:
        set_problem("")
        store.set(field, data.get("id"))
        set_file(data)

    shown = error or problem
    details = " · ".join(part for part in (
        f"{file['width']} × {file['height']}" if file and file.get("width") else "",
        f"{round((file.get('duration_ms') or 0) / 1000)} s" if file and file.get("duration_ms") else "",
        file.get("filename") or "" if file else "") if part)
    return html.div(
        {"className": "mb-3", "data-asset": field},
        html.div({"className": "form-label small fw-medium"}, label),
        html.div({"className": "d-flex align-items-center gap-3 p-2 border rounded"
                               + (" border-danger" if shown else "")},
                 html.img({"src": file["url"], "alt": "", "className": "rounded border",
                           "style": {"width": "56px", "height": "56px", "objectFit": "cover"}})
                 if file and file.get("url") and purpose != "video" else
                 html.i({"className": f"bi {'bi-film' if purpose == 'video' else 'bi-image'} fs-3 text-body-tertiary "
                                      "px-2"}),
                 html.div({"className": "small flex-grow-1 text-truncate", "data-file": "set" if file else "none"},
                          details if file else t("creatives.no_file")),
                 file_upload(name=field, url=UPLOAD_URL, label=t("creatives.replace" if file else "creatives.upload"),
                             busy_label=t("creatives.uploading"), accept=ACCEPT[purpose], on_uploaded=uploaded,
                             on_error=lambda message: set_problem(t(message)),
                             fields={"purpose": purpose, "advertiser_id": advertiser_id or ""})),
        html.div({"className": "invalid-feedback d-block", "data-field-error": field}, shown) if shown else
        html.div({"className": "form-text"}, t(f"creatives.{purpose}_help")),
    )


@component
def LivePreview(store: FieldStore) -> Any:
    console = use_console()
    values = use_watch(store, "preview")
    shown = {**{key: values.get(key) for key in ("type", "name", "title", "description", "call_to_action", "html",
                                                  "width", "height")},
             **{key: values.get(f"{field}.file") for field, key in PREVIEW_KEYS.items()}}
    return html.div({"className": "card dsp-card shadow-sm border-0"},
                    html.div({"className": "card-header bg-transparent"},
                             html.h2({"className": "h6 mb-0 fw-semibold"}, console.t("creatives.preview"))),
                    creative_preview(console, shown))


@component
def CreativeForm(*, creative: CreativeRead | None, advertisers: list[dict[str, Any]] | None, markup: str = "",
                 on_saved: Callable[[CreativeRead], None], on_cancel: Callable[[], None] | None = None,
                 on_reload: Callable[[], None] | None = None) -> Any:
    """`creative` None: a new one, for one of `advertisers` (an advertiser's list holds only itself). `on_reload`:
    load the creative as it is now (the page's reload, offered when a save is refused as made from an older copy)."""
    console = use_console()
    t = console.t
    initial = initial_values(creative, markup)
    loaded: Ref[dict[str, Any] | None] = use_ref(None)  # what the form started from: an edit sends what differs
    if loaded.current is None:
        loaded.current = copy.deepcopy(initial)
    store = use_field_store(initial)
    creative_type, set_type = use_state(creative.type if creative else CreativeType.IMAGE.value)
    advertiser, set_advertiser = use_state(creative.advertiser_id if creative else
                                           (advertisers[0]["id"] if advertisers else None))
    action = use_action(creatives.update_creative if creative else creatives.create_creative, on_done=on_saved,
                        in_place=(Conflict,))
    errors = action.errors
    kind = CreativeType(creative_type)
    fields = TYPE_FIELDS[kind]

    def save(_event: Any = None) -> None:
        if creative:
            action.submit(actor=console.actor, creative_id=creative.id, data=CreativeUpdate(
                **submitted_data(store, creative_type, loaded.current), version=creative.version))
        else:
            action.submit(actor=console.actor, data=CreativeCreate(**submitted_data(store, creative_type),
                                                                   type=creative_type), advertiser_id=advertiser)

    def field(name: str, label_key: str, **options: Any) -> Any:
        return StoreText(store, name, t(label_key), error=errors.get(name), key=f"{creative_type}-{name}", **options)

    body = [
        html.div({"className": "row gx-3"},
                 html.div({"className": "col-md-6"}, field("name", "creatives.field.name", max_length=120)),
                 html.div({"className": "col-md-6"},
                          StoreSelect(store, "type", t("creatives.field.type"),
                                      [(k.value, t(f"creatives.type.{k.value}")) for k in CreativeType],
                                      on_pick=set_type, key="type") if creative is None else
                          html.div({"className": "mb-3"},
                                   html.div({"className": "form-label small fw-medium"}, t("creatives.field.type")),
                                   html.div({"className": "form-control-plaintext py-1 fw-medium"},
                                            t(f"creatives.type.{creative_type}"))))),
        select_field(name="advertiser_id", label=t("campaigns.field.advertiser"), value=str(advertiser or ""),
                     options=[(str(a["id"]), a["name"]) for a in advertisers or []], error=errors.get("advertiser_id"),
                     on_change=lambda value: set_advertiser(int(value) if value else None))
        if creative is None and console.role != Role.ADVERTISER and advertisers else "",
        *[AssetField(store, name, purpose, t(label), advertiser, error=errors.get(name), key=f"{creative_type}-{name}")
          for name, purpose, label in FILES.get(kind, ())],
        *([field("title", "creatives.field.title", max_length=NATIVE_TEXT_MAX["title"]),
           StoreTextArea(store, "description", t("creatives.field.description"), error=errors.get("description"),
                         rows=2, key="native-description"),
           field("call_to_action", "creatives.field.call_to_action", max_length=NATIVE_TEXT_MAX["call_to_action"])]
          if kind == CreativeType.NATIVE else []),
        field("click_url", "creatives.field.click_url", placeholder="https://example.com/landing/")
        if "click_url" in fields else "",
        field("pixel_urls", "creatives.field.pixel_urls", help_text=t("creatives.url_list_help"))
        if "pixel_urls" in fields else "",
        field("impression_urls", "creatives.field.impression_url" if kind == CreativeType.NATIVE
              else "creatives.field.impression_urls",
              help_text=t("creatives.single_url_help" if kind == CreativeType.NATIVE else "creatives.url_list_help"))
        if "impression_urls" in fields else "",
        *([StoreTextArea(store, "html", t("creatives.field.html"), error=errors.get("html"), rows=8,
                         placeholder="<a href=\"https://example.com/\"><img src=\"https://example.com/ad.png\"></a>",
                         help_text=t("creatives.html_help"), key="html-markup"),
           html.div({"className": "row gx-3"},
                    html.div({"className": "col-6"}, field("width", "creatives.field.width")),
                    html.div({"className": "col-6"}, field("height", "creatives.field.height")))]
          if kind == CreativeType.HTML else []),
    ]
    problems = len(errors)
    return html.div(
        {"className": "row g-4", "data-form": "creative", "data-type": creative_type},
        html.div({"className": "col-lg-7"},
                 alert("danger", t("campaigns.fix_fields", count=problems)) if problems else "",
                 saved_since(console, action.message, on_reload or (lambda: None)),
                 *body,
                 html.div({"className": "d-flex gap-2"},
                          html.button({"type": "button", "className": "btn btn-primary", "data-action": "save-creative",
                                       "disabled": action.pending, "onClick": save},
                                      html.span({"className": "spinner-border spinner-border-sm me-2"})
                                      if action.pending else "",
                                      t("creatives.save" if creative else "creatives.create")),
                          html.button({"type": "button", "className": "btn btn-outline-secondary",
                                       "onClick": lambda _e: on_cancel()}, t("common.cancel")) if on_cancel else "")),
        html.div({"className": "col-lg-5"}, LivePreview(store, key=f"preview-{creative_type}")),
    )
