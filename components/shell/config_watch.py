"""Open tabs follow configuration changes made anywhere (spec section 4: storage changes sync auth and
config). When an admin switches a user's api_access, postbacks or Insight360, or the brand changes, that
user's open tabs update their menus and settings within CONFIG_POLL_S, without a reload.

One poll per process and event loop serves every tab on it: a single read of all their stamps
(`app.accounts.console.config_stamps`) each interval, however many tabs are open. The database is the
source of truth, so a change made by another process is seen the same way.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable
from dataclasses import dataclass

from app.accounts.console import Stamp, config_stamps
from app.kernel.db import run_off_loop

CONFIG_POLL_S = 3.0
logger = logging.getLogger(__name__)


@dataclass(eq=False)  # each tab is itself: compared and hashed by identity
class _Tab:
    user_id: int | None
    host: str
    stamp: Stamp
    on_change: Callable[[], object]


class ConfigWatch:
    """The tabs of one event loop, and the task polling for them while there are any."""

    def __init__(self) -> None:
        self.tabs: set[_Tab] = set()
        self.task: asyncio.Task[None] | None = None

    def follow(self, user_id: int | None, host: str, stamp: Stamp, on_change: Callable[[], object]) -> Callable[[], None]:
        tab = _Tab(user_id, host, stamp, on_change)
        self.tabs.add(tab)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._poll())
        return lambda: self.tabs.discard(tab)

    async def _poll(self) -> None:
        while self.tabs:
            await asyncio.sleep(CONFIG_POLL_S)
            tabs = list(self.tabs)
            try:
                stamps = await run_off_loop(config_stamps, tabs={(t.user_id, t.host) for t in tabs})
            except Exception:  # noqa: BLE001 - a failed poll (the database away) is retried next tick
                logger.exception("polling the tabs' configuration failed")
                continue
            for tab in tabs:
                fresh = stamps.get((tab.user_id, tab.host))
                if fresh is not None and fresh != tab.stamp and tab in self.tabs:
                    tab.stamp = fresh
                    tab.on_change()


_watches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, ConfigWatch] = weakref.WeakKeyDictionary()


def follow_configuration(user_id: int | None, host: str, stamp: Stamp,
                         on_change: Callable[[], object]) -> Callable[[], None]:
    """Call `on_change` whenever this tab's configuration stamp changes; returns the function that stops."""
    loop = asyncio.get_running_loop()
    watch = _watches.get(loop)
    if watch is None:
        watch = _watches[loop] = ConfigWatch()
    return watch.follow(user_id, host, stamp, on_change)
