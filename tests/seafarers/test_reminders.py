"""Reminders (issue 13; seafarers/reminders.py) with the real database: a player the game has
waited on for its reminder time is reminded once per wait, by the periodic task's function;
a new wait (they acted, the turn came back, the moderator undid) may be reminded again."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail
from django.utils import timezone

from campaign.models import AuditEntry
from seafarers.models import Action, Game, Reminder
from seafarers.reminders import reminders_send, reminders_task, waits
from seafarers.services import game_create, game_pause, game_resume, game_start, game_undo
from tests.seafarers.helpers import play_one, play_until, position
from tests.seafarers.offer_helpers import seeded_isles

pytestmark = pytest.mark.django_db
SEED = 5
HOUR = timedelta(hours=1)


@pytest.fixture
def isles(people):
    game = seeded_isles(people["mod"], seed=SEED)
    return game


def age_log(game, by):
    """Everything that happened so far happened `by` earlier (the log's times moved back)."""
    for model, rows in (
        (Action, Action.objects.filter(game=game)),
        (AuditEntry, AuditEntry.objects.filter(campaign_id=game.campaign_id)),
        (Game, Game.objects.filter(pk=game.pk)),
    ):
        for row in rows:
            model.objects.filter(pk=row.pk).update(created_at=row.created_at - by)


def reminded(django_capture_on_commit_callbacks, now=None):
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        count = reminders_send(now=now)
    return count, [(m.subject, m.to) for m in mail.outbox]


def test_a_player_waited_on_for_the_reminder_time_is_reminded_once(
    isles, django_capture_on_commit_callbacks
):
    play_one(isles)  # red's first settlement: the game waits on red for the road
    assert reminded(django_capture_on_commit_callbacks) == (0, [])  # not yet
    age_log(isles, 25 * HOUR)
    count, sent = reminded(django_capture_on_commit_callbacks)
    assert count == 1
    assert sent == [("Isles: a reminder", ["ann@example.org"])]
    # Once per wait: the next beats say nothing, however long it goes on.
    assert reminded(django_capture_on_commit_callbacks) == (0, [])
    later = timezone.now() + 100 * HOUR
    assert reminded(django_capture_on_commit_callbacks, now=later) == (0, [])
    # Red places the road: the game waits on the next player, a new wait.
    play_one(isles)
    age_log(isles, 30 * HOUR)
    count, sent = reminded(django_capture_on_commit_callbacks)
    assert count == 1
    assert sent[0][1] != ["ann@example.org"]


def test_the_reminder_time_is_the_games(isles, django_capture_on_commit_callbacks):
    isles.reminder_hours = 2
    isles.save()
    play_one(isles)
    age_log(isles, 90 * timedelta(minutes=1))
    assert reminded(django_capture_on_commit_callbacks)[0] == 0
    age_log(isles, HOUR)
    assert reminded(django_capture_on_commit_callbacks)[0] == 1


def test_paused_games_and_bots_are_not_reminded(people, django_capture_on_commit_callbacks):
    game = game_create(
        name="Bots", slug="bots", moderator=people["mod"], board="small-isles",
        seats=[None, "ann", "bob"],
    )  # fmt: skip
    game = game_start(game=game, user=people["mod"])  # the bot (red) to settle first
    age_log(game, 48 * HOUR)
    assert waits(game)[0][0] == "red"
    assert reminded(django_capture_on_commit_callbacks) == (0, [])
    isles_like = game_create(
        name="P", slug="p", moderator=people["mod"], board="small-isles", seats=["ann", "bob"]
    )
    isles_like = game_start(game=isles_like, user=people["mod"])
    game_pause(game=isles_like, user=people["mod"])
    age_log(isles_like, 48 * HOUR)
    assert reminded(django_capture_on_commit_callbacks) == (0, [])
    # Resumed, the wait starts again: no reminder for the time it was paused.
    game_resume(game=isles_like, user=people["mod"])
    assert reminded(django_capture_on_commit_callbacks) == (0, [])
    assert reminded(django_capture_on_commit_callbacks, now=timezone.now() + 25 * HOUR)[0] == 1


def test_an_undo_starts_the_wait_again(isles, people, django_capture_on_commit_callbacks):
    play_one(isles)
    play_one(isles)
    age_log(isles, 25 * HOUR)
    game_undo(game=isles, user=people["mod"], reason="misclick")
    assert reminded(django_capture_on_commit_callbacks) == (0, [])


def test_each_owed_discard_waits_from_the_seven(isles, django_capture_on_commit_callbacks):
    """B11: those who owe a discard wait from the roll, whoever discarded since."""
    play_until(isles, lambda s: s.phase == "discard" and sum(1 for d in s.discard if d) >= 1)
    owing = [p for p, _ in waits(isles)]
    age_log(isles, 25 * HOUR)
    count, sent = reminded(django_capture_on_commit_callbacks)
    assert count == len(owing)
    emails = {s.player: s.user.email for s in isles.seats.all()}
    assert sorted(to for _, [to] in sent) == sorted(emails[p] for p in owing)
    state = position(isles)
    assert [p for p, _ in waits(isles)] == [
        state.players[q] for q, d in enumerate(state.discard) if d
    ]


def test_the_beat_runs_the_task(isles, django_capture_on_commit_callbacks):
    """The periodic task is scheduled, and its function reminds with the real database."""
    names = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "seafarers.tasks.reminders_task" in names
    play_one(isles)
    age_log(isles, 25 * HOUR)
    with django_capture_on_commit_callbacks(execute=True):
        assert reminders_task() == 1
    assert Reminder.objects.filter(game=isles).count() == 1
    assert reminders_task() == 0
