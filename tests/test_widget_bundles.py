"""The committed widget bundles exist and were built from the committed sources."""

from __future__ import annotations

from components.widgets.bundles import STATIC_JS_DIR, bundle_url, manifest, sources_sha256

WIDGETS = ("chart", "datagrid", "document", "session")


def test_manifest_lists_every_widget() -> None:
    assert set(WIDGETS) <= set(manifest()["entries"])


def test_manifest_entries_exist_on_disk() -> None:
    for widget, file_name in manifest()["entries"].items():
        assert (STATIC_JS_DIR / file_name).is_file(), widget
        assert bundle_url(widget) == f"/static/js/{file_name}"


def test_bundles_match_sources() -> None:
    # Fails when js_modules/ was edited without `npm run build` (or the build is stale).
    assert sources_sha256() == manifest()["sources_sha256"], (
        "static/js is stale: run `npm ci && npm run build` in js_modules/ and commit static/"
    )
