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

A render acknowledges only the events it has seen. ReactPy writes on each input the highest event number the server
has received for it (`_reactpy_ack_seq`), read from the live table while the render walks the page; but the walk
gives the event loop a turn at each component it meets (the hook's render lock), and an event handled in that turn
(its number recorded, its handler run) is then "acknowledged" by a render whose state was read before it. The
client trusts the number: a radio's hold ended on such a render and the group showed the old choice until the next
render (one frame unticked in tests/e2e/test_page_events.py under load; tests/test_reactpy_fixes.py has the
ordering). Each layout update now acknowledges what the server had recorded when the update began: a handler runs
in the same turn its number is recorded, so every render started later has read its state. Upstream has no issue
for this yet.

An event goes only to a target the layout holds. ReactPy's `Layout.deliver` made a queue and a task that lives as
long as the tab for every target an event named, before looking the handler up: a client sending events with made-
up targets (signed in or not) grew the server by a queue and a task each, about 6.6 KB an event, for as long as it
stayed connected (33 MB after 5,000 such events: tests/test_socket_budget.py). Now a target that has a handler
(the layout rendered it) or a queue is served as upstream serves it; an event for any other waits, in arrival
order with any others for the same target, for upstream's grace (its handler looked up three times, 10 ms apart:
an element replaced at the same place is removed and added again) and is then handed on, or dropped with nothing
kept. How many events a page may send at all is bounded at the websocket (app/web/socket_budget.py).
"""

from __future__ import annotations

import asyncio
import logging
from contextvars import ContextVar
from typing import Any

from reactpy.core._life_cycle_hook import LifeCycleHook
from reactpy.core.layout import Layout

_did_render = LifeCycleHook.affect_layout_did_render


async def _did_render_keeping_no_idle_stop(self: LifeCycleHook) -> None:
    if self._effect_funcs:  # noqa: SLF001 - the list this fix is about
        await _did_render(self)


LifeCycleHook.affect_layout_did_render = _did_render_keeping_no_idle_stop  # type: ignore[method-assign]


# The acknowledgements the layout update being rendered began with (each render task runs in its own context).
_ACKS_AT_START: ContextVar[dict[str, int] | None] = ContextVar("acknowledgements at the update's start", default=None)
_create_layout_update = Layout._create_layout_update
_inject_event_ack_seq = Layout._inject_event_ack_seq


async def _update_acknowledging_what_it_began_with(self: Layout, old_state: Any) -> Any:
    token = _ACKS_AT_START.set(dict(self._last_event_seq_by_target))  # noqa: SLF001 - the table this fix is about
    try:
        return await _create_layout_update(self, old_state)
    finally:
        _ACKS_AT_START.reset(token)


def _inject_acknowledgement_from_the_start(self: Layout, new_state: Any, tag_name: str | None) -> None:
    # Upstream's own injection, reading the table as it was when the update began: swapped in and back without
    # an await in between, so no event is recorded meanwhile (and none lost: the live table is put back as is).
    at_start = _ACKS_AT_START.get()
    if at_start is None:
        _inject_event_ack_seq(self, new_state, tag_name)
        return
    live = self._last_event_seq_by_target  # noqa: SLF001
    self._last_event_seq_by_target = at_start  # noqa: SLF001
    try:
        _inject_event_ack_seq(self, new_state, tag_name)
    finally:
        self._last_event_seq_by_target = live  # noqa: SLF001


Layout._create_layout_update = _update_acknowledging_what_it_began_with  # type: ignore[method-assign]
Layout._inject_event_ack_seq = _inject_acknowledgement_from_the_start  # type: ignore[method-assign]


_deliver = Layout.deliver
_log = logging.getLogger("dsp.web")
# Upstream's grace for a handler that a render removes and adds again (an element replaced at the same place): its
# queue's task looks the handler up three times, 10 ms apart, before ignoring the event.
_HANDLER_GRACE_S = (0.01, 0.01, 0.01)


def _waiting(layout: Layout) -> dict[str, list[Any]]:
    """Per target the layout does not hold: the events waiting for it, in arrival order (kept on the layout only
    while they wait)."""
    waiting: dict[str, list[Any]] | None = getattr(layout, "_dsp_waiting_events", None)
    if waiting is None:
        waiting = {}
        layout._dsp_waiting_events = waiting  # type: ignore[attr-defined]
    return waiting


async def _deliver_to_rendered_targets(self: Layout, event: Any) -> None:
    target = event.get("target") if isinstance(event, dict) else None
    if not isinstance(target, str):
        return
    waiting = _waiting(self)
    # The two tables this fix is about: the handlers of what the layout rendered, and the queues made so far.
    if target not in waiting and (target in self._event_queues or target in self._event_handlers):  # noqa: SLF001
        await _deliver(self, event)
        return
    if target in waiting:  # behind the events already waiting for it, so they keep their order
        waiting[target].append(event)
        return
    waiting[target] = events = [event]
    try:
        for pause in _HANDLER_GRACE_S:
            await asyncio.sleep(pause)
            if target in self._event_handlers:  # noqa: SLF001
                while events:  # those arriving while these are handed on join the end
                    await _deliver(self, events.pop(0))
                return
        _log.debug("dropped %d page events for target %.80r, which this page does not hold", len(events), target)
    finally:
        del waiting[target]
        if not waiting:  # a dict keeps the room it once needed: a burst's table goes with the burst
            del self._dsp_waiting_events  # type: ignore[attr-defined]


Layout.deliver = _deliver_to_rendered_targets  # type: ignore[method-assign]
