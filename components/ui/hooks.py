"""The UI's door to the service layer: use_query for reads, use_action for writes.

Both call a service in its own unit of work on a worker thread (`app.kernel.db.run_off_loop`), never on the
server's event loop: a password hash, a database write or SQLite's busy wait in one tab must not stall
every other tab's clicks. Both turn service errors into what a user sees (field messages, an error
toast, a logout on 401), and an unexpected failure into an error toast instead of nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

from reactpy import Ref, use_effect, use_memo, use_ref, use_state

from app.kernel.db import run_off_loop
from app.kernel.errors import Invalid, NotAuthenticated, ServiceError
from app.kernel.faults import infrastructure_error
from components.ui.console import Console, use_console

logger = logging.getLogger(__name__)
UNEXPECTED_ERROR = "common.unexpected_error"

# Work started by hooks and not finished yet. Headless tests wait on it to see a page settled
# (tests/render.py); the server itself never needs to.
_in_flight: set[asyncio.Task[Any]] = set()


def in_flight() -> set[asyncio.Task[Any]]:
    return set(_in_flight)


def background(work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
    """Run `work` as a task of this tab's loop, tracked until it ends."""
    task = asyncio.get_running_loop().create_task(work)
    _in_flight.add(task)
    task.add_done_callback(_in_flight.discard)
    return task


def _report(console: Console, error: BaseException) -> None:
    """What a user sees of a failure that is not a field error. A database gone away or a full disk is said as
    such (app/kernel/faults.py), not as an unexpected error."""
    error = infrastructure_error(error) or error
    if isinstance(error, NotAuthenticated):
        console.logout()
    elif isinstance(error, ServiceError):
        console.toast("error", console.t(error.message))
    else:
        logger.exception("a page's service call failed", exc_info=error)
        console.toast("error", console.t(UNEXPECTED_ERROR))


@dataclass(frozen=True)
class Query:
    value: Any  # None until the first load for the current dependencies ends, or when it failed
    reload: Callable[[], None]
    loading: bool  # no answer yet for the current dependencies (a reload keeps showing the old one)
    failed: bool


@dataclass(frozen=True)
class _Answer:
    request: int
    value: Any = None
    failed: bool = False


async def _load(console: Console, fn: Callable[..., Any], kwargs: dict[str, Any], request: int, requests: Ref[int],
                set_answer: Callable[[_Answer], None], delay_s: float = 0.0) -> None:
    """One read of a query hook, off the event loop; its answer (or failure) is kept only while `request` is the
    newest (`requests`): an answer a newer request overtook is dropped. `delay_s` first: a debounce, during which a
    newer request cancels the read before it starts."""
    if delay_s:
        await asyncio.sleep(delay_s)
    try:
        value = await run_off_loop(fn, **kwargs)
    except Exception as error:  # noqa: BLE001 - every failure must reach the user, see _report
        if request == requests.current:
            _report(console, error)
            set_answer(_Answer(request, None, failed=True))
        return
    if request == requests.current:
        set_answer(_Answer(request, value))


def use_query(fn: Callable[..., Any], /, *, deps: Sequence[Any] = (), **kwargs: Any) -> Query:
    """Read through a service, off the event loop. The load starts when the component first renders and
    again when `deps` change or `reload()` is called; an answer that a newer request overtook is dropped."""
    console = use_console()
    version, set_version = use_state(0)
    answer, set_answer = use_state(_Answer(request=0))
    requests = use_ref(0)
    newest_deps_request = use_ref(0)  # the request made when `deps` last changed (reloads don't count)
    last_deps: Ref[list[Any] | None] = use_ref(None)
    task: Ref[asyncio.Task[Any] | None] = use_ref(None)

    def start() -> None:
        # Started during render, not in an effect, so the load begins before the first update is
        # even sent, and headless tests can see it in flight as soon as render returns.
        requests.current += 1
        if last_deps.current != list(deps):
            last_deps.current = list(deps)
            newest_deps_request.current = requests.current
        if task.current is not None:
            task.current.cancel()
        task.current = background(_load(console, fn, kwargs, requests.current, requests, set_answer))

    use_memo(start, dependencies=[version, *deps])
    use_effect(lambda: _cancel_on_unmount(task), dependencies=[])
    return Query(value=answer.value, reload=lambda: set_version(lambda v: v + 1),
                 loading=answer.request < newest_deps_request.current, failed=answer.failed)


