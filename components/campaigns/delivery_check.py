"""The campaign view's "Delivery check": why the campaign is not spending (app/campaigns/diagnosis), most blocking
first, each reason with its severity and a button to the page that fixes it; or, when nothing holds it back,
that it is eligible, with its spend."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.campaigns.diagnosis.schemas import Diagnosis, Reason
from app.campaigns.diagnosis.service import diagnose
from app.kernel.i18n.formatters import money
from components.ui.console import Console, use_console
from components.ui.elements import card, spinner
from components.ui.hooks import use_query
from components.ui.links import app_link

# How each severity looks: (Bootstrap colour, icon). Icons the console's cut-down icon font already holds
# (js_modules/icons.mjs keeps only the glyphs the sources name).
LOOK = {"blocking": ("danger", "bi-x-circle-fill"), "limiting": ("warning", "bi-exclamation-triangle"),
        "info": ("info", "bi-info-circle-fill")}


def _money(console: Console, amount: str) -> str:
    return money(amount, language=console.language)


def _summary(console: Console, found: Diagnosis) -> Any:
    """The verdict above the reasons: eligible (with its spend) or not delivering."""
    t = console.t
    colour, icon, title, text = ("success", "bi-check-circle-fill", t("diagnosis.eligible"),
                                 t("diagnosis.eligible_text")) if found.eligible else \
        ("danger", "bi-slash-circle", t("diagnosis.blocked"), t("diagnosis.blocked_text"))
    return html.div({"className": f"d-flex align-items-center gap-3 p-3 rounded-3 bg-{colour}-subtle "
                                  f"border border-{colour}-subtle mb-3", "data-verdict": "eligible" if found.eligible
                     else "blocked"},
                    html.i({"className": f"bi {icon} text-{colour} fs-3"}),
                    html.div({"className": "flex-grow-1 min-w-0"},
                             html.div({"className": f"fw-semibold text-{colour}-emphasis"}, title),
                             html.div({"className": "small text-body-secondary"}, text)),
                    html.div({"className": "text-end small"},
                             html.div({"className": "text-body-secondary"}, t("diagnosis.spent")),
                             html.div({"className": "fw-semibold fs-6", "data-figure": "spent"},
                                      _money(console, found.spent)),
                             html.div({"className": "text-body-secondary"},
                                      t("diagnosis.spent_today", amount=_money(console, found.spent_today)))))


def _reason(console: Console, found: Reason) -> Any:
    t = console.t
    colour, icon = LOOK[found.severity]
    fix = found.fix
    action: Any = ""
    if fix is not None and fix.link:
        action = app_link({"to": fix.link, "className": "btn btn-sm btn-outline-primary text-nowrap",
                           "data-fix": found.code},
                          t(fix.label), html.i({"className": "bi bi-arrow-right ms-1"}))
    elif fix is not None:
        action = html.span({"className": "small text-body-secondary text-nowrap"}, t("diagnosis.ask_manager"))
    return html.li({"className": "list-group-item px-0 py-3 d-flex gap-3 align-items-start", "key": found.code,
                    "data-reason": found.code, "data-severity": found.severity},
                   html.i({"className": f"bi {icon} text-{colour} fs-5 lh-1 mt-1"}),
                   html.div({"className": "flex-grow-1 min-w-0"},
                            html.span({"className": f"badge rounded-pill text-bg-{colour} text-uppercase mb-1",
                                       "style": {"letterSpacing": ".04em", "fontSize": ".68rem"}},
                                      t(f"diagnosis.severity.{found.severity}")),
                            html.div({"className": "small"}, t(found.message))),
                   action)


@component
def DeliveryCheckCard(campaign_id: int, version: str) -> Any:
    """`version` changes when the campaign does (its status, its settings): the check runs again."""
    console = use_console()
    t = console.t
    query = use_query(diagnose, actor=console.actor, campaign_id=campaign_id, deps=[campaign_id, version])
    found: Diagnosis | None = query.value
    recheck = html.button({"type": "button", "className": "btn btn-sm btn-link text-decoration-none p-0",
                           "data-action": "recheck-delivery", "disabled": query.loading,
                           "onClick": lambda _e: query.reload()},
                          html.i({"className": "bi bi-arrow-clockwise me-1"}), t("diagnosis.recheck"))
    if found is None:
        body: Any = spinner(t("common.loading")) if query.loading else ""
    else:
        body = html.div(_summary(console, found),
                        html.ul({"className": "list-group list-group-flush mb-0", "data-reasons": ""},
                                *[_reason(console, r) for r in found.reasons]) if found.reasons else "")
    return html.div({"data-panel": "delivery-check"},
                    card(body, title=t("diagnosis.title"), extra=recheck))
