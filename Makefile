# Two commands do everything: `make run` and `make test`. Both build .venv on first use.
# `make run` installs only the game and the server (the `web` extra); `make test` everything.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev
WEB_STAMP := $(VENV)/.installed-web
HOST ?= 127.0.0.1
PORT ?= 8000
DATA ?= golf-data

.PHONY: run play cluster test soak lint typecheck bench bench-server venv venv-web clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(WEB_STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e '.[web]'
	@touch $(WEB_STAMP)

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e '.[dev,sim,rl,openspiel,web,postgres,fast,learn,text,accounts,ray]'
	@touch $(STAMP) $(WEB_STAMP)

venv: $(STAMP)

venv-web: $(WEB_STAMP)

run: $(WEB_STAMP)
	@echo "Open http://$(HOST):$(PORT)/ in a browser (Ctrl-C stops the server)."
	$(VENV)/bin/golf serve --host $(HOST) --port $(PORT) --data-dir $(DATA)

# PostgreSQL, N golf serve processes and nginx on loopback (Debian's packages, installed
# if missing); Ctrl-C stops them all. See docs/server.md, "Running a cluster".
PROCESSES ?= 3
cluster: $(STAMP)
	$(VENV)/bin/golf cluster --processes $(PROCESSES) --port $(PORT)

play: $(WEB_STAMP)
	$(VENV)/bin/golf play

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench examples scripts
	$(VENV)/bin/mypy

# The server suite starts its own throwaway PostgreSQL (scripts/ci/postgres.sh, which
# installs Debian's postgresql if missing) and stops it at the end (tests/server/conftest.py);
# the cluster suite (tests/cluster) also runs nginx through scripts/ci/nginx.sh (the same).
# Four workers on two cores: many tests wait on servers, browsers and timers, so the extra
# workers keep both cores busy (tests/conftest.py does the once-only set-up and groups the
# units).
TEST_WORKERS ?= 4
# The fault soak's short form (tests/cluster/test_soak.py) stays out of make test while a
# process restarted under load can lose its tables a second time (docs/server.md, "The
# fault soak"); `make soak` runs it.
test: lint
	$(VENV)/bin/pytest -n $(TEST_WORKERS) --dist loadscope --no-loadscope-reorder -m "not soak"

soak: $(STAMP)
	$(VENV)/bin/pytest tests/cluster/test_soak.py -m soak

bench: $(STAMP)
	$(PY) bench/engine.py
	$(PY) bench/bots.py
	$(PY) bench/envs.py
	$(PY) bench/knowledge.py
	$(PY) bench/fast.py

bench-server: $(STAMP)
	$(PY) bench/server.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
