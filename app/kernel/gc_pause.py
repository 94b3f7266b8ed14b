"""Python's cyclic garbage collector paused while a bulk job builds millions of objects.

The collector runs whenever allocations of container objects outnumber releases by a threshold, and each run walks
the young objects, which a bulk job keeps alive: checking a million-line statistics CSV spent most of its time
there (a chunk of 50,000 lines split into columns: 190 ms with the collector, 16 ms without; bench/ingest_batch.py).
None of those objects form cycles, so nothing is lost by not looking for them meanwhile.

The collector is one per process: the pause is counted across threads, and the collector comes back when the last
job leaves (if it was on when the first came), followed by one young-generation collection for whatever cycles
other threads made meanwhile. Hand-written: the standard library has gc.disable/gc.enable and no counted pause.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_holders = 0
_was_enabled = False


@contextmanager
def gc_paused() -> Iterator[None]:
    global _holders, _was_enabled
    with _lock:
        if _holders == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            resume = _holders == 0 and _was_enabled
            if resume:
                gc.enable()
        if resume:
            gc.collect(0)
