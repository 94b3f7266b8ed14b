"""use_query and use_action: service calls run off the event loop, failures always reach the user, and an
answer overtaken by a newer request never shows."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from typing import Any

from reactpy import component, html, use_state

from app.kernel.errors import Forbidden, Invalid
from components.ui.hooks import use_action, use_debounced_query, use_query
from tests.render import (
    _layout,
    apply_update,
    handler_target,
    logged_out_console,
    run_async,
    settle,
    text_of,
)


def _recording_console() -> tuple[Any, list[tuple[str, str]]]:
    toasts: list[tuple[str, str]] = []
    return replace(logged_out_console(), toast=lambda kind, text: toasts.append((kind, text))), toasts


def _slow_read(_db: Any, *, seconds: float) -> str:
    time.sleep(seconds)  # a password hash, a lock wait: blocking work
    return "done"


def test_a_slow_read_does_not_stall_the_event_loop() -> None:
    @component
    def Slow() -> Any:
        query = use_query(_slow_read, seconds=0.6)
        return html.p("loading" if query.loading else query.value)

    async def scenario() -> tuple[int, str]:
        ticks = 0

        async def ticker() -> None:  # stands for every other tab's clicks
            nonlocal ticks
            while True:
                await asyncio.sleep(0.02)
                ticks += 1

        async with _layout(Slow, logged_out_console(), "/") as layout:
            first = (await layout.render())["model"]
            assert text_of(first) == "loading"
            clock = asyncio.create_task(ticker())
            model = await settle(layout, first)
            clock.cancel()
        return ticks, text_of(model)

    ticks, text = run_async(scenario())
    assert text == "done"
    # 0.6 s of blocking work on the loop would leave the ticker at 0 or 1; off the loop it ticks throughout.
    assert ticks >= 10, f"the loop was blocked during the read ({ticks} ticks)"


def _broken_read(_db: Any) -> None:
    raise RuntimeError("database went away")


def _forbidden_write(_db: Any, **_kwargs: Any) -> None:
    raise Forbidden("You cannot do that.")


def _crashing_write(_db: Any, **_kwargs: Any) -> None:
    raise ZeroDivisionError


def _invalid_write(_db: Any, **_kwargs: Any) -> None:
    raise Invalid({"name": "Invalid input. Please use only letters, numbers, spaces, and hyphens."})


def test_a_failed_load_shows_an_error_toast() -> None:
    console, toasts = _recording_console()

    @component
    def Broken() -> Any:
        query = use_query(_broken_read)
        return html.p("failed" if query.failed else "loading" if query.loading else "shown")

    async def scenario() -> str:
        async with _layout(Broken, console, "/") as layout:
            return text_of(await settle(layout, (await layout.render())["model"]))

    assert run_async(scenario()) == "failed"
    assert toasts == [("error", console.t("common.unexpected_error"))]


def test_failed_actions_show_why_and_field_errors_land_beside_the_field() -> None:
    console, toasts = _recording_console()
    seen: dict[str, Any] = {}

    @component
    def Buttons() -> Any:
        forbidden, crashing, invalid = use_action(_forbidden_write), use_action(_crashing_write), \
            use_action(_invalid_write)
        seen["errors"] = invalid.errors
        return html.div(html.button({"onClick": lambda _e: forbidden.submit(x=1)}, "a"),
                        html.button({"onDoubleClick": lambda _e: crashing.submit(x=1)}, "b"),
                        html.button({"onAuxClick": lambda _e: invalid.submit(x=1)}, "c"))

    async def scenario() -> None:
        async with _layout(Buttons, console, "/") as layout:
            model = await settle(layout, (await layout.render())["model"])
            for name in ("onClick", "onDoubleClick", "onAuxClick"):
                await layout.deliver({"type": "layout-event", "target": handler_target(model, name), "data": [{}]})
            await asyncio.sleep(0.05)
            await settle(layout, model)

    run_async(scenario())
    assert sorted(toasts) == sorted([("error", "You cannot do that."), ("error", console.t("common.unexpected_error"))])
    assert seen["errors"] == {"name": "Invalid input. Please use only letters, numbers, spaces, and hyphens."}


def _echo_after(_db: Any, *, value: str, seconds: float) -> str:
    time.sleep(seconds)
    return value


def test_an_answer_overtaken_by_a_newer_request_never_shows() -> None:
    @component
    def Search() -> Any:
        term, set_term = use_state("slow")
        query = use_query(_echo_after, value=term, seconds=0.5 if term == "slow" else 0.0, deps=[term])
        return html.div(html.button({"onClick": lambda _e: set_term("fast")}, "go"),
                        html.p({"id": "answer"}, str(query.value)))

    async def scenario() -> str:
        async with _layout(Search, logged_out_console(), "/") as layout:
            model = (await layout.render())["model"]
            await layout.deliver({"type": "layout-event", "target": handler_target(model, "onClick"), "data": [{}]})
            model = await settle(layout, model)
            await asyncio.sleep(0.6)  # the slow, older answer arrives now; it must be dropped
            return text_of(await settle(layout, model))

    assert run_async(scenario()).endswith("fast")


def test_a_debounced_query_reads_once_after_a_burst_of_changes_and_drops_older_answers() -> None:
    """The campaign form's forecast: keystrokes in quick succession start one read, of the last values; a read of
    older values that finishes after a newer one's is never shown."""
    calls: list[str] = []

    def read(_db: Any, *, value: str) -> str:
        calls.append(value)
        time.sleep(0.5 if value == "slow" else 0.0)
        return value

    @component
    def Typing() -> Any:
        typed, set_typed = use_state("")
        query = use_debounced_query(read, key=typed, delay_s=2.0, value=typed)
        return html.div(html.button({"onClick": lambda _e: set_typed(lambda t: t + "x")}, "type"),
                        html.p({"id": "answer"}, "loading" if query.loading else str(query.value)))

    @component
    def Overtaken() -> Any:
        term, set_term = use_state("slow")
        query = use_debounced_query(read, key=term, delay_s=0.0, value=term)
        return html.div(html.button({"onClick": lambda _e: set_term("fast")}, "go"),
                        html.p({"id": "answer"}, str(query.value)))

    async def typing() -> str:
        async with _layout(Typing, logged_out_console(), "/") as layout:
            model = (await layout.render())["model"]
            for _ in range(3):  # well inside the 2 s pause: each keystroke restarts it
                await layout.deliver({"type": "layout-event", "target": handler_target(model, "onClick"), "data": [{}]})
                model = apply_update(model, await layout.render())
            return text_of(await settle(layout, model))

    assert run_async(typing()).endswith("xxx") and calls == ["xxx"]

    async def overtaken() -> str:
        async with _layout(Overtaken, logged_out_console(), "/") as layout:
            model = (await layout.render())["model"]
            while "slow" not in calls:  # the slow read has started
                await asyncio.sleep(0.01)
            await layout.deliver({"type": "layout-event", "target": handler_target(model, "onClick"), "data": [{}]})
            model = await settle(layout, model)
            return text_of(await settle(layout, model))

    assert run_async(overtaken()).endswith("fast")
