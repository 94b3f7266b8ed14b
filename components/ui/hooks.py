"""The UI's door to the service layer: use_query for reads, use_action for writes.

Both open one unit of work per call (app.db.run), so a page never holds a database session, and both
turn service errors into what a user sees: field messages, a toast, or a logout on 401.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from reactpy import use_memo, use_state

from app.db import run
from app.errors import Invalid, NotAuthenticated, ServiceError
from components.shell.context import use_console


def use_query(fn: Callable[..., Any], /, *, deps: Sequence[Any] = (), **kwargs: Any) -> tuple[Any, Callable[[], None]]:
    """Read through a service; returns (value, reload). A failing read shows a toast and yields None."""
    console = use_console()
    version, set_version = use_state(0)

    def load() -> Any:
        try:
            return run(fn, **kwargs)
        except NotAuthenticated:
            console.logout()
        except ServiceError as error:
            console.toast("error", error.message)
        return None

    value = use_memo(load, dependencies=[version, *deps])
    return value, lambda: set_version(lambda v: v + 1)


class ActionState:
    def __init__(self, errors: dict[str, str], pending: bool, submit: Callable[..., Any]) -> None:
        self.errors = errors
        self.pending = pending
        self.submit = submit


def use_action(fn: Callable[..., Any], /, *, success: str | None = None,
               on_done: Callable[[Any], Any] | None = None) -> ActionState:
    """Write through a service. Field errors land in `.errors`; other failures become an error toast."""
    console = use_console()
    errors, set_errors = use_state({})
    pending, set_pending = use_state(False)

    def submit(**kwargs: Any) -> Any:
        set_pending(True)
        try:
            result = run(fn, **kwargs)
        except Invalid as error:
            set_errors({k: console.t(m) for k, m in error.fields.items()})
            return None
        except NotAuthenticated:
            console.logout()
            return None
        except ServiceError as error:
            set_errors({})
            console.toast("error", console.t(error.message))
            return None
        finally:
            set_pending(False)
        set_errors({})
        if success:
            console.toast("success", console.t(success))
        if on_done:
            on_done(result)
        return result

    return ActionState(errors, pending, submit)
