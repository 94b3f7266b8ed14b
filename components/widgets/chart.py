"""Charts: an ECharts option built in Python, drawn by the `chart` JS widget.

The option is plain data (no JS functions or formatter strings are evaluated), so it can be
built from report rows on the server and sent as JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reactpy.types import VdomDict

from components.widgets.bundles import widget_component

DEFAULT_CHART_HEIGHT_PX = 320

_Chart = widget_component("chart", "Chart")


def chart(
    option: Mapping[str, Any],
    *,
    height: int = DEFAULT_CHART_HEIGHT_PX,
    empty_text: str = "No data",
    key: str | None = None,
) -> VdomDict:
    """A chart that fills its container's width and resizes with it.

    `option` is an ECharts option (series, xAxis, dataset, ...). Without `color` the first
    series uses the white-label CSS variable --dsp-primary. `empty_text` is shown instead of
    the chart when no series or dataset holds data.
    """
    props: dict[str, Any] = {"option": dict(option), "height": height, "emptyText": empty_text}
    if key is not None:
        props["key"] = key
    return _Chart(props)
