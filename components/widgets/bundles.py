"""Where the built widget bundles are, and whether they match their sources.

The JS build (js_modules/build.mjs) writes content-hashed files plus static/js/manifest.json;
pages must load the hashed names, and a test must notice sources edited without a rebuild.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import TypedDict

from reactpy.reactjs import component_from_url
from reactpy.types import VdomConstructor

PROJECT_ROOT = Path(__file__).resolve().parents[2]
JS_MODULES_DIR = PROJECT_ROOT / "js_modules"
STATIC_JS_DIR = PROJECT_ROOT / "static" / "js"
MANIFEST_PATH = STATIC_JS_DIR / "manifest.json"
STATIC_JS_URL = "/static/js/"
HASHED_BUILD_INPUTS = ("package.json", "package-lock.json", "build.mjs")


class Manifest(TypedDict):
    entries: dict[str, str]
    sources_sha256: str


@functools.cache
def manifest() -> Manifest:
    """The build manifest, read once per process (bundles change only with a deploy)."""
    try:
        data = json.loads(MANIFEST_PATH.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        msg = f"{MANIFEST_PATH} is missing: run `npm ci && npm run build` in js_modules/"
        raise RuntimeError(msg) from error
    return Manifest(entries=dict(data["entries"]), sources_sha256=str(data["sources_sha256"]))


def bundle_url(widget: str) -> str:
    """URL of a widget's entry module, e.g. bundle_url("chart") -> "/static/js/chart-XXXX.js".

    The entry imports its shared chunks relatively, so it must be served from /static/js/
    (hence component_from_url, not component_from_file which copies the file elsewhere).
    """
    entries = manifest()["entries"]
    if widget not in entries:
        msg = f"no widget bundle {widget!r} in {MANIFEST_PATH} (have: {sorted(entries)})"
        raise KeyError(msg)
    return STATIC_JS_URL + entries[widget]


def widget_component(widget: str, export: str) -> VdomConstructor:
    """The ReactPy constructor of one component exported by a widget bundle."""
    return component_from_url(bundle_url(widget), export, allow_children=False)


def sources_sha256(js_modules_dir: Path = JS_MODULES_DIR) -> str:
    """Hash of the widget sources, computed exactly like sourcesSha256() in build.mjs.

    Files: everything under js_modules/src plus package.json, package-lock.json, build.mjs.
    Each is named by its "/"-separated path relative to js_modules/; sorted by name; the
    digest covers, per file, UTF-8(name) + NUL + bytes.
    """
    files = [p for p in (js_modules_dir / "src").rglob("*") if p.is_file()]
    files += [js_modules_dir / name for name in HASHED_BUILD_INPUTS]
    named = sorted((p.relative_to(js_modules_dir).as_posix(), p) for p in files)
    digest = hashlib.sha256()
    for name, path in named:
        digest.update(name.encode("utf-8"))
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()
