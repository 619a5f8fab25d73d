"""A real Celery worker process whose seafaring work stops at a chosen moment, so a test can
SIGKILL it there (tests/seafarers/test_faults.py). Run as `python tests/seafarers/paused_worker.py`
with the environment of tests/paused_workers.py (the marker names the game) and PAUSE_AT:

- `bot`: inside the bot's first action's transaction — the action row and the state it produced
  written, not committed (services._after_change is the last step before the commit);
- `bot_between`: the bot's first action committed, the rest of its turn not yet played;
- `bot_done`: the bot's turn committed, its task not yet finished (nor acknowledged);
- `news`: inside the news task, just before its e-mail is sent;
- `none`: never.

EMAIL_FILE_PATH: the folder the worker's e-mails are written to (Django's file backend).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ["EMAIL_BACKEND"] = "django.core.mail.backends.filebased.EmailBackend"

from tests.paused_workers import Pause, django_setup, worker_main

django_setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402

import seafarers.notifications as notifications  # noqa: E402
import seafarers.services as services  # noqa: E402

settings.EMAIL_FILE_PATH = os.environ["EMAIL_FILE_PATH"]
pause = Pause()
after_change, bot_play = services._after_change, services.bot_play
action_submit, send_mail = services.action_submit, notifications.send_mail


def after_change_then_pause(game, state, before=None):  # type: ignore[no-untyped-def]
    after_change(game, state, before)
    if pause.at == "bot" and connection.in_atomic_block:
        pause(game=game.pk)


def bot_play_then_pause(*, game_id, expected_index):  # type: ignore[no-untyped-def]
    played = bot_play(game_id=game_id, expected_index=expected_index)
    if pause.at == "bot_done" and played:
        pause(game=game_id)
    return played


def action_submit_then_pause(**kwargs):  # type: ignore[no-untyped-def]
    row = action_submit(**kwargs)
    if pause.at == "bot_between" and kwargs.get("bot"):
        pause(game=row.game_id)
    return row


def pause_then_send_mail(**kwargs):  # type: ignore[no-untyped-def]
    if pause.at == "news":
        pause(game=0)
    return send_mail(**kwargs)


services._after_change = after_change_then_pause
services.bot_play = bot_play_then_pause
services.action_submit = action_submit_then_pause
notifications.send_mail = pause_then_send_mail
worker_main()
