"""The bot: only legal actions, games to the end, the same seed the same game."""

from __future__ import annotations

import pytest

from engine.seafarers import adjudicate, bot_action, parse_scenario
from engine.seafarers.generator import generate_board, new_game
from tests.engine.seafarers.invariants import check_invariants, check_state
from tests.engine.seafarers.playouts import bot_game


@pytest.mark.parametrize("seed", range(4))
def test_bots_play_a_game_to_the_win(seed: int) -> None:
    document, state, log = bot_game(seed, random_seats=frozenset({3}) if seed % 2 else frozenset())
    check_state(state)
    assert state.phase == "over", "four bots reach the points within 1,000 actions"
    scenario = {**document, "actions": log}
    result = adjudicate(scenario)
    assert result["refused"] == []
    assert result["state"]["turn"]["winner"] == state.players[state.winner or 0]
    check_invariants(scenario, result)


def test_the_same_seed_gives_the_same_game() -> None:
    assert bot_game(7)[2] == bot_game(7)[2]
    assert bot_game(7)[2] != bot_game(8)[2]


def test_setup_takes_the_best_node_and_the_bot_waits_when_not_asked() -> None:
    state = parse_scenario(new_game(generate_board(3), ["red", "blue"], 3)).state
    assert bot_action(state, "blue", 1) is None  # not blue's turn
    action = bot_action(state, "red", 1)
    assert action is not None
    assert action["type"] == "build_settlement"


@pytest.mark.slow
def test_a_thousand_bot_games_end_without_an_error() -> None:
    for seed in range(1000):
        _, state, log = bot_game(20_000 + seed, random_seats=frozenset({seed % 4}))
        check_state(state)
        assert state.phase == "over" or len(log) == 1000
