"""Fixes to the pinned ReactPy (2.0.0b13) that the console cannot wait for.

Every render of a component used to leave an `asyncio.Event` behind: `LifeCycleHook.affect_layout_did_render`
appends a fresh "stop" event to the hook's list on each render, for the effects that render starts, and the
list is only emptied when the component unmounts. Most renders start no effect, so the event has nothing to
stop; but a tab that stays open keeps every one of them. Under the soak (bench/load_soak.py: 200 tabs
clicking) that was about 145 events and their deques a second, +16 % RSS in 10 minutes. Upstream noticed the
growth in a review (reactive-python/reactpy#1169, closed unmerged). Skipping the event when the render
starts no effect changes nothing else: an event no effect waits on is only ever set, at unmount.

ReactPy's client (its JS) gets two fixes of its own in static/shell/lean-events.js, loaded by the shell
(app/web/html_shell.py, static/shell/boot.js): events carry only what the console's handlers read (ReactPy's
serializer sent ~41 KB per keystroke, 1 MB on the brand settings page), and a checkbox the user ticks (or a radio it
chooses, with its group) keeps its state through renders the server computed before the click reached it.
"""

from __future__ import annotations

from reactpy.core._life_cycle_hook import LifeCycleHook

_did_render = LifeCycleHook.affect_layout_did_render


async def _did_render_keeping_no_idle_stop(self: LifeCycleHook) -> None:
    if self._effect_funcs:  # noqa: SLF001 - the list this fix is about
        await _did_render(self)


LifeCycleHook.affect_layout_did_render = _did_render_keeping_no_idle_stop  # type: ignore[method-assign]
