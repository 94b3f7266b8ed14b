"""Extension points: a lower domain declares a Hook, the domains above it register handlers when their package
loads, so the lower one never imports them (reference values count the campaigns that use them, campaign
activation asks funds for the balance, lists find the campaigns that target them).

A hook names the handlers it cannot do without (`needed`): reading it before they are registered raises, so a
forgotten registration is a loud error in the first test that reads it, never a check quietly skipped (a value
in use deleted, a campaign activated with no money). Handlers are kept by name: registering a name again
replaces its handler (a module imported twice, a test's stand-in)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, TypeVar

H = TypeVar("H")


class Hook(Generic[H]):
    def __init__(self, name: str, *, needed: Sequence[str] = ()) -> None:
        self.name, self.needed = name, tuple(needed)
        self._handlers: dict[str, H] = {}

    def register(self, name: str, handler: H) -> None:
        self._handlers[name] = handler

    def handlers(self) -> list[H]:
        """Every registered handler, in the order of registration; RuntimeError when a needed one is missing."""
        missing = [name for name in self.needed if name not in self._handlers]
        if missing:
            raise RuntimeError(f"{self.name}: no handler registered for {missing} (is that domain's package loaded?)")
        return list(self._handlers.values())
