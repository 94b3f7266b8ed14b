#!/usr/bin/env bash
# The whole suite: every test on SQLite, then every test on PostgreSQL (a throwaway cluster on loopback,
# made from Debian's packages). `make test` runs `make lint` (ruff, mypy) before it.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python

echo "== SQLite =="
$PY -m pytest tests

echo "== PostgreSQL =="
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
PG_DIR=$(mktemp -d /tmp/dsp-pg.XXXXXX)
PG_PORT=${PG_PORT:-55432}
RUN_AS=()
if [ "$(id -u)" = 0 ]; then chown postgres "$PG_DIR"; RUN_AS=(runuser -u postgres --); fi
"${RUN_AS[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -U dsp --auth=trust -E UTF8 >/dev/null
"${RUN_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR -c fsync=off -c full_page_writes=off" start >/dev/null
trap '"${RUN_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$PG_DIR"' EXIT
"$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U dsp dsp_test
DATABASE_URL="postgresql://dsp@127.0.0.1:$PG_PORT/dsp_test" $PY -m pytest tests
