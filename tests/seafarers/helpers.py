"""Driving a game in tests: the engine's bot picks a legal action for whoever the game waits
for, sent through the services as that seat's user."""

from __future__ import annotations

from typing import Any

from engine.seafarers import bot_action
from seafarers.models import Game
from seafarers.positions import replay, waiting_for
from seafarers.services import action_submit


def position(game: Game) -> Any:
    game.refresh_from_db()
    return replay(
        game.first_position, game.actions.order_by("index").values_list("action", flat=True)
    )


def play_one(game: Game, *, until: Any = None) -> dict[str, Any]:
    """One legal action for the first player the game waits for, sent by its seat's user."""
    state = position(game)
    player = waiting_for(state)[0]
    action = bot_action(state, player, game.log_length)
    assert action is not None
    seat = game.seats.get(player=player)
    action_submit(game=game, user=seat.user, action=action, expected_index=game.log_length)
    game.refresh_from_db()
    return action


def play_until(game: Game, predicate: Any, limit: int = 2000) -> None:
    for _ in range(limit):
        if predicate(position(game)):
            return
        play_one(game)
    raise AssertionError("never reached")
