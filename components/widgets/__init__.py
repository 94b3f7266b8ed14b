"""Python wrappers of the JS widgets built from js_modules/ (one module per widget)."""

from __future__ import annotations

from components.widgets.chart import chart
from components.widgets.datagrid import GridAction, GridColumn, data_grid
from components.widgets.document_effects import Download, document_effects
from components.widgets.session_agent import session_agent

__all__ = [
    "Download",
    "GridAction",
    "GridColumn",
    "chart",
    "data_grid",
    "document_effects",
    "session_agent",
]
