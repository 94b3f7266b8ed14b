"""A real HTTP server on 127.0.0.1 (a free port) in a background thread, for the fakes of outside services."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@contextmanager
def loopback_server(handler: type[BaseHTTPRequestHandler],
                    on_stop: Callable[[], None] | None = None) -> Iterator[str]:
    """Serves `handler` until the block ends; yields the base URL ("http://127.0.0.1:<port>"). `on_stop` runs
    first at the end (to release requests that are still waiting)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        if on_stop is not None:
            on_stop()
        server.shutdown()
        server.server_close()
