"""Bots on the worker (issue 13): a bot seat takes its turn after the game comes to it, through
action_submit with the expected index; with Celery eager, a game of bots alone plays to the end
inside one call chain, bounded (BOT_BOUND actions per task)."""

from __future__ import annotations

import pytest
from django.core import mail

from engine.seafarers import adjudicate
from seafarers.models import Action, Game
from seafarers.scenario_files import game_document
from seafarers.services import BOT_BOUND, bot_play, game_create, game_start
from tests.seafarers.helpers import play_one

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_game_of_bots_plays_to_the_end(people):
    game = game_create(
        name="Bots",
        slug="bots",
        moderator=people["mod"],
        board="small-isles",
        seats=[None, None, None],
    )
    game_start(game=game, user=people["mod"])  # the bot task runs, eagerly, to the end
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    assert game.log_length > BOT_BOUND  # several tasks, each queuing the next
    assert set(game.actions.values_list("sender", flat=True)) == {"bot"}
    assert game.state["turn"]["winner"] is not None
    # The log replays to the stored state (G1).
    assert adjudicate(game_document(game))["state"] == game.state


def test_a_bot_moves_when_the_game_comes_to_it_and_a_duplicate_does_nothing(people):
    game = game_create(
        name="Mixed",
        slug="mixed",
        moderator=people["mod"],
        board="small-isles",
        seats=["ann", None, "bob"],
    )
    game = game_start(game=game, user=people["mod"])
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]  # "your turn"
    assert "your turn" in mail.outbox[0].subject
    play_one(game)  # red's settlement
    play_one(game)  # red's route: now blue, a bot, settles and builds, then it is white's turn
    game.refresh_from_db()
    blue = list(game.actions.filter(sender="bot").values_list("action__player", flat=True))
    assert blue == ["blue", "blue"]
    assert game.state["turn"]["player"] == "white"
    assert mail.outbox[-1].to == ["bob@example.org"]
    assert Action.objects.filter(game=game).count() == 4


@pytest.mark.django_db
def test_a_stale_bot_task_plays_nothing(people):
    """A task delivered again after the game moved on (its expected index stale) is refused,
    even while a bot seat is waiting: never applied twice. No commit happens in this test, so
    no task has run: the game waits for blue, a bot."""
    game = game_create(
        name="Mixed",
        slug="mixed",
        moderator=people["mod"],
        board="small-isles",
        seats=["ann", None, "bob"],
    )
    game = game_start(game=game, user=people["mod"])
    play_one(game)
    play_one(game)
    assert game.state["turn"]["player"] == "blue"
    assert bot_play(game_id=game.pk, expected_index=1) == 0  # stale: the log is at 2
    assert Action.objects.filter(game=game).count() == 2
    assert bot_play(game_id=game.pk, expected_index=2) == 2  # the real one: blue's two
    assert Action.objects.filter(game=game).count() == 4
