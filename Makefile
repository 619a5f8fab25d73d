PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: venv run example test bench bench-load bench-scale-out lint typecheck fmt

venv: $(STAMP)

# Reinstall only when .venv is missing or requirements.txt changed.
$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

# The site on the embedded default (SQLite, Celery tasks run in-process): the bundled campaign,
# a moderator and a player per faction, printed with the address.
run: venv
	$(PY) manage.py migrate --noinput -v0
	$(PY) manage.py demo
	$(PY) manage.py seafarers_demo
	$(PY) manage.py runserver 127.0.0.1:8000

# One turn resolved from the bundled scenario file, as text (no database needed).
example: venv
	$(PY) manage.py adjudicate examples/baltic-skirmish.scenario.json --format text

test: venv
	$(PY) -m pytest
	$(MAKE) lint
	$(MAKE) typecheck

# catanatron is the seafaring bench's anchor only (requirements-bench.txt), never a runtime need.
bench: venv
	$(PY) -m pip install --quiet -r requirements-bench.txt
	$(PY) -m bench

# Issue 5, on the PostgreSQL at 127.0.0.1:5432 and the Redis database 10 (BENCH_POSTGRES_URL,
# BENCH_BROKER_URL); each creates and drops its own databases. ARGS=--quick for a smoke run,
# ARGS=--write-docs to write the figures into docs/benchmarks.md.
bench-load: venv
	$(PY) -m bench.load $(ARGS)

bench-scale-out: venv
	$(PY) -m bench.scale_out $(ARGS)

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

typecheck: venv
	$(VENV)/bin/mypy

fmt: venv
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .
