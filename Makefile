# Two commands do everything: `make run` and `make test`. Both build .venv on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev

.PHONY: run test lint typecheck bench venv clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,sim,rl,openspiel]'
	@touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/golf play

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench examples scripts
	$(VENV)/bin/mypy

test: lint
	$(VENV)/bin/pytest

bench: $(STAMP)
	$(PY) bench/engine.py
	$(PY) bench/bots.py
	$(PY) bench/envs.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
