"""Bringing a game to a turn in which a trade can be made: the current player in the action
phase, holding a card of one resource while another human seat holds a card of another."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.seafarers import state_to_dict
from seafarers.models import Game
from seafarers.positions import replay, waiting_for
from seafarers.services import game_create, game_start
from tests.seafarers.helpers import play_until, position

RESOURCES = ("brick", "wood", "wool", "grain", "ore")


def tradeable(state: Any) -> bool:
    if state.in_setup() or state.phase != "action":
        return False
    me = state.player
    mine = [i for i in range(5) if state.hands[me][i]]
    for q in range(len(state.players)):
        if q != me and any(state.hands[q][i] for i in range(5) if i not in mine[:1]) and mine:
            return True
    return False


def trade_turn(game: Game) -> dict[str, Any]:
    """Play until a trade is possible; what it is: the current player, another, one card each
    way (`give` the current player's, `get` the other's)."""
    play_until(game, tradeable)
    state = position(game)
    me = state.player
    give = next(i for i in range(5) if state.hands[me][i])
    for q in range(len(state.players)):
        take = next((i for i in range(5) if i != give and state.hands[q][i]), None)
        if q != me and take is not None:
            break
    assert waiting_for(state) == [state.players[me]]
    return {
        "current": state.players[me],
        "other": state.players[q],
        "give": {RESOURCES[give]: 1},
        "get": {RESOURCES[take]: 1},
        "hands": {
            p: dict(zip(RESOURCES, state.hands[i], strict=True))
            for i, p in enumerate(state.players)
        },
    }


def hand(game: Game, player: str) -> dict[str, int]:
    game.refresh_from_db()
    return next(p["hand"] for p in game.state["players"] if p["id"] == player)


def seeded_isles(moderator: Any, *, seed: int = 5, seats: Sequence[str | None] | None = None,
                 slug: str = "isles", name: str = "Isles") -> Game:  # fmt: skip
    """Small Isles, started, with a fixed seed instead of the drawn one (G2), so that a test's
    dice are the same on every run: ann red, bob blue, cid white unless `seats` says otherwise
    (None: the bot)."""
    game = game_create(
        name=name,
        slug=slug,
        moderator=moderator,
        board="small-isles",
        seats=list(seats) if seats is not None else ["ann", "bob", "cid"],
    )
    game = game_start(game=game, user=moderator)
    game.first_position = {**game.first_position, "seed": seed}
    game.state = state_to_dict(replay(game.first_position, []))
    game.save()
    return game
