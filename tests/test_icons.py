"""The icon font is cut down to the glyphs the console's sources name (js_modules/icons.mjs, run by `make js`):
131 KB of font for a few dozen icons became under 10 KB (issue 24). An icon named in a page but missing from the
cut would show as an empty box: every name written in the sources must have its rule."""

from __future__ import annotations

import re

from app.kernel.config import REPO_ROOT

ICONS = REPO_ROOT / "static" / "vendor" / "bootstrap-icons"
SOURCES = ("app", "components", "js_modules/src", "static/shell", "static/css")  # as icons.mjs reads them
NAME = re.compile(r"\bbi-([a-z0-9]+(?:-[a-z0-9]+)*)")
FONT_BUDGET = 10 * 1024  # issue 24: icon bytes <= 10 KB


def _named_in_sources() -> set[str]:
    names: set[str] = set()
    for folder in SOURCES:
        for path in (REPO_ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".js", ".jsx", ".mjs", ".css", ".html") and "node_modules" not in path.parts:
                names.update(NAME.findall(path.read_text(encoding="utf-8")))
    return names


def test_every_icon_the_sources_name_is_in_the_cut_font() -> None:
    css = (ICONS / "bootstrap-icons.min.css").read_text()
    defined = set(re.findall(r"\.bi-([a-z0-9-]+)::before\{content:", css))
    missing = sorted(_named_in_sources() - defined)
    assert not missing, f"run `make js` to add these icons to the font (or fix their names): {missing}"


def test_the_page_loads_one_small_icon_font() -> None:
    fonts = sorted(path.name for path in (ICONS / "fonts").iterdir())
    assert fonts == ["bootstrap-icons.woff2"]
    assert (ICONS / "fonts" / "bootstrap-icons.woff2").stat().st_size <= FONT_BUDGET
