"""README's "Adding a page in Python", followed word for word: its component is written where it says, its route
line joins the page table, its strings are merged into the catalogs with the command it names, and then the real
console shows the page to the role it names, in that role's menu, with the service's data, and to no other role.

Everything is read from README.md (the example code, the file it goes in, the route line, the string patch and
the merge command), so the test fails when the README's example stops working. The customer's files go into a
temporary folder added to the `app` and `components` packages' search paths, and the strings into a copy of the
catalogs: the repository itself is never written."""

from __future__ import annotations

import importlib
import json
import re
import shutil
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from reactpy.core.hooks import ConnectionContext
from reactpy.core.layout import Layout
from reactpy.types import Connection, Location

import app
import components
from app.access.sessions import SESSION_COOKIE
from app.kernel.i18n import catalog
from components import pages, root
from components.root import Root
from components.ui.routes import RouteTable
from tests.helpers import browser_session
from tests.render import run_async, settle, text_of, walk

README = Path(__file__).resolve().parents[1] / "README.md"
SECTION = "## Adding a page in Python"
# What the service the README only names answers: the page must show these.
INVOICES = ("INV-2026-0001", "INV-2026-0002")


def _section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return text[start:end if end >= 0 else None]


def _blocks(section: str, language: str) -> list[str]:
    """The fenced code blocks of a language, as they would be pasted (the list's indentation taken off)."""
    return [textwrap.dedent(block) for block in
            re.findall(rf"^ *```{language}\n(.*?)^ *```", section, flags=re.MULTILINE | re.DOTALL)]


def _one(pattern: str, section: str) -> re.Match[str]:
    found = re.search(pattern, section, flags=re.DOTALL | re.MULTILINE)
    assert found, f"README's {SECTION!r} no longer has {pattern!r}"
    return found


class Example:
    """The README's example, read out of it."""

    def __init__(self) -> None:
        section = _section()
        [self.component_code] = _blocks(section, "python")
        [patch] = _blocks(section, "json")
        self.patch = json.loads(patch)
        self.component_file = _one(r"`(components/[\w/]+\.py)`", section)[1]
        service = _one(r"from (app(?:\.\w+)+) import (\w+) as \w+ +# (app/[\w/]+\.py): (\w+)\(db, \*, actor\)",
                       self.component_code)
        self.service_module = f"{service[1]}.{service[2]}"
        self.service_file, self.service_function = service[3], service[4]
        assert self.service_file == self.service_module.replace(".", "/") + ".py"
        self.page_line = " ".join(_one(r"`(Page\(.*?\))`", section)[1].split())
        self.component_name = _one(r"^def (\w+)\(", self.component_code)[1]
        self.merge_module = _one(r"python -m ((?:\w+\.)+\w+) my-strings\.json", section)[1]


def _service_code(function: str) -> str:
    """The service the README names but leaves to the customer: signed-in users only, as every service checks its
    actor, answering rows with the field the component shows."""
    return textwrap.dedent(f"""\
        from app.kernel.errors import NotAuthenticated

        def {function}(db, *, actor):
            if actor is None:
                raise NotAuthenticated()
            return [{{"number": number}} for number in {INVOICES!r}]
        """)


def _write(root: Path, relative: str, code: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(code, encoding="utf-8")


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The README's steps 1 to 3 done in a temporary folder: the component and its service written, the route line
    added to the page table, the strings merged into a copy of the catalogs. Undone afterwards."""
    example = Example()
    _write(tmp_path, example.component_file, example.component_code)
    _write(tmp_path, example.service_file, _service_code(example.service_function))
    monkeypatch.setattr(app, "__path__", [*app.__path__, str(tmp_path / "app")])
    monkeypatch.setattr(components, "__path__", [*components.__path__, str(tmp_path / "components")])
    component_module = example.component_file[:-3].replace("/", ".")
    module: ModuleType = importlib.import_module(component_module)

    names = {**vars(pages), example.component_name: getattr(module, example.component_name)}
    page = eval(example.page_line, names)  # noqa: S307 - the README's own line, in the page table's module
    table = (*pages.PAGES, page)
    pages._check(table)  # noqa: SLF001 - the checks the table runs at import, on the table with the new line
    monkeypatch.setattr(pages, "PAGES", table)
    routes = RouteTable(table, pages.MENU_LINKS)  # what pages.py derives from PAGES at import
    monkeypatch.setattr(pages, "ROUTES", routes)
    monkeypatch.setattr(root, "ROUTES", routes)  # the Root took the table when it was imported

    catalogs = tmp_path / "catalogs"
    shutil.copytree(Path(catalog.__file__).parent / "catalogs", catalogs)
    merge = importlib.import_module(example.merge_module)
    monkeypatch.setattr(merge, "CATALOG_DIR", catalogs)
    monkeypatch.setattr(catalog, "_CATALOG_DIR", catalogs)
    catalog.catalog.cache_clear()
    merge.merge(example.patch)
    yield page
    catalog.catalog.cache_clear()
    packages = tuple(name.rsplit(".", 1)[0] for name in (example.service_module, component_module))
    for name in [name for name in sys.modules if name.startswith(packages)]:
        del sys.modules[name]  # the temporary folder goes with the test


def _render(email: str, path: str) -> dict[str, Any]:
    """The real console (router, frame, menu) at `path`, as the signed-in demo user, once its reads are in."""
    cookie = f"{SESSION_COOKIE}={browser_session(email)[0]}".encode()
    connection = Connection(scope={"type": "websocket", "headers": [(b"cookie", cookie)]},
                            location=Location(path, ""), carrier=None)

    async def first_render() -> dict[str, Any]:
        async with Layout(ConnectionContext(Root(), value=connection)) as layout:
            return await settle(layout, (await layout.render())["model"])

    return run_async(first_render())


def _attribute(model: dict[str, Any], name: str) -> str | None:
    return next((node["attributes"][name] for node in walk(model) if name in node.get("attributes", {})), None)


def _menu_link(model: dict[str, Any], path: str) -> dict[str, Any] | None:
    return next((node for node in walk(model) if node.get("tagName") == "a"
                 and path in (node.get("attributes", {}).get("href"), node.get("attributes", {}).get("to"))), None)


def test_the_readme_page_opens_for_its_role_in_its_menu_with_its_data(demo_ids, installed):
    shown = _render("advertiser@demo.example", installed.path)
    assert _attribute(shown, "data-page") == installed.path
    text = text_of(shown)
    assert all(number in text for number in INVOICES)
    assert [text_of(node) for node in walk(shown) if node.get("tagName") == "h1"] == ["Invoices"]
    link = _menu_link(shown, installed.path)
    assert link is not None and "Invoices" in text_of(link)


@pytest.mark.parametrize("email", ["admin@demo.example", "coadmin@demo.example", "agency@demo.example"])
def test_the_readme_page_is_no_other_roles(demo_ids, installed, email):
    refused = _render(email, installed.path)
    assert _attribute(refused, "data-page") is None and _attribute(refused, "data-redirect-to")
    assert not any(number in text_of(refused) for number in INVOICES)
    landing = _render(email, _attribute(refused, "data-redirect-to") or "/")
    assert _attribute(landing, "data-page") and _menu_link(landing, installed.path) is None
