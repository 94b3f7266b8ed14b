"""PageFrame: puts a routed page into its frame and sets the document title and favicon."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_location

from components.shell.layout import ShellLayout, auth_layout, docs_layout
from components.shell.title import page_title
from components.ui.console import use_console
from components.widgets.document_effects import document_effects


@component
def PageFrame(page: Any) -> Any:
    console = use_console()
    path = use_location().path
    branding = console.state.branding
    effects = document_effects(title=page_title(path, branding.meta_title, branding.name),
                               favicon=branding.favicon_url, scroll_top_key=path)
    content = page.component()
    marker = {"data-page": page.path}  # which route matched: tests and support tooling read it
    if page.frame == "auth":
        return html.div(marker, effects, auth_layout(content, console))
    if page.frame == "docs":
        return html.div(marker, effects, docs_layout(content, console))
    return html.div(marker, effects, ShellLayout(content))
