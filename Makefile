PYTHON ?= python3.11
PORT ?= 8000
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: venv compiled messages messages-extract messages-check chromium run example test test-fast bench bench-load bench-load-seafarers bench-scale-out lint typecheck fmt

venv: $(STAMP)

# Reinstall only when .venv is missing or requirements.txt changed.
$(STAMP): requirements.txt
	@test -x $(PY) || command -v $(PYTHON) >/dev/null 2>&1 || { \
	  echo "$(PYTHON) is needed to create $(VENV): install it (Debian: apt-get install python3.11" \
	       "python3.11-venv) or name another 3.11 with make PYTHON=/path/to/python3.11"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

# The hot modules of both engines and of the naval map compiled by mypyc
# (tools/compile_engine.py): built again when a source of the package changed, used only when
# built from the sources as they are (each package checks its digest at import); without a C
# compiler the same sources run as Python.
COMPILED := engine/naval/_compiled/SOURCES engine/seafarers/_compiled/SOURCES maps/_compiled/SOURCES
compiled: $(COMPILED)

$(COMPILED) &: $(STAMP) $(wildcard engine/naval/*.py) $(wildcard engine/seafarers/*.py) \
		$(wildcard maps/*.py) \
		engine/kernel/compiled.py tools/compile_engine.py
	-$(PY) tools/compile_engine.py

# The translation catalogues (issue 22; README, "Adding a language"): each language's
# locale/<code>/LC_MESSAGES/django.po, committed, compiled by Django's compilemessages (GNU
# gettext's msgfmt) into the django.mo Django reads — made here, not committed, again when its .po
# changed. `make messages-extract` adds the messages newly marked in the code and templates to
# every catalogue (makemessages), `make messages-check` lists what is missing or wrong in them
# (tests/i18n/test_catalogues.py checks the same in `make test`).
CATALOGUES := $(wildcard locale/*/LC_MESSAGES/django.po)
messages: $(CATALOGUES:.po=.mo)

locale/%/LC_MESSAGES/django.mo: locale/%/LC_MESSAGES/django.po | $(STAMP)
	$(PY) manage.py compilemessages -v0 -l $* --ignore=.venv --ignore=.git --ignore=var \
	  --ignore=staticfiles --ignore=tests --ignore=docs

messages-extract: venv
	$(PY) -m tools.catalogues extract

messages-check: venv
	$(PY) -m tools.catalogues check

# The site on the embedded default (SQLite, Celery tasks run in-process): the bundled campaign,
# a moderator and a player per faction, printed with the address. PORT=8001 for another port.
# It serves as a moderator would run a real game here: DEBUG off (the site's own 404 and 500
# pages, static files collected and served by WhiteNoise), plain HTTP on 127.0.0.1, the secret
# key made once and kept in $(DATA)/secret_key (a second run keeps everyone logged in).
# DEBUG=true for development (Django's error pages, static files straight from the apps).
DATA ?= var
DEBUG ?= false
# The demo's mail (a player told it is their turn) is kept as files in $(DATA)/mail, not printed
# between the banners; MAIL=console prints it, and an EMAIL_BACKEND of one's own is kept.
MAIL ?= file
MAIL_BACKEND_file := django.core.mail.backends.filebased.EmailBackend
MAIL_BACKEND_console := django.core.mail.backends.console.EmailBackend
EMAIL_BACKEND ?= $(MAIL_BACKEND_$(MAIL))
RUN_ENV = DEBUG=$(DEBUG) HTTPS=false ALLOWED_HOSTS=127.0.0.1,localhost SECRET_KEY_FILE=$(DATA)/secret_key \
  EMAIL_BACKEND=$(EMAIL_BACKEND) EMAIL_FILE_PATH=$(DATA)/mail
run: venv compiled messages
	$(RUN_ENV) $(PY) manage.py migrate --noinput -v0
	$(RUN_ENV) $(PY) manage.py collectstatic --noinput -v0
	$(RUN_ENV) $(PY) manage.py demo --address http://127.0.0.1:$(PORT)/
	$(RUN_ENV) $(PY) manage.py seafarers_demo --address http://127.0.0.1:$(PORT)/
	$(RUN_ENV) $(PY) manage.py runserver 127.0.0.1:$(PORT)

# One turn resolved from the bundled scenario file, as text (no database needed).
example: venv
	$(PY) manage.py adjudicate examples/baltic-skirmish.scenario.json --format text

# The browser tests drive Debian's Chromium (never a browser downloaded by a test tool): installed
# here when it is missing, as .ci/run does (apt-get needs root).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "== installing Debian's chromium for the browser tests =="; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# The whole suite over the machine's cores (pytest-xdist: each worker its own test database and
# Redis database, tests/conftest.py; docs/testing.md). TEST_WORKERS=0 runs it in one process;
# PYTEST_ARGS narrows a run (.ci/run's second pass: the database-bound tests on PostgreSQL).
TEST_WORKERS ?= auto
test: venv compiled messages chromium
	$(PY) -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)
	$(MAKE) lint
	$(MAKE) typecheck

# Everything but the `slow` marker (the thousand-game playouts, the many-campaign scale-out, the
# log browser): a contributor's run in a few minutes. `make test` still runs every test.
test-fast: venv compiled messages chromium
	$(PY) -m pytest -n $(TEST_WORKERS) -m "not slow" $(PYTEST_ARGS)

# catanatron is the seafaring bench's anchor only (requirements-bench.txt), never a runtime need.
bench: venv compiled
	$(PY) -m pip install --quiet -r requirements-bench.txt
	$(PY) -m bench

# Issue 5, on the PostgreSQL at 127.0.0.1:5432 and the Redis database 10 (BENCH_POSTGRES_URL,
# BENCH_BROKER_URL); each creates and drops its own databases. ARGS=--quick for a smoke run,
# ARGS=--write-docs to write the figures into docs/benchmarks.md.
bench-load: venv
	$(PY) -m bench.load $(ARGS)

# Issue 14: the same for seafaring games (50 games of four seats, a bot seat on a worker).
bench-load-seafarers: venv compiled
	$(PY) -m bench.seafarers_load $(ARGS)

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
