"""The fixes to the pinned ReactPy (components/reactpy_fixes.py), each shown on a real layout."""

from __future__ import annotations

import asyncio
import gc

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
