"""Render ReactPy components headless (no browser) inside a console context."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from reactpy import component
from reactpy.core.hooks import ConnectionContext
from reactpy.core.layout import Layout
from reactpy.types import Connection, Location
from reactpy_router import browser_router, route

from app.accounts.console import ConsoleState
from app.settings.company import Branding
from components.pages import ROUTES
from components.ui.console import Console, ConsoleContext, inert_console
from components.ui.hooks import in_flight


def branding(**overrides: Any) -> Branding:
    values: dict[str, Any] = dict(
        id=1, host="", meta_title="DSP Console", name="Acme Ads", logo_url="/static/img/logo.svg",
        favicon_url="/static/img/favicon.svg", agency_id=None, help_and_support=False, help_and_support_link="",
        primary_color="#4f46e5", hover_color="#4338ca", text_agency_color="#ffffff",
        card_background_color="#ffffff", navbar_color="#1f2937", footer_start_year=2024, footer_text="Acme Ads",
        maintenance_mode=False,
    )
    values.update(overrides)
    return Branding(**values)


def logged_out_console(language: str = "en") -> Console:
    return inert_console(ConsoleState(None, branding(), None, None, (), ()), language, ROUTES)


def signed_in_console(email: str, language: str = "en") -> Console:
    """The console context of a freshly logged-in browser session for a demo user."""
    from app.accounts.console import console_state
    from app.kernel.db import run
    from tests.helpers import browser_session

    return inert_console(run(console_state, token=browser_session(email)[0], host=""), language, ROUTES)


def _layout(page: Callable[[], Any], console: Console, path: str) -> Layout:
    """`page()` at `path` inside `console`, under a router as in the app, ready to render ("/page?ids=1,2": the
    query is the location's, for use_search_params)."""
    path, _, query = path.partition("?")

    @component
    def Page() -> Any:
        return page()

    @component
    def Provided() -> Any:
        return ConsoleContext(browser_router(route(path, Page())), value=console)

    connection = Connection(scope={"type": "websocket", "headers": []},
                            location=Location(path, f"?{query}" if query else ""), carrier=None)
    return Layout(ConnectionContext(Provided(), value=connection))


def render_model(page: Callable[[], Any], console: Console | None = None, path: str = "/") -> dict[str, Any]:
    """The VDOM model of `page()` at `path`, inside `console` (logged out, English by default), once its
    reads have come in (see `settle`)."""

    async def settled_render() -> dict[str, Any]:
        async with _layout(page, console or logged_out_console(), path) as layout:
            return await settle(layout, (await layout.render())["model"])

    return run_async(settled_render())


async def settle(layout: Layout, model: dict[str, Any], sent: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """`model` brought up to date once the work hooks started (reads, actions) has ended and every render
    it caused has been applied: what a user sees when the page has finished loading. Each update applied is
    added to `sent`, when given."""
    while True:
        pending = in_flight()
        if pending:
            await asyncio.wait(pending, timeout=30)
        if not _render_scheduled(layout):
            if not in_flight():
                return model
            continue
        update = await asyncio.wait_for(layout.render(), timeout=10)
        if sent is not None:
            sent.append(update)
        model = apply_update(model, update)


def _render_scheduled(layout: Layout) -> bool:
    # ReactPy keeps the components it owes a render in a private set (serial rendering, which
    # components/__init__.py chooses); a test helper may look, the app never does.
    return bool(layout._rendering_queue._pending)  # noqa: SLF001


def apply_update(model: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """The whole model after one layout update, which carries only the re-rendered component at `path`
    ("/children/0/children/2" style; "" for the root)."""
    steps = [int(part) for part in update["path"].split("/")[2::2]] if update["path"] else []
    if not steps:
        return update["model"]

    def replaced(node: Any, rest: list[int]) -> dict[str, Any]:
        children = list(node.get("children", [])) if isinstance(node, dict) else []
        assert rest[0] < len(children), f"an update for {update['path']} arrived where the page has no such node"
        children[rest[0]] = update["model"] if len(rest) == 1 else replaced(children[rest[0]], rest[1:])
        return {**node, "children": children}

    return replaced(model, steps)


def render_and_deliver(page: Callable[[], Any], console: Console, path: str,
                       event: Callable[[dict[str, Any]], tuple[str, list[Any]]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(first model, the update that follows one event). `event(model)` picks the handler target and its
    arguments from the first model, as the browser would send them. The update names the re-rendered
    component's `path` and holds only its model: what crossed the websocket."""

    async def exchange() -> tuple[dict[str, Any], dict[str, Any]]:
        async with _layout(page, console, path) as layout:
            first = await settle(layout, (await layout.render())["model"])
            target, data = event(first)
            await layout.deliver({"type": "layout-event", "target": target, "data": data})
            update = await asyncio.wait_for(layout.render(), timeout=10)
        return first, update

    return run_async(exchange())


def deliver_and_settle(page: Callable[[], Any], console: Console, path: str,
                       event: Callable[[dict[str, Any]], tuple[str, list[Any]]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(the model once one event and every read it started have rendered, every update that event caused):
    what crossed the websocket for one click, its query answers included."""

    async def exchange() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        async with _layout(page, console, path) as layout:
            model = await settle(layout, (await layout.render())["model"])
            target, data = event(model)
            await layout.deliver({"type": "layout-event", "target": target, "data": data})
            sent = [await asyncio.wait_for(layout.render(), timeout=10)]
            return await settle(layout, apply_update(model, sent[0]), sent), sent

    return run_async(exchange())


def deliver_in_turn(page: Callable[[], Any], console: Console, path: str,
                    events: Sequence[Callable[[dict[str, Any]], tuple[str, list[Any]]]]) -> list[dict[str, Any]]:
    """The model once each of `events` in turn, and every read it started, has rendered (one model per event):
    what a user sees after each step of a walk through the page. Each event picks its handler target and arguments
    from the model the step before left."""

    async def exchange() -> list[dict[str, Any]]:
        seen = []
        async with _layout(page, console, path) as layout:
            model = await settle(layout, (await layout.render())["model"])
            for event in events:
                target, data = event(model)
                await layout.deliver({"type": "layout-event", "target": target, "data": data})
                model = await settle(layout, apply_update(model, await asyncio.wait_for(layout.render(), timeout=10)))
                seen.append(model)
        return seen

    return run_async(exchange())


def handler_target(model: dict[str, Any], name: str) -> str:
    """The event target of the first element in `model` with an `name` handler (e.g. "onAction")."""
    for node in walk(model):
        handler = node.get("eventHandlers", {}).get(name)
        if handler:
            return str(handler["target"])
    raise AssertionError(f"no element handles {name}")


def run_async(coroutine: Any) -> Any:
    """asyncio.run in a thread of its own: Playwright's sync API keeps a loop running in the main thread."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def walk(node: Any) -> Iterator[dict[str, Any]]:
    """Every element dict in a rendered model, depth first."""
    if isinstance(node, dict):
        yield node
        for child in node.get("children", []):
            yield from walk(child)


def text_of(node: Any) -> str:
    if isinstance(node, str):
        return node
    if isinstance(node, dict):
        return "".join(text_of(child) for child in node.get("children", []))
    return ""


def paged_grid(model: dict[str, Any]) -> dict[str, Any]:
    """The props of the one server-paged data grid in `model` (rows, page, total, ...)."""
    grids = [node["attributes"] for node in walk(model) if "pageSize" in node.get("attributes", {})]
    assert len(grids) == 1
    return grids[0]


def attribute_of(model: dict[str, Any], name: str) -> Any:
    """The value of attribute `name` on the first element of `model` that has it."""
    return next(node["attributes"][name] for node in walk(model) if name in node.get("attributes", {}))


def to_page(number: int) -> Callable[[dict[str, Any]], tuple[str, list[Any]]]:
    """The event of a paged grid's pager asking for page `number`."""
    return lambda model: (handler_target(model, "onPageChange"), [str(number)])


def grid_view(*, query: str = "", sort: str = "") -> Callable[[dict[str, Any]], tuple[str, list[Any]]]:
    """The event of a grid reporting a search typed or a column header clicked ("-key": descending)."""
    return lambda model: (handler_target(model, "onViewChange"),
                          [json.dumps({"columns": [], "query": query, "sort": sort})])


def grid_choice(*ids: int) -> Callable[[dict[str, Any]], tuple[str, list[Any]]]:
    """The event of a grid reporting its chosen rows (a grid with selection_across_pages names them on every page)."""
    return lambda model: (handler_target(model, "onSelectionChange"), [",".join(str(i) for i in ids)])


def element_event(name: str, value: str, handler: str, data: Any) -> Callable[[dict[str, Any]], tuple[str, list[Any]]]:
    """The event `handler` ("onClick", "onChange") of the first element whose attribute `name` is `value`."""
    def event(model: dict[str, Any]) -> tuple[str, list[Any]]:
        node = next(n for n in walk(model) if n.get("attributes", {}).get(name) == value)
        return node["eventHandlers"][handler]["target"], [data]
    return event
