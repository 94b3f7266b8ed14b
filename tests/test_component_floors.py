"""components/ is built in floors, as app/ is: widgets at the ground, ui over them, the shell and the domain pages
over ui, the route table (pages.py) and the Root on top. Pages reach the route table through the console
context, never by importing it, so adding a page cannot close an import circle."""

from __future__ import annotations

import ast
from pathlib import Path

COMPONENTS = Path(__file__).resolve().parent.parent / "components"
TOP = {"components.pages", "components.root"}


def _module(path: Path) -> str:
    return ".".join(path.relative_to(COMPONENTS.parent).with_suffix("").parts).removesuffix(".__init__")


def _imports(path: Path) -> set[str]:
    """The components modules `path` imports, at any depth of its code (late imports count too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("components"):
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("components"))
    return found


def _modules() -> dict[str, set[str]]:
    return {_module(path): _imports(path) for path in COMPONENTS.rglob("*.py")}


def test_only_the_root_imports_the_route_table():
    importers = {module for module, imports in _modules().items() if imports & {"components.pages"}}
    assert importers == {"components.root"}


def test_ui_and_widgets_import_nothing_above_them():
    for module, imports in _modules().items():
        floor = module.split(".")[1] if module.count(".") else ""
        if floor == "widgets":
            allowed = ("components.widgets",)
        elif floor == "ui":
            allowed = ("components.ui", "components.widgets")
        else:
            continue
        above = {name for name in imports if name != "components" and not name.startswith(allowed)}
        assert not above, f"{module} imports {sorted(above)}"


def test_the_shell_imports_no_page():
    for module, imports in _modules().items():
        if module.startswith("components.shell"):
            pages = {name for name in imports if name != "components" and not name.startswith(
                ("components.shell", "components.ui", "components.widgets"))}
            assert not pages, f"{module} imports {sorted(pages)}"
