"""The HTML shell every page is served in, without inline script (see app/web/csp.py).

ReactPy 2.0's own shell (reactpy.executors.utils.server_side_component_html) boots its client with two
inline <script>s: one that writes an import map, one that calls mountReactPy with the reconnect settings.
Both would need 'unsafe-inline' or per-version hashes. Here the settings travel as data- attributes on the
mount element and /static/shell/boot.js reads them and mounts the client. The import map is left out: it
only maps the bare name "react" for JS modules that bring no `bind` of their own, and every widget bundle
exports `bind` (ARCHITECTURE.md), so ReactPy never imports "react".

Only the shell's text is replaced; ReactPy still serves it (headers, HEAD), the websocket and its client.

The boot script also installs the console's fixes to that client (static/shell/lean-events.js: lean events, ticks
kept through renders in flight) through Preact's `options` hooks. The client's bundle keeps that object in one of
its chunks under a minified export name, so where it is is declared here per ReactPy version; another version gets
the client as ReactPy ships it (and tests/test_html_shell.py fails, to say the pin needs looking at).
"""

from __future__ import annotations

import hashlib
import html as html_text
from pathlib import Path
from typing import Any

import reactpy
from reactpy import config
from reactpy.executors.asgi.standalone import ReactPy, ReactPyApp
from reactpy.executors.utils import vdom_head_to_html
from reactpy.utils import reactpy_to_string

BOOT_SCRIPT = "/static/shell/boot.js"
ACTIONS_SCRIPT = "/static/shell/actions.js"
MOUNT_ID = "app"
# ReactPy's client chunk (in reactpy/static/) holding Preact's `options` object, and its export name there.
PREACT_OPTIONS_BY_VERSION = {"2.0.0b13": ("index-bz53xswt.js", "h")}


def preact_options() -> str:
    """"chunk#export" for boot.js, or "" when this ReactPy is not one the client fixes know (the client then runs as
    ReactPy ships it)."""
    chunk, export = PREACT_OPTIONS_BY_VERSION.get(reactpy.__version__, ("", ""))
    return f"{chunk}#{export}" if chunk and (Path(reactpy.__file__).parent / "static" / chunk).is_file() else ""


def mount_element() -> str:
    settings = {
        "path-prefix": config.REACTPY_PATH_PREFIX.current,
        "reconnect-interval": config.REACTPY_RECONNECT_INTERVAL.current,
        "reconnect-max-interval": config.REACTPY_RECONNECT_MAX_INTERVAL.current,
        "reconnect-max-retries": config.REACTPY_RECONNECT_MAX_RETRIES.current,
        "reconnect-backoff-multiplier": config.REACTPY_RECONNECT_BACKOFF_MULTIPLIER.current,
        "preact-options": preact_options(),
    }
    attributes = "".join(f' data-{name}="{html_text.escape(str(value))}"' for name, value in settings.items())
    return f'<div id="{MOUNT_ID}"{attributes}></div>'


class _ShellApp(ReactPyApp):
    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        # ReactPy answers a conditional request with 304, but the shell is sent as no-store (HtmlShellHeaders)
        # and is tiny: always send it whole. Static files, which are not served here, keep their 304s.
        if scope["type"] == "http":
            scope = {**scope, "headers": [(k, v) for k, v in scope["headers"]
                                          if k not in (b"if-none-match", b"if-modified-since")]}
        await super().__call__(scope, receive, send)

    def render_index_html(self) -> None:
        super().render_index_html()  # sets last-modified; the text and its etag are replaced below
        parent = self.parent
        prepend = reactpy_to_string(parent.prepend_body) if parent.prepend_body is not None else ""
        self._index_html = (
            f'<!doctype html><html lang="{parent.html_lang}">{vdom_head_to_html(parent.html_head)}<body>'
            f"{prepend}{mount_element()}"
            f'<script type="module" src="{ACTIONS_SCRIPT}"></script>'
            f'<script type="module" src="{BOOT_SCRIPT}"></script>'
            "</body></html>"
        )
        self._etag = f'"{hashlib.md5(self._index_html.encode(), usedforsecurity=False).hexdigest()}"'


class ConsolePages(ReactPy):
    """ReactPy's standalone app, serving the shell above."""

    def __init__(self, root_component: Any, **options: Any) -> None:
        super().__init__(root_component, **options)
        self.asgi_app = _ShellApp(self)
