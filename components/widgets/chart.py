"""Charts: days on the x axis and one or more series of figures, drawn by the `chart` JS widget (uPlot).

Props are plain data (no JS functions or formatter strings are evaluated), built from statistics rows on
the server and sent as JSON.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reactpy.types import VdomDict

from components.widgets.bundles import widget_component

DEFAULT_CHART_HEIGHT_PX = 300

_Chart = widget_component("chart", "Chart")


def chart(
    *,
    x: Sequence[str],
    x_label: str = "",
    series: Sequence[dict[str, Any]],
    height: int = DEFAULT_CHART_HEIGHT_PX,
    locale: str = "en",
    empty_text: str = "No data",
    key: str | None = None,
) -> VdomDict:
    """A chart that fills its container's width and resizes with it.

    `x` holds ISO days ("2026-11-01"); each series is {name, values (one per day, None for a gap),
    type "bar" | "line", axis "left" | "right", format "number" | "money" | "percent"}. The first series
    takes the white-label colour --dsp-primary. `empty_text` is shown instead when every value is zero.
    """
    props: dict[str, Any] = {"x": list(x), "xLabel": x_label, "series": [dict(s) for s in series], "height": height,
                             "locale": locale, "emptyText": empty_text}
    if key is not None:
        props["key"] = key
    return _Chart(props)
