"""A real Celery worker process whose resolutions stop just before writing their result: the
killed-worker test kills it there. Run as `python tests/campaign/paused_worker.py`."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

import campaign.resolution as resolution  # noqa: E402
from config.celery import app  # noqa: E402

marker = Path(os.environ["PAUSE_MARKER"])
write_result_rows = resolution.write_result_rows


def paused(turn, result):  # type: ignore[no-untyped-def]
    marker.write_text(str(turn.pk))
    time.sleep(600)  # the test kills the worker here, inside the writing transaction
    write_result_rows(turn, result)


resolution.write_result_rows = paused
app.worker_main(
    [
        "worker",
        "--pool=solo",
        "--loglevel=WARNING",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
    ]
)
