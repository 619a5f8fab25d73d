"""A real Celery worker process whose seafaring work stops at a chosen moment, so a test can
SIGKILL it there (tests/seafarers/test_faults.py). Run as `python tests/seafarers/paused_worker.py`
with PAUSE_MARKER (as tests/campaign/paused_worker.py: the file written when paused, JSON with
the game, the process and the PostgreSQL backend; the worker goes on once PAUSE_MARKER.go exists)
and PAUSE_AT:

- `bot`: inside the bot's first action's transaction — the action row and the state it produced
  written, not committed (services._after_change is the last step before the commit);
- `bot_between`: the bot's first action committed, the rest of its turn not yet played;
- `bot_done`: the bot's turn committed, its task not yet finished (nor acknowledged);
- `news`: inside the news task, just before its e-mail is sent.

EMAIL_FILE_PATH: the folder the worker's e-mails are written to (Django's file backend).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["EMAIL_BACKEND"] = "django.core.mail.backends.filebased.EmailBackend"

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402

import seafarers.notifications as notifications  # noqa: E402
import seafarers.services as services  # noqa: E402
from config.celery import app  # noqa: E402

settings.EMAIL_FILE_PATH = os.environ["EMAIL_FILE_PATH"]
marker = Path(os.environ["PAUSE_MARKER"])
release = Path(f"{marker}.go")
where = os.environ["PAUSE_AT"]
paused_before = False


def pause(game_id: int) -> None:
    global paused_before
    if paused_before:
        return
    paused_before = True
    backend = None
    if connection.vendor == "postgresql" and connection.connection is not None:
        backend = connection.connection.info.backend_pid
    written = marker.with_suffix(".tmp")
    written.write_text(json.dumps({"game": game_id, "pid": os.getpid(), "backend": backend}))
    written.rename(marker)  # the test sees the whole file or none
    deadline = time.monotonic() + 600
    while not release.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    release.unlink(missing_ok=True)


after_change, bot_play = services._after_change, services.bot_play
action_submit, send_mail = services.action_submit, notifications.send_mail


def after_change_then_pause(game, state, before=None):  # type: ignore[no-untyped-def]
    after_change(game, state, before)
    if where == "bot" and connection.in_atomic_block:
        pause(game.pk)


def bot_play_then_pause(*, game_id, expected_index):  # type: ignore[no-untyped-def]
    played = bot_play(game_id=game_id, expected_index=expected_index)
    if where == "bot_done" and played:
        pause(game_id)
    return played


def action_submit_then_pause(**kwargs):  # type: ignore[no-untyped-def]
    row = action_submit(**kwargs)
    if where == "bot_between" and kwargs.get("bot"):
        pause(row.game_id)
    return row


def pause_then_send_mail(**kwargs):  # type: ignore[no-untyped-def]
    if where == "news":
        pause(0)
    return send_mail(**kwargs)


services._after_change = after_change_then_pause
services.bot_play = bot_play_then_pause
services.action_submit = action_submit_then_pause
notifications.send_mail = pause_then_send_mail
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
