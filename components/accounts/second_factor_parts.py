"""What the profile's set-up and the sign-in's forced set-up share: the QR code with its key, the code field, and
the recovery codes shown once (app/accounts/second_factor.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import html

from app.accounts import second_factor
from components.ui.forms import text_field


def qr_code(svg: str, label: str) -> Any:
    """The enrolment's QR code drawn as the page's own SVG elements (made on the server by segno; the secret goes
    to no outside service, and no raw HTML enters the page)."""
    view_box, path = second_factor.qr_parts(svg)
    return html.div({"className": "dsp-qr"},
                    html.svg({"viewBox": view_box, "role": "img", "aria-label": label, "width": "100%", "height": "100%"},
                             html.path({"d": path, "stroke": "#111827", "fill": "none", "shapeRendering": "crispEdges"})))


def grouped(secret: str) -> str:
    """The key as an app's "enter a key" screen wants it read: groups of four."""
    return " ".join(secret[i:i + 4] for i in range(0, len(secret), 4))


def enrolment_panel(t: Callable[..., str], enrolment: second_factor.Enrolment, *code_form: Any,
                    stacked: bool = False) -> Any:
    """The three steps: get an app, scan (or type the key), enter its code. Beside the QR code, or below it in a
    narrow frame (`stacked`: the sign-in card)."""
    def step(number: int, title: str, *body: Any) -> Any:
        return html.li({"className": "dsp-step"},
                       html.span({"className": "dsp-step-number"}, str(number)),
                       html.div({"className": "flex-grow-1"}, html.div({"className": "fw-semibold mb-1"}, title), *body))

    return html.div({"className": "row g-4 align-items-start"},
                    html.div({"className": "col-12 text-center" if stacked else "col-sm-auto text-center"},
                             qr_code(enrolment.qr_svg, t("twofactor.qr_label")),
                             html.div({"className": "small text-body-secondary mt-2"}, t("twofactor.scan_hint"))),
                    html.div({"className": "col"},
                             html.ol({"className": "list-unstyled mb-0"},
                                     step(1, t("twofactor.step_app"),
                                          html.p({"className": "small text-body-secondary mb-3"}, t("twofactor.step_app_help"))),
                                     step(2, t("twofactor.step_scan"),
                                          html.p({"className": "small text-body-secondary mb-1"}, t("twofactor.step_scan_help")),
                                          html.code({"className": "dsp-secret", "data-secret": enrolment.secret},
                                                    grouped(enrolment.secret))),
                                     step(3, t("twofactor.step_code"), *code_form))))


def code_field(t: Callable[..., str], value: str, on_change: Callable[[str], None], error: str | None,
               *, recovery: bool = False) -> Any:
    return text_field(name="code", label=t("twofactor.code_or_recovery" if recovery else "twofactor.code"),
                      value=value, on_change=on_change, error=error, autocomplete="one-time-code", autofocus=True,
                      placeholder="123456", max_length=16)


def recovery_codes_panel(t: Callable[..., str], codes: list[str], *actions: Any) -> Any:
    """The ten codes, shown this once: the page says so, and offers them as a file to keep."""
    text = "\n".join(codes) + "\n"
    return html.div({"className": "dsp-recovery"},
                    html.div({"className": "alert alert-warning d-flex gap-2 small"},
                             html.i({"className": "bi bi-exclamation-triangle"}),
                             html.div(html.strong(t("twofactor.recovery_title")), html.br(), t("twofactor.recovery_help"))),
                    html.ul({"className": "dsp-recovery-codes list-unstyled", "aria-label": t("twofactor.recovery_title")},
                            *[html.li({"key": code}, html.code(code)) for code in codes]),
                    html.div({"className": "d-flex flex-wrap gap-2"},
                             html.a({"className": "btn btn-outline-secondary", "download": "recovery-codes.txt",
                                     "href": "data:text/plain;charset=utf-8," + text.replace("\n", "%0A")},
                                    html.i({"className": "bi bi-download me-1"}), t("twofactor.recovery_download")),
                             *actions))
