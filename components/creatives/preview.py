"""A creative drawn as it will show: the image, the video with its controls, the native ad laid out as a
feed card, or the html markup inside a sandboxed iframe (scripts run, but in an opaque origin with no access
to the console, its cookies or its storage; it is never put into the page itself)."""

from __future__ import annotations

import hashlib
from typing import Any

from reactpy import html

from app.creatives.models import CreativeType
from app.web.csp import CREATIVE_FRAME_PATH
from components.ui.console import Console

MAX_PREVIEW_WIDTH = 480


def _frame(*children: Any, marker: str) -> Any:
    return html.div({"className": "dsp-creative-preview d-flex justify-content-center align-items-center p-3",
                     "data-preview": marker}, *children)


def creative_preview(console: Console, shown: dict[str, Any]) -> Any:
    """`shown` is what app.creatives.service.preview returns (or the form's values, for a live preview)."""
    t = console.t
    kind = shown.get("type")
    asset = shown.get("asset") or {}
    if kind == CreativeType.IMAGE:
        if not asset.get("url"):
            return _frame(html.span({"className": "text-body-secondary small"}, t("creatives.no_file")), marker="empty")
        return _frame(html.img({"src": asset["url"], "alt": shown.get("name") or "", "className": "img-fluid shadow-sm",
                                "style": {"maxWidth": f"{MAX_PREVIEW_WIDTH}px"}}), marker="image")
    if kind == CreativeType.VIDEO:
        if not asset.get("url"):
            return _frame(html.span({"className": "text-body-secondary small"}, t("creatives.no_file")), marker="empty")
        return _frame(html.video({"src": asset["url"], "controls": True, "muted": True, "playsInline": True,
                                  "preload": "metadata", "className": "shadow-sm",
                                  "style": {"maxWidth": f"{MAX_PREVIEW_WIDTH}px", "width": "100%"}}), marker="video")
    if kind == CreativeType.NATIVE:
        image, icon = shown.get("main_image") or {}, shown.get("icon") or {}
        return _frame(html.div(
            {"className": "card shadow-sm dsp-native-card", "style": {"maxWidth": "340px", "width": "100%"}},
            html.div({"className": "card-body d-flex align-items-center gap-2 py-2"},
                     html.img({"src": icon["url"], "alt": "", "width": 32, "height": 32, "className": "rounded"})
                     if icon.get("url") else html.div({"className": "rounded bg-body-tertiary",
                                                       "style": {"width": "32px", "height": "32px"}}),
                     html.div({"className": "small"},
                              html.div({"className": "fw-semibold"}, shown.get("title") or t("creatives.field.title")),
                              html.div({"className": "text-body-secondary", "style": {"fontSize": ".7rem"}},
                                       t("creatives.sponsored")))),
            html.img({"src": image["url"], "alt": "", "className": "card-img-bottom"}) if image.get("url") else
            html.div({"className": "bg-body-tertiary", "style": {"height": "160px"}}),
            html.div({"className": "card-body py-2"},
                     html.p({"className": "small mb-2"}, shown.get("description") or ""),
                     html.span({"className": "btn btn-sm btn-primary"}, shown.get("call_to_action") or "…")),
        ), marker="native")
    if kind == CreativeType.HTML:
        width, height = int(shown.get("width") or 300), int(shown.get("height") or 250)
        markup = shown.get("html") or ""
        # Not srcdoc: a srcdoc document inherits the console's Content-Security-Policy, under which the
        # creative's own scripts and images could not load. /creative-frame has its own policy (sandboxed,
        # open for ad markup, app/web/csp.py) and static/shell/actions.js posts the markup to it. A new frame
        # (key) for new markup, as the live preview changes.
        return _frame(html.iframe({"key": hashlib.sha256(markup.encode()).hexdigest(), "src": CREATIVE_FRAME_PATH,
                                   "title": t("creatives.html_preview"), "sandbox": "allow-scripts",
                                   "data-creative-markup": markup, "referrerPolicy": "no-referrer",
                                   "width": str(width), "height": str(height),
                                   "className": "border bg-white shadow-sm",
                                   "style": {"maxWidth": "100%"}}), marker="html")
    return _frame(html.span({"className": "text-body-secondary small"}, "—"), marker="empty")
