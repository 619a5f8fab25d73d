"""Replay at scale (issue 14, G1, G3): a game of 2,000 actions — four bots on the bundled Four
Islands board with the points to win raised to 1,000 so it has not ended by then — undone and
exported: the position after the undo is the engine's replay of the log minus its last action,
from the start, as the engine had it while the game was played; the export is that log, and
`adjudicate` on it gives the same state. The timing is bench/seafarers_replay.py's."""

from __future__ import annotations

import pytest

from bench.seafarers_replay import ACTIONS, long_game, played_log
from engine.seafarers import adjudicate, state_to_dict
from seafarers import services
from seafarers.models import Game
from seafarers.positions import replay
from seafarers.scenario_files import game_document
from seafarers.services import action_submit, game_undo

pytestmark = pytest.mark.django_db


def test_undo_of_a_game_of_two_thousand_actions_is_a_replay_from_the_start(people) -> None:
    first, actions, states = played_log(ACTIONS)
    game = long_game(people["mod"], first, actions)
    assert game.log_length == ACTIONS
    assert game.status == Game.Status.PLAYING  # not over: the points to win are out of reach
    assert len({a["type"] for a in actions}) >= 8  # a real game: rolls, builds, trades, robber…
    services._POSITIONS.clear()  # nothing remembered: the undo replays the whole log
    game_undo(game=game, user=people["mod"], reason="the last roll was a misclick")
    game.refresh_from_db()
    assert game.log_length == ACTIONS - 1
    expected = states[ACTIONS - 1]  # the engine's own state after 1,999 actions, as played
    assert game.state == expected
    assert state_to_dict(replay(first, actions[:-1])) == expected  # a replay from the start
    exported = game_document(game)
    assert exported == {**first, "actions": actions[:-1]}
    assert adjudicate(exported)["state"] == expected
    # The undone action sent again: the game is back where it was, identical.
    seat = game.seats.get(player=actions[-1]["player"])
    action_submit(game=game, user=seat.user, action=actions[-1], expected_index=ACTIONS - 1)
    game.refresh_from_db()
    assert game.state == states[ACTIONS]