def use_debounced_query(fn: Callable[..., Any], /, *, key: str, delay_s: float = 0.3, **kwargs: Any) -> Query:
    """use_query for values that change as the user types (a form's live preview): the read starts `delay_s`
    after `key` (a text made of every value it reads) last changed, so a burst of keystrokes reads once; it runs
    off the event loop; an answer for a key that a newer one overtook is dropped, never shown over a later one.
    `loading` is true from a change until its answer; `value` keeps the last answer meanwhile."""
    console = use_console()
    answer, set_answer = use_state(_Answer(request=0))
    requests = use_ref(0)
    task: Ref[asyncio.Task[Any] | None] = use_ref(None)

    def start() -> None:
        requests.current += 1
        if task.current is not None:
            task.current.cancel()  # a read still waiting out the pause never starts
        task.current = background(_load(console, fn, dict(kwargs), requests.current, requests, set_answer, delay_s))

    use_memo(start, dependencies=[key])
    use_effect(lambda: _cancel_on_unmount(task), dependencies=[])
    return Query(value=answer.value, reload=start, loading=answer.request < requests.current, failed=answer.failed)


def _cancel_on_unmount(task: Any) -> Callable[[], None]:
    def cancel() -> None:
        if task.current is not None:
            task.current.cancel()
    return cancel


class ActionState:
    def __init__(self, errors: dict[str, str], message: str, pending: bool, submit: Callable[..., None]) -> None:
        self.errors = errors  # field name -> translated message
        self.message = message  # a translated non-field error, when the action shows them in place
        self.pending = pending
        self.submit = submit


def use_action(fn: Callable[..., Any], /, *, success: str | Callable[[Any], str] | None = None,
               on_done: Callable[[Any], Any] | None = None,
               on_refused: Callable[[dict[str, str]], Any] | None = None,
               errors_in_place: bool = False,
               in_place: tuple[type[ServiceError], ...] = ()) -> ActionState:
    """Write through a service, off the event loop. `submit(**kwargs)` starts the call and returns at
    once; when it succeeded, a success toast says `success` (a catalog key, or a function of the result giving the
    text: "Summer Sale is now paused") and `on_done(result)` runs. Field errors land in `.errors`; other failures become
    an error toast, or `.message` with `errors_in_place` (the signed-out pages show them above the form;
    there a 401 means "wrong password", not "your session ended"); `in_place` does that for these errors only (a
    form shows a 409 "changed by someone else" beside what was typed). A page with no form to show field errors in
    (a list's row switch) passes `on_refused`, which gets them translated instead.
    A second submit with the same arguments while the first is running is ignored (a double click)."""
    console = use_console()
    errors, set_errors = use_state(dict[str, str]())
    message, set_message = use_state("")
    pending, set_pending = use_state(False)
    running = use_ref(list[dict[str, Any]]())  # the kwargs of the calls in flight

    async def call(kwargs: dict[str, Any]) -> None:
        try:
            result = await run_off_loop(fn, **kwargs)
        except Invalid as error:
            refused = {k: console.t(m) for k, m in error.fields.items()}
            if on_refused:
                on_refused(refused)
            else:
                set_errors(refused)
            set_message("")
            return
        except Exception as error:  # noqa: BLE001 - every failure must reach the user, see _report
            set_errors({})
            if isinstance(error, ServiceError) and (errors_in_place or isinstance(error, in_place)):
                set_message(console.t(error.message))
            else:
                _report(console, error)
            return
        finally:
            running.current.remove(kwargs)
            if not running.current:
                set_pending(False)
        set_errors({})
        set_message("")
        if success:
            console.toast("success", success(result) if callable(success) else console.t(success))
        if on_done:
            on_done(result)

    def submit(**kwargs: Any) -> None:
        if kwargs in running.current:
            return
        running.current.append(kwargs)
        set_pending(True)
        background(call(kwargs))

    return ActionState(errors, message, pending, submit)



def use_reload_while(query: Query, active: bool, every_s: float) -> None:
    """Reload `query` every `every_s` seconds while `active` (the page waits on a job's outcome, e.g. a queued
    DSP push). The wait itself is not tracked as work in flight: a page showing a queued job has settled."""
    tick, set_tick = use_state(0)

    def poll() -> Callable[[], None] | None:
        if not active:
            return None

        async def later() -> None:
            await asyncio.sleep(every_s)
            query.reload()
            set_tick(lambda n: n + 1)

        timer = asyncio.get_running_loop().create_task(later())

        def stop() -> None:
            timer.cancel()
        return stop

    use_effect(poll, dependencies=[active, tick])
