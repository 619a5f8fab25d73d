"""Reminders (issue 13): a player the game has waited on for its reminder time
(`Game.reminder_hours`) is reminded, once per wait, by e-mail and on the game's webhook — by
the periodic task on the worker (Celery beat, config/settings.py CELERY_BEAT_SCHEDULE), as the
naval reminders are (campaign/deadlines.py).

A wait (docs/rulings.md S-28) is the game waiting on one player, from the moment it came to
them or they last acted, whichever is later. The log says when: a discard or a gold pick owed
since the action whose events say so (`discard_owed`, `gold_owed`), the current player since
the last action of the log (their own, or the one that gave them the turn). A moderator's
change that is no action (start, undo, resume, a seat passed on) starts every wait again. One
`Reminder` row per (game, player, start of the wait), unique, so a beat delivered twice or two
beats at once remind once.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from celery import shared_task
from django.db import IntegrityError, transaction
from django.utils import timezone

from campaign.models import AuditEntry
from seafarers.models import Game, Reminder
from seafarers.notifications import news_send_task

# The moderator's changes that are no action in the log but make the game wait anew.
RESTARTS = ("game_start", "game_undo", "game_resume", "seat_replace")
OWED = {"discard": "discard_owed", "gold": "gold_owed"}
SCAN = 200  # actions looked back through for the one that made a discard or pick owed


def waits(game: Game) -> list[tuple[str, datetime]]:
    """(player, since when) for every player the game waits on now (G1)."""
    state = game.state
    phase = state["turn"]["phase"]
    restart = (
        AuditEntry.objects.filter(campaign_id=game.campaign_id, action__in=RESTARTS)
        .values_list("created_at", flat=True)
        .first()  # AuditEntry is ordered newest first
    )
    latest = (
        game.actions.filter(index__lt=game.log_length)
        .order_by("-index")
        .values_list("created_at", flat=True)
        .first()
    )
    moved = max((t for t in (restart, latest) if t is not None), default=game.created_at)
    if phase not in OWED:
        return [(state["turn"]["player"], moved)]
    key = "discard" if phase == "discard" else "gold_picks"
    owing = [p["id"] for p in state["players"] if p.get(key)]
    found: list[tuple[str, datetime]] = []
    recent = game.actions.filter(index__lt=game.log_length).order_by("-index")[:SCAN]
    rows = list(recent.values_list("events", "created_at"))
    for player in owing:
        since = next(
            (
                at
                for events, at in rows
                if any(e.get("type") == OWED[phase] and e.get("player") == player for e in events)
            ),
            moved,
        )
        found.append((player, max(since, restart) if restart else since))
    return found


def reminders_send(*, now: datetime | None = None) -> int:
    """Remind every human player a game in play has waited on for its reminder time and who
    was not reminded of this wait yet; how many were reminded."""
    now = now or timezone.now()
    sent = 0
    games = Game.objects.filter(status__in=(Game.Status.SETUP, Game.Status.PLAYING))
    for game in games.select_related("campaign"):
        humans = set(game.seats.filter(bot=False).values_list("player", flat=True))
        for player, since in waits(game):
            if player not in humans or now - since < timedelta(hours=game.reminder_hours):
                continue
            if _remind(game, player, since, now):
                sent += 1
    return sent


def _remind(game: Game, player: str, since: datetime, now: datetime) -> bool:
    try:
        with transaction.atomic():
            Reminder.objects.create(game=game, player=player, waiting_since=since)
            hours = int((now - since).total_seconds() // 3600)
            name = game.campaign.name
            item: dict[str, Any] = {
                "players": [player],
                "subject": f"{name}: a reminder",
                "text": f"{name} has waited on {player} for {hours} hours.",
                "public": f"**{name}**: waiting on {player} for {hours} hours.",
            }
            game_id = game.pk
            transaction.on_commit(lambda: news_send_task.delay(game_id, [item]))
    except IntegrityError:
        return False  # reminded of this wait already (a beat delivered twice)
    return True


@shared_task(name="seafarers.tasks.reminders_task", acks_late=True)  # beat names it so
def reminders_task() -> int:
    return reminders_send()
