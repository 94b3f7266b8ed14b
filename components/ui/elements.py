"""Small building blocks shared by pages: page header, card, spinner, backdrop."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import html

from components.ui import styles


def page_header(title: Any, subtitle: Any = "", *actions: Any) -> Any:
    """The page's title and subtitle (text, or an element: a name with its status badges) and its buttons."""
    return html.div(
        {"className": styles.PAGE_HEADER},
        html.div(html.h1({"className": styles.PAGE_TITLE}, title),
                 html.p({"className": styles.PAGE_SUBTITLE}, subtitle) if subtitle else ""),
        html.div({"className": "d-flex gap-2"}, *actions),
    )


def card(*children: Any, title: str = "", extra: Any = "", class_name: str = "") -> Any:
    header = (
        html.div({"className": "card-header bg-transparent d-flex justify-content-between align-items-center"},
                 html.h2({"className": "h6 mb-0 fw-semibold"}, title), extra)
        if title else ""
    )
    return html.div({"className": f"{styles.CARD} {class_name}".strip()}, header,
                    html.div({"className": styles.CARD_BODY}, *children))


def facts(rows: list[tuple[str, Any]], *, cell: str = "col-sm-6 mb-3") -> Any:
    """Label/value pairs in two columns, the way a record's overview lists its settings."""
    return html.dl({"className": "row mb-0 small dsp-facts"},
                   *[html.div({"className": cell, "key": label},
                              html.dt({"className": "text-body-secondary fw-normal"}, label),
                              html.dd({"className": "mb-0 fw-medium text-break"}, value)) for label, value in rows])


def empty_state(icon: str, title: str, text: str, *actions: Any, marker: dict[str, str] | None = None) -> Any:
    """The centred icon, title and explanation a page or panel shows when it has nothing to list; `marker`
    is the data- attribute tests and styles find it by."""
    return html.div({"className": "text-center py-5 px-3", **(marker or {})},
                    html.i({"className": f"bi {icon} d-block mb-2 text-body-tertiary", "style": {"fontSize": "2.25rem"}}),
                    html.div({"className": "fw-semibold"}, title),
                    html.p({"className": "text-body-secondary small mx-auto mb-0", "style": {"maxWidth": "36rem"}},
                           text) if text else "",
                    *[html.div({"className": "mt-3"}, action) for action in actions])


def spinner(label: str = "Loading") -> Any:
    return html.div({"className": "d-flex justify-content-center py-5", "role": "status", "aria-label": label},
                    html.div({"className": "spinner-border text-primary"}))


def backdrop(on_close: Callable[[Any], None]) -> Any:
    """An invisible layer under an open dropdown: a click outside closes it."""
    return html.div({"className": "dsp-click-away", "onClick": on_close})


def loading_page(t: Callable[..., str], title: str) -> Any:
    """What a page shows while its first read is still on its way: its header and a spinner, never a
    premature "not found" or "no records"."""
    return html.div(page_header(title), html.div({"data-loading": "page"}, spinner(t("common.loading"))))


# Reserved space: a widget's final height held before its data and its JS bundle arrive, so nothing below it
# moves when it draws (Lighthouse's cumulative layout shift; bench/lighthouse.py).
def slot(content: Any, min_height: str, *, centred: bool = False) -> Any:
    """A box of a widget's final height (a CSS length) holding the widget, or its skeleton while loading;
    `centred` puts a short content (a "nothing delivered" line) in its middle."""
    return html.div({"className": "dsp-slot" + (" dsp-slot-centred" if centred else ""), "style": {"minHeight": min_height}},
                    content)


def skeleton(kind: str) -> Any:
    """A placeholder that fills its slot: "chart" a soft block, "table" grey bars at the table's row pitch."""
    return html.div({"className": f"dsp-skeleton dsp-skeleton-{kind}", "aria-hidden": "true"})
