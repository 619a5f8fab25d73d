"""A real Celery worker process whose resolutions stop at a chosen moment, so a test can kill
the worker there, drop its database connection, or let two workers race. Run as
`python tests/campaign/paused_worker.py` with the environment of tests/paused_workers.py and
PAUSE_AT: `engine` (inside the engine's run, before anything is written), `claim` (the result
computed, just before the writing transaction) or `write` (inside the writing transaction, the
battle and ledger rows inserted, the turn not yet marked resolved). The marker names the turn.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.paused_workers import Pause, django_setup, worker_main

django_setup()

import campaign.resolution as resolution  # noqa: E402
from fleets.ruleset import NAVAL  # noqa: E402

pause = Pause()

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
    if pause.at == "claim" and phase == "writing the result":
        pause(turn=turn_id)


def adjudicate_with_pause(scenario):  # type: ignore[no-untyped-def]
    if pause.at == "engine":
        pause(turn=turn_being_resolved[0])
    return adjudicate(scenario)


def write_then_pause(turn, result):  # type: ignore[no-untyped-def]
    write_result_rows(turn, result)
    if pause.at == "write":
        pause(turn=turn.pk)


resolution._report = report_then_pause
NAVAL.advance = adjudicate_with_pause  # type: ignore[method-assign]
NAVAL.result_rows_write = write_then_pause  # type: ignore[method-assign]
worker_main()
