"""The shell's hook into ReactPy's client (app/web/html_shell.py, static/shell/lean-events.js): it knows where the
installed ReactPy keeps Preact's `options`, so the console's client fixes are installed, not silently skipped."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import reactpy

from app.web.html_shell import mount_element, preact_options


def test_the_installed_reactpy_is_one_the_client_fixes_know() -> None:
    assert preact_options(), (f"ReactPy {reactpy.__version__}: say in html_shell.PREACT_OPTIONS_BY_VERSION which chunk "
                              "of its client exports Preact's options, or lean-events.js is not installed")
    assert f'data-preact-options="{preact_options()}"' in mount_element()


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to load the client's chunk")
def test_the_named_export_is_preacts_options_with_the_hooks_the_fixes_chain() -> None:
    chunk, export = preact_options().split("#")
    path = Path(reactpy.__file__).parent / "static" / chunk
    script = f"const m = await import({json.dumps(path.as_uri())}); console.log(JSON.stringify(Object.keys(m[{json.dumps(export)}])))"
    keys = json.loads(subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True,
                                     check=True, timeout=30).stdout)
    # preact/compat has set `event` and `vnode` by the time the chunk has loaded; `diffed` is Preact's own hook.
    assert {"event", "vnode", "diffed"} <= set(keys)
