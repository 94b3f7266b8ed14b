"""A long change log is shown a page at a time (components/ui/change_log.py over change_log.page): the newest
entries first, the next page shows the older ones that follow, and a filter starts again from the newest."""

from __future__ import annotations

import asyncio
from typing import Any

from reactpy.core.hooks import ConnectionContext
from reactpy.core.layout import Layout
from reactpy.types import Connection, Location

from app.access.sessions import SESSION_COOKIE
from app.accounts import users
from app.kernel.db import run
from components.root import Root
from components.ui.change_log import PAGE_SIZE
from tests.helpers import actor_of, browser_session
from tests.render import apply_update, run_async, settle, text_of, walk

ADMIN = "admin@demo.example"


def _rows(model: dict[str, Any]) -> list[str]:
    """The actions of the change-log rows shown, top to bottom."""
    return [node["attributes"]["data-action"] for node in walk(model)
            if node.get("tagName") == "tr" and "data-action" in node.get("attributes", {})]


def _pages(path: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The page at `path` as the admin's browser first shows it, and after a click on its next-page button."""
    cookie = f"{SESSION_COOKIE}={browser_session(ADMIN)[0]}"
    connection = Connection(scope={"type": "websocket", "headers": [(b"cookie", cookie.encode())]},
                            location=Location(path, ""), carrier=None)

    async def exchange() -> tuple[dict[str, Any], dict[str, Any]]:
        async with Layout(ConnectionContext(Root(), value=connection)) as layout:
            first = await settle(layout, (await layout.render())["model"])
            button = next(node for node in walk(first) if node.get("attributes", {}).get("data-action") == "next-page")
            await layout.deliver({"type": "layout-event", "target": button["eventHandlers"]["onClick"]["target"],
                                  "data": [{}]})
            sent = [await asyncio.wait_for(layout.render(), timeout=10)]
            return first, await settle(layout, apply_update(first, sent[0]), sent)

    return run_async(exchange())


def test_page_two_of_a_long_change_log_shows_the_older_entries(demo_ids: dict[str, int]) -> None:
    advertiser = demo_ids["advertiser@demo.example"]

    def edit_many_times(db: Any) -> None:
        admin = actor_of(db, ADMIN)
        for n in range(PAGE_SIZE + 4):
            users.update_user(db, actor=admin, user_id=advertiser, company_name=f"Arlo Shoes {n}")

    run(edit_many_times)
    first, second = _pages(f"/admin/user/change-log/{advertiser}")
    assert len(_rows(first)) == PAGE_SIZE and set(_rows(first)) == {"update"}
    assert "Arlo Shoes 53" in text_of(first) and "Page 1 of 2" in text_of(first)
    assert _rows(second) == ["update"] * 4  # the four oldest edits (the demo account was seeded, not created)
    assert "Page 2 of 2" in text_of(second) and "Arlo Shoes 0" in text_of(second)
    assert "Arlo Shoes 53" not in text_of(second) and "Arlo Shoes 4" not in text_of(second)
