"""A real Celery worker process whose resolutions stop at a chosen moment, so a test can kill
the worker there, drop its database connection, or let two workers race. Run as
`python tests/campaign/paused_worker.py` with:

- PAUSE_AT: `engine` (inside the engine's run, before anything is written), `claim` (the result
  computed, just before the writing transaction) or `write` (inside the writing transaction,
  the battle and ledger rows inserted, the turn not yet marked resolved);
- PAUSE_MARKER: the file written when paused (JSON: the turn, the process and, on PostgreSQL,
  the server process of its database connection); the worker goes on once PAUSE_MARKER.go
  exists (it removes it), or waits ten minutes for the test to kill it;
- PAUSE_EVERY: `1` to pause at every run, retries included (default: the first run only);
- WORKER_LOGLEVEL: the worker's log level (default WARNING; INFO logs each retry).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.db import connection  # noqa: E402

import campaign.resolution as resolution  # noqa: E402
from config.celery import app  # noqa: E402
from fleets.ruleset import NAVAL  # noqa: E402

marker = Path(os.environ["PAUSE_MARKER"])
release = Path(f"{marker}.go")
where = os.environ["PAUSE_AT"]
every = os.environ.get("PAUSE_EVERY") == "1"
paused_before = False


def pause(turn_id: int) -> None:
    global paused_before
    if paused_before and not every:
        return
    paused_before = True
    backend = None
    if connection.vendor == "postgresql" and connection.connection is not None:
        backend = connection.connection.info.backend_pid
    written = marker.with_suffix(".tmp")
    written.write_text(json.dumps({"turn": turn_id, "pid": os.getpid(), "backend": backend}))
    written.rename(marker)  # the test sees the whole file or none
    deadline = time.monotonic() + 600
    while not release.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    release.unlink(missing_ok=True)


# The naval ruleset's steps, as the platform's resolution calls them (campaign/rulesets.py).
adjudicate, report, write_result_rows = (
    NAVAL.advance,
    resolution._report,
    NAVAL.result_rows_write,
)
turn_being_resolved: list[int] = []


def report_then_pause(turn_id, phase, percent):  # type: ignore[no-untyped-def]
    turn_being_resolved[:] = [turn_id]
    report(turn_id, phase, percent)
    if where == "claim" and phase == "writing the result":
        pause(turn_id)


def adjudicate_with_pause(scenario):  # type: ignore[no-untyped-def]
    if where == "engine":
        pause(turn_being_resolved[0])
    return adjudicate(scenario)


def write_then_pause(turn, result):  # type: ignore[no-untyped-def]
    write_result_rows(turn, result)
    if where == "write":
        pause(turn.pk)


resolution._report = report_then_pause
NAVAL.advance = adjudicate_with_pause  # type: ignore[method-assign]
NAVAL.result_rows_write = write_then_pause  # type: ignore[method-assign]
app.worker_main(
    [
        "worker",
        "--pool=solo",
        f"--loglevel={os.environ.get('WORKER_LOGLEVEL', 'WARNING')}",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
    ]
)
