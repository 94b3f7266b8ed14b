"""API keys of one user: list (last use included), generate with a show-once reveal, revoke with confirmation.

Mounted on the client settings pages (the user's own keys) and on the admin's per-user config page; the
service decides whether the actor may manage `user_id`'s keys.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from reactpy import component, html, use_state

from app.access import api_keys, key_scopes
from app.settings import api_credentials
from app.settings.schemas import ApiKeyCreated
from components.ui.confirm import ConfirmDialog
from components.ui.console import use_console
from components.ui.elements import card, spinner
from components.ui.forms import form, select_field, submit_button, text_field
from components.ui.hooks import use_action, use_query

TOKEN_INPUT_ID = "api-token-value"



def when(value: str | None) -> str:
    """An ISO time from a service as 'YYYY-MM-DD HH:MM UTC'."""
    if not value:
        return ""
    return datetime.fromisoformat(value).strftime("%Y-%m-%d %H:%M UTC")


def _reveal(t: Any, token: dict[str, Any], on_close: Any) -> Any:
    return html.div(
        {"className": "border border-warning-subtle bg-warning-subtle rounded-3 p-3 mb-4", "data-api-token": "reveal",
         "role": "region", "aria-label": t("api_keys.reveal_title")},
        html.div({"className": "d-flex gap-2 align-items-start mb-2"},
                 html.i({"className": "bi bi-exclamation-triangle text-warning-emphasis fs-5"}),
                 html.div(html.div({"className": "fw-semibold"}, t("api_keys.reveal_title", label=token["label"])),
                          html.div({"className": "small text-body-secondary"}, t("api_keys.reveal_warning")))),
        html.div({"className": "input-group"},
                 html.input({"id": TOKEN_INPUT_ID, "className": "form-control font-monospace bg-white", "readOnly": True,
                             "value": token["token"], "aria-label": t("api_keys.reveal_title", label=token["label"]),
                             "data-select-on-focus": True, "spellCheck": False}),
                 html.button({"type": "button", "className": "btn btn-primary", "data-action": "copy-token",
                              "data-copied": t("api_keys.copied"),
                              # static/shell/actions.js copies the field's value: Python cannot reach the
                              # clipboard, and no secret is ever part of a script or attribute.
                              "data-copy-from": TOKEN_INPUT_ID},
                             html.i({"className": "bi bi-clipboard me-1"}),
                             html.span({"data-copy-label": "1"}, t("api_keys.copy")))),
        html.div({"className": "d-flex justify-content-end mt-2"},
                 html.button({"type": "button", "className": "btn btn-sm btn-outline-secondary",
                              "data-action": "dismiss-token", "onClick": lambda _e: on_close()},
                             t("api_keys.reveal_done"))),
    )


# A key that stopped without anyone revoking it by hand (ApiKeyRead.ended): its badge and why.
_ENDED = {api_credentials.ENDED_BY_MOVE: ("api_keys.status_ended_moved", "api_keys.ended_moved_help"),
          api_credentials.ENDED_MAKER: ("api_keys.status_ended_maker", "api_keys.ended_maker_help")}


def _status(t: Any, row: dict[str, Any]) -> Any:
    if row.get("ended") in _ENDED:
        badge, why = _ENDED[row["ended"]]
        return html.div({"data-key-ended": row["ended"]},
                        html.span({"className": "badge text-bg-warning"}, t(badge)),
                        html.div({"className": "small text-body-secondary"}, t(why)),
                        html.div({"className": "small text-body-secondary"}, when(row["revoked"])))
    if row["revoked"]:
        return html.div(html.span({"className": "badge text-bg-secondary"}, t("api_keys.status_revoked")),
                        html.div({"className": "small text-body-secondary"}, when(row["revoked"])))
    return html.span({"className": "badge text-bg-success"}, t("api_keys.status_active"))


def _last_used(t: Any, row: dict[str, Any]) -> Any:
    if not row["last_used"]:
        return html.span({"className": "text-body-secondary"}, t("api_keys.never_used"))
    return html.div(when(row["last_used"]),
                    html.div({"className": "small text-body-secondary"},
                             t("api_keys.from_address", address=row["last_used_address"]))
                    if row["last_used_address"] else "")


def _table(t: Any, rows: list[dict[str, Any]], on_revoke: Any) -> Any:
    if not rows:
        return html.div({"className": "text-center text-body-secondary py-4 border rounded-3", "data-api-keys": "empty"},
                        html.i({"className": "bi bi-key fs-3 d-block mb-1"}), t("api_keys.empty"))
    head = html.thead(html.tr(*[html.th({"scope": "col", "className": "small text-body-secondary fw-medium"}, t(k))
                                for k in ("api_keys.col_name", "api_keys.col_key", "api_keys.col_scope",
                                          "api_keys.col_created", "api_keys.col_last_used", "api_keys.col_status")],
                              html.th({"scope": "col"}, html.span({"className": "visually-hidden"},
                                                                  t("api_keys.col_actions")))))
    body = html.tbody(*[
        html.tr({"key": row["id"], "data-key-id": row["key_id"],
                 "className": "opacity-75" if row["revoked"] else ""},
                html.td({"className": "fw-medium"}, row["label"]),
                html.td(html.code({"className": "small"}, f"{api_keys.TOKEN_PREFIX}{row['key_id']}…")),
                html.td({"data-scope": row["scope"]}, t(f"api_keys.scope.{row['scope']}")),
                html.td(when(row["created"]),
                        html.div({"className": "small text-body-secondary"},
                                 t("api_keys.created_by", name=row["created_by_name"]))
                        if row["created_by_name"] else ""),
                html.td(_last_used(t, row)),
                html.td(_status(t, row)),
                html.td({"className": "text-end"},
                        "" if row["revoked"] else
                        html.button({"type": "button", "className": "btn btn-sm btn-outline-danger",
                                     "data-action": "revoke", "onClick": lambda _e, r=row: on_revoke(r)},
                                    html.i({"className": "bi bi-x-circle me-1"}), t("api_keys.revoke"))))
        for row in rows])
    return html.div({"className": "table-responsive"},
                    html.table({"className": "table align-middle mb-0", "data-api-keys": "list"}, head, body))


@component
def ApiCredentialsPanel(user_id: int) -> Any:
    """The API keys card for `user_id` (the acting user on the settings pages, any managed user elsewhere)."""
    console = use_console()
    t = console.t
    query = use_query(api_credentials.overview, actor=console.actor, user_id=user_id, deps=[user_id])
    data, reload = (query.value.model_dump() if query.value is not None else None), query.reload
    label, set_label = use_state("")
    # The least a new key may do is offered first: whoever makes it picks more on purpose.
    scope, set_scope = use_state(key_scopes.KeyScope.READ.value)
    nothing_revealed: dict[str, Any] | None = None
    revealed, set_revealed = use_state(nothing_revealed)  # the generate reply, holding the token, until dismissed
    confirming, set_confirming = use_state(None)  # the row waiting for the revoke confirmation

    def generated(result: ApiKeyCreated) -> None:
        set_revealed(result.model_dump())
        set_label("")
        reload()

    generate = use_action(api_credentials.generate, on_done=generated)
    revoke = use_action(api_credentials.revoke, success="api_keys.revoked", on_done=lambda _r: reload())

    def confirm_revoke() -> None:
        row = confirming
        set_confirming(None)
        if row is not None:
            revoke.submit(actor=console.actor, credential_id=row["id"])
            if revealed and revealed.get("id") == row["id"]:
                set_revealed(None)

    title = t("api_keys.title")
    if query.loading:
        return card(spinner(t("common.loading")), title=title)
    if data is None:  # the read failed (not allowed, no such user) and a toast said why
        return card(html.p({"className": "text-body-secondary small mb-0", "data-api-keys": "unavailable"},
                           t("api_keys.unavailable")), title=title)
    if not data["enabled"]:
        return card(html.div({"className": "d-flex gap-2 text-body-secondary", "data-api-keys": "disabled"},
                             html.i({"className": "bi bi-lock"}), t("api_keys.not_enabled")), title=title)

    rows = data["credentials"]
    own = console.actor is not None and console.actor.id == user_id
    live = sum(1 for r in rows if not r["revoked"])
    full = live >= data["max_live"]
    counter = html.span({"className": "badge rounded-pill text-bg-light border", "data-api-keys": "count"},
                        t("api_keys.count", live=live, max=data["max_live"]))
    return card(
        html.p({"className": "text-body-secondary small mb-3"},
               t("api_keys.intro") if own else t("api_keys.intro_other"), " ",
               html.code("Authorization: Bearer dsp_…"), " ",
               html.a({"href": "/docs", "target": "_blank", "rel": "noopener"}, t("api_keys.docs_link"),
                      html.i({"className": "bi bi-box-arrow-up-right ms-1 small"}))),
        _reveal(t, revealed, lambda: set_revealed(None)) if revealed else "",
        form(lambda values: generate.submit(actor=console.actor, user_id=user_id, label=values["label"],
                                            scope=values["scope"]),
             html.div({"className": "row g-2 align-items-start"},
                      html.div({"className": "col-md"},
                               text_field(name="label", label=t("api_keys.label"), value=label, on_change=set_label,
                                          error=generate.errors.get("label"), max_length=api_credentials.LABEL_MAX_LENGTH,
                                          placeholder=t("api_keys.label_placeholder"),
                                          help_text=t("api_keys.limit_reached") if full else t("api_keys.label_help"))),
                      html.div({"className": "col-md"},
                               select_field(name="scope", label=t("api_keys.scope"), value=scope, on_change=set_scope,
                                            options=[(name, t(f"api_keys.scope.{name}")) for name in key_scopes.SCOPES],
                                            error=generate.errors.get("scope"), help_text=t("api_keys.scope_help"))),
                      html.div({"className": "col-md-auto"},
                               html.div({"className": "form-label small d-none d-md-block"}, "\u00a0"),
                               submit_button(t("api_keys.generate"), pending=generate.pending,
                                             class_name="btn btn-primary px-3"))),
             name="api-key", values={"label": label, "scope": scope}),
        html.h3({"className": "h6 fw-semibold mt-2 mb-3"}, t("api_keys.your_keys")),
        _table(t, rows, set_confirming),
        ConfirmDialog(t("api_keys.confirm_title"), t("api_keys.confirm_text", label=confirming["label"]),
                      t("api_keys.revoke"), t("common.cancel"), confirm_revoke, lambda: set_confirming(None))
        if confirming else "",
        title=title, extra=counter,
    )
