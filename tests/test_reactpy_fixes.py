"""The fixes to the pinned ReactPy (components/reactpy_fixes.py), each shown on a real layout."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable
from typing import Any

from reactpy import component, html, use_effect, use_state

from tests.render import _layout, logged_out_console, run_async, walk

CLICKS = 300


def _events_alive() -> int:
    gc.collect()
    return sum(isinstance(o, asyncio.Event) for o in gc.get_objects())


def test_a_tab_that_renders_again_and_again_keeps_no_memory_per_render() -> None:
    started: list[int] = []

    @component
    def Counter() -> object:
        count, set_count = use_state(0)
        use_effect(lambda: started.append(1), dependencies=[count // 100])  # an effect now and then still runs
        return html.button({"onClick": lambda _e: set_count(lambda c: c + 1), "data-count": count}, "+1")

    async def click_many() -> tuple[int, int, int]:
        async with _layout(Counter, logged_out_console(), "/") as layout:
            model = (await layout.render())["model"]
            button = next(n for n in walk(model) if "onClick" in n.get("eventHandlers", {}))
            target = button["eventHandlers"]["onClick"]["target"]
            before = _events_alive()
            for _ in range(CLICKS):
                await layout.deliver({"type": "layout-event", "target": target, "data": [{}]})
                update = await asyncio.wait_for(layout.render(), timeout=10)
            after = _events_alive()
            shown = next(n for n in walk(update["model"]) if "data-count" in n.get("attributes", {}))
            return before, after, shown["attributes"]["data-count"]

    before, after, count = run_async(click_many())
    assert count == CLICKS
    assert len(started) == 4  # the effect ran at 0, 100, 200 and 300
    assert after - before < 10, f"{after - before} asyncio.Events kept after {CLICKS} renders"


def _radio(model: Any, radio_id: str) -> dict[str, Any]:
    return next(n for n in walk(model) if n.get("attributes", {}).get("id") == radio_id)


def test_a_render_computed_before_a_choice_never_passes_for_one_that_has_seen_it() -> None:
    """The client keeps a radio the user chose until a render acknowledges the choice (static/shell/lean-events.js),
    so an acknowledging render must show it. The click here reaches the server while a render of the form (for the
    name typed just before) is half done: the form read the old kind, and the components drawn before the radios let
    the click's handler run before the radios are written."""
    mid_render: list[Callable[[], object]] = []

    @component
    def Drawn() -> object:  # a component before the radios: ReactPy gives the event loop a turn at each
        while mid_render:
            mid_render.pop()()
        return html.span()

    @component
    def KindForm() -> object:
        kind, set_kind = use_state("retargeting")
        name, set_name = use_state("")
        return html.form(
            html.input({"id": "name", "value": name, "onChange": lambda e: set_name(e["target"]["value"])}),
            Drawn(), Drawn(), Drawn(),
            *(html.input({"type": "radio", "name": "kind", "id": k, "value": k, "checked": kind == k,
                          "onChange": lambda _e, k=k: set_kind(k)}) for k in ("device_ids", "retargeting")))

    async def type_then_choose() -> list[dict[str, Any]]:
        async with _layout(KindForm, logged_out_console(), "/") as layout:
            first = (await layout.render())["model"]
            name_target = _radio(first, "name")["eventHandlers"]["onChange"]["target"]
            choice_target = _radio(first, "device_ids")["eventHandlers"]["onChange"]["target"]
            click = {"type": "layout-event", "target": choice_target, "data": [{}], "seq": 1}
            mid_render.append(lambda: asyncio.get_running_loop().create_task(layout.deliver(click)))
            await layout.deliver({"type": "layout-event", "target": name_target,
                                  "data": [{"target": {"value": "S"}}], "seq": 1})
            updates = [(await asyncio.wait_for(layout.render(), timeout=10))["model"]]
            while not _radio(updates[-1], "device_ids")["attributes"]["checked"]:
                updates.append((await asyncio.wait_for(layout.render(), timeout=10))["model"])
            return [_radio(update, "device_ids")["attributes"] for update in updates]

    renders = run_async(type_then_choose())
    assert not mid_render, "the click was not delivered during the form's render"
    assert renders[-1]["_reactpy_ack_seq"] == 1  # the render that shows the choice acknowledges it
    stale = [r for r in renders if r.get("_reactpy_ack_seq", 0) >= 1 and not r["checked"]]
    assert not stale, f"{len(stale)} render(s) acknowledged the choice and still showed it unchosen"
