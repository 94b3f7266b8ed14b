#!/usr/bin/env bash
# The whole suite: every test on SQLite and every test on PostgreSQL (a throwaway cluster on loopback, made
# from Debian's packages). `make test` runs `make lint` (ruff, mypy) before it.
#
# The two passes run side by side: they share nothing (each pytest process has its own data directory, the
# PostgreSQL pass its own cluster, every server a free port), and much of a browser test is waiting, so on
# a 2-core machine the pair takes little more than the slower pass alone. The SQLite pass prints as it
# goes; the PostgreSQL pass's output follows when it ends.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python

PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
PG_DIR=$(mktemp -d /tmp/dsp-pg.XXXXXX)
PG_PORT=${PG_PORT:-55432}
PG_LOG="$PG_DIR/pytest.log"
RUN_AS=()
if [ "$(id -u)" = 0 ]; then chown postgres "$PG_DIR"; RUN_AS=(runuser -u postgres --); fi
"${RUN_AS[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -U dsp --auth=trust -E UTF8 >/dev/null
"${RUN_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR -c fsync=off -c full_page_writes=off" start >/dev/null
PG_PID=
cleanup() {
  [ -n "$PG_PID" ] && kill "$PG_PID" 2>/dev/null
  "${RUN_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
}
trap cleanup EXIT
"$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U dsp dsp_test

SECONDS=0
DATABASE_URL="postgresql://dsp@127.0.0.1:$PG_PORT/dsp_test" $PY -m pytest tests >"$PG_LOG" 2>&1 &
PG_PID=$!

echo "== SQLite (PostgreSQL runs beside it; its output follows) =="
sqlite_status=0
$PY -m pytest tests || sqlite_status=$?
echo "== SQLite pass ended after ${SECONDS}s (exit $sqlite_status) =="

pg_status=0
wait "$PG_PID" || pg_status=$?
PG_PID=
echo "== PostgreSQL =="
cat "$PG_LOG"
echo "== PostgreSQL pass ended after ${SECONDS}s (exit $pg_status) =="
[ "$sqlite_status" = 0 ] && [ "$pg_status" = 0 ]
