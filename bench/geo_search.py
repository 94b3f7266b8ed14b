"""City search for the targeting picker: the prefix index against a plain scan of every city name (the
baseline), over typical queries. Prints the one-time index build and each query's median time.

    .venv/bin/python bench/geo_search.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.access.roles import Role  # noqa: E402
from app.kernel.i18n.collation import fold  # noqa: E402
from app.reference import geo  # noqa: E402

QUERIES = ("s", "san", "ber", "münch", "new y", "paris", "rio de j", "zz")
ROUNDS = 25
ACTOR = SimpleNamespace(role=Role.ADVERTISER)  # the picker's reader; search checks only the role


def median_ms(run: object) -> float:
    timings = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        run()  # type: ignore[operator]
        timings.append((time.perf_counter() - started) * 1000)
    return statistics.median(timings)


def scan(query: str, cities: list[geo.City]) -> list[geo.City]:
    prefix = fold(query)
    return sorted((c for c in cities if fold(c.name).startswith(prefix)), key=lambda c: -c.population)[:20]


def main() -> None:
    started = time.perf_counter()
    index = geo._index()  # noqa: SLF001 - built once per process, on first use
    print(f"index: {len(index.cities):,} cities, {len(index.keys):,} names, built in "
          f"{(time.perf_counter() - started) * 1000:,.0f} ms (once per process)")
    cities = list(index.cities.values())
    print(f"{'query':<10} {'index':>9} {'scan':>10} {'ratio':>7}")
    for query in QUERIES:
        fast = median_ms(lambda q=query: geo.search_cities(actor=ACTOR, query=q))  # type: ignore[arg-type]
        slow = median_ms(lambda q=query: scan(q, cities))
        print(f"{query!r:<10} {fast:7.2f} ms {slow:8.1f} ms {slow / fast:6.0f}x")
    print("goal: every search under 50 ms")


if __name__ == "__main__":
    main()
