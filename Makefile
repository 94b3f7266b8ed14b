# Two commands do all set-up: `make run` and `make test` (see README.md).
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
export PORT

.PHONY: run test install install-test system-test-deps migrate seed lint js clean-data

$(VENV)/.installed: pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "Python 3.11 is required"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

# The Python client (clients/python) too: its tests run against a live server in the suite.
$(VENV)/.installed-test: $(VENV)/.installed clients/python/pyproject.toml
	$(PY) -m pip install --quiet -e '.[test]' -e clients/python
	touch $@

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test system-test-deps

# Debian's chromium (browser tests), postgresql (the suite runs on it too) and nginx (the proxy sample runs in front
# of a server: tests/e2e/test_behind_nginx.py); never `playwright install`. The tests start nginx themselves, so a
# freshly installed package's own service is stopped and disabled (it would hold port 80 on a machine with systemd).
system-test-deps:
	@if ! command -v chromium >/dev/null || ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ! test -x /usr/sbin/nginx; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  HAD_NGINX=$$(test -x /usr/sbin/nginx && echo yes); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium postgresql nginx fonts-dejavu-core >/dev/null; \
	  if [ -z "$$HAD_NGINX" ] && command -v systemctl >/dev/null; then $$SUDO systemctl disable --now nginx >/dev/null 2>&1 || true; fi; \
	fi

migrate: install
	$(PY) -m app migrate

# Statistics for the demo's last 30 days; skipped once the store has any (a second make run adds nothing).
seed: migrate
	$(PY) -m app seed-demo
	$(PY) -m app simulate --days 30 --if-empty

run: seed
	$(PY) -m app serve

# Lint first: a type error fails in seconds, before the suite's minutes.
test: lint
	bash tests/run_all.sh

# mypy checks what [tool.mypy] in pyproject.toml names: app strictly, components in standard mode.
lint: install-test
	$(VENV)/bin/ruff check app components tests bench clients
	$(VENV)/bin/mypy

# Deletes everything in the data directory ($$DSP_DATA_DIR, else ./data): the SQLite database, statistics, uploads,
# exports. A PostgreSQL database (DATABASE_URL) or a bucket (DSP_FILES_URL) is not touched. Asks nothing (it is a
# make target), so it refuses an empty DSP_DATA_DIR (that would be the current directory) and /.
clean-data:
	@if [ "$${DSP_DATA_DIR+set}" = set ]; then dir="$$DSP_DATA_DIR"; else dir=data; fi; \
	if [ -z "$$dir" ] || [ "$$(realpath -m -- "$$dir")" = / ]; then \
	  echo "clean-data: refused: DSP_DATA_DIR='$$dir' names no data directory (empty, or /)" >&2; exit 1; \
	fi; \
	if [ -d "$$dir" ]; then find "$$dir" -mindepth 1 -delete; fi; \
	echo "clean-data: $$dir is empty"

# Rebuild the JS widgets (needs Node); the built files are committed, so Python-only work never needs this.
js:
	cd js_modules && npm ci --no-audit --no-fund && npm run build
