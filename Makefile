PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: venv run test bench lint typecheck fmt

venv: $(STAMP)

# Reinstall only when .venv is missing or requirements.txt changed.
$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

run: venv
	$(PY) manage.py adjudicate examples/baltic-skirmish.scenario.json --format text

test: venv
	$(PY) -m pytest
	$(MAKE) lint
	$(MAKE) typecheck

bench: venv
	$(PY) -m bench

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: venv
	$(VENV)/bin/mypy engine/

fmt: venv
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .
