"""One action at a time per game (issue 13, G1): two senders at once with the same expected
index — exactly one is applied, the other refused `game_moved_on`, nothing lost. Two threads,
two connections, real commits: on PostgreSQL the game's row is held FOR UPDATE; on SQLite the
IMMEDIATE transactions take turns."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from engine.seafarers import bot_action
from seafarers.models import Action
from seafarers.services import GameRefused, action_submit
from tests.seafarers.helpers import position

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_double_click_is_applied_once(game, people) -> None:
    state = position(game)
    actions = [bot_action(state, "red", 1), bot_action(state, "red", 2)]
    barrier = threading.Barrier(2)
    outcomes: list[object] = [None, None]

    def send(i: int) -> None:
        try:
            barrier.wait(10)
            outcomes[i] = action_submit(
                game=game, user=people["ann"], action=actions[i], expected_index=0
            )
        except GameRefused as refusal:
            outcomes[i] = refusal
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    applied = [o for o in outcomes if isinstance(o, Action)]
    refused = [o for o in outcomes if isinstance(o, GameRefused)]
    assert len(applied) == 1
    assert [r.code for r in refused] == ["game_moved_on"]
    assert refused[0].message == "the game moved on: reload and look again"
    game.refresh_from_db()
    assert game.log_length == 1
    assert list(Action.objects.values_list("index", "action")) == [(0, applied[0].action)]
