"""Random and bot playouts on generated boards, for the property tests and the benches."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.seafarers import apply_action, parse_scenario
from engine.seafarers.generator import generate_board, new_game
from engine.seafarers.legal import legal_actions
from engine.seafarers.state import State

PLAYERS = ["red", "blue", "white", "orange"]


def who_acts(state: State) -> str:
    """The player the game waits for (G1: discards and gold picks in seat order here)."""
    if state.phase == "discard":
        return state.players[next(q for q, d in enumerate(state.discard) if d)]
    if state.phase == "gold":
        return state.players[next(q for q, g in enumerate(state.gold_picks) if g)]
    return state.players[state.player]


def start(seed: int, players: int = 4) -> tuple[dict[str, Any], State]:
    document = new_game(generate_board(seed), PLAYERS[:players], seed)
    return document, parse_scenario(document).state


def random_game(
    seed: int,
    *,
    limit: int = 1000,
    players: int = 4,
    each: Callable[[State, dict[str, Any], list[dict[str, Any]]], None] | None = None,
) -> tuple[dict[str, Any], State, list[dict[str, Any]]]:
    """Uniform random legal actions to the win or `limit` actions; returns the first position,
    the last state and the log."""
    document, state = start(seed, players)
    rng = random.Random(f"{seed}:random player")
    log: list[dict[str, Any]] = []
    while state.phase != "over" and len(log) < limit:
        actions = legal_actions(state, who_acts(state))
        action = rng.choice(actions)
        if each is not None:
            each(state, action, actions)
        apply_action(state, action)
        log.append(action)
    return document, state, log


def bot_game(
    seed: int, *, limit: int = 1000, players: int = 4, random_seats: frozenset[int] = frozenset()
) -> tuple[dict[str, Any], State, list[dict[str, Any]]]:
    """Bots (and random players in `random_seats`) to the win or `limit` actions."""
    from engine.seafarers.bot import bot_action

    document, state = start(seed, players)
    rng = random.Random(f"{seed}:random player")
    log: list[dict[str, Any]] = []
    while state.phase != "over" and len(log) < limit:
        player = who_acts(state)
        if state.pindex[player] in random_seats:
            action = rng.choice(legal_actions(state, player))
        else:
            chosen = bot_action(state, player, seed)
            assert chosen is not None
            action = chosen
        apply_action(state, action)
        log.append(action)
    return document, state, log
