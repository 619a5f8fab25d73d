"""Random playouts (issue 12 "Tests"): invariants after every action, legal_actions against the
checks, replay from the first position and seed byte for byte."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.seafarers import adjudicate, check
from engine.seafarers.game import SHAPES
from engine.seafarers.refusals import Refused
from engine.seafarers.rules import RESOURCES
from engine.seafarers.state import State
from tests.engine.seafarers.invariants import check_invariants, check_state
from tests.engine.seafarers.playouts import random_game


def key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def random_action(state: State, rng: random.Random) -> dict[str, Any]:
    """Any action of the table in a form legal_actions lists (X25 shapes)."""
    board = state.board
    kind = rng.choice(sorted(set(SHAPES) - {"domestic_trade", "award_svp"}))
    player = rng.choice(state.players)
    action: dict[str, Any] = {"type": kind, "player": player}
    edge = board.edge_name(rng.randrange(len(board.edge_nodes)))
    node = board.node_names[rng.randrange(len(board.node_names))]

    def cards(total: int) -> dict[str, int]:
        counts = dict.fromkeys(RESOURCES, 0)
        for _ in range(total):
            counts[rng.choice(RESOURCES)] += 1
        return {r: c for r, c in counts.items() if c}

    if kind in ("build_road", "build_ship"):
        action["edge"] = edge
    elif kind == "move_ship":
        own = [board.edge_name(e) for e in state.player_edges[state.pindex[player]]] or [edge]
        action["from"] = rng.choice(own)
        action["to"] = edge
    elif kind in ("build_settlement", "build_city"):
        action["node"] = node
    elif kind in ("move_robber", "move_pirate"):
        action["hex"] = board.hexes[rng.randrange(len(board.hexes))].id
        if rng.random() < 0.7:
            action["steal_from"] = rng.choice(state.players)
    elif kind == "discard":
        action["cards"] = cards(rng.randrange(1, 6))
    elif kind == "pick_gold":
        action["take"] = cards(rng.randrange(1, 3))
    elif kind == "play_year_of_plenty":
        action["take"] = cards(2)
    elif kind == "play_monopoly":
        action["resource"] = rng.choice(RESOURCES)
    elif kind == "maritime_trade":
        give, get = rng.sample(RESOURCES, 2)
        action["give"] = {give: rng.choice((2, 3, 4))}
        action["get"] = {get: 1}
    return action


def agrees(state: State, action: dict[str, Any], actions: list[dict[str, Any]]) -> None:
    """Every listed action is accepted; a few random ones are refused unless listed."""
    listed = {key(a) for a in actions}
    assert len(listed) == len(actions), "an action is listed twice"
    for a in actions:
        check(state, a)  # raises if the list and the checks disagree
    rng = random.Random(key(action))
    for _ in range(12):
        candidate = random_action(state, rng)
        if key(candidate) in listed:
            continue
        try:
            check(state, candidate)
        except Refused:
            continue
        # an accepted robber move without a named victim: listed with its one candidate named
        if candidate["type"] in ("move_robber", "move_pirate") and "steal_from" not in candidate:
            assert any(
                a.get("hex") == candidate["hex"] and a["type"] == candidate["type"] for a in actions
            )
            continue
        raise AssertionError(f"{candidate} is accepted but not listed")


@pytest.mark.parametrize("seed", range(6))
def test_random_playout_keeps_the_invariants_and_agrees_with_the_checks(seed: int) -> None:
    def each(state: State, action: dict[str, Any], actions: list[dict[str, Any]]) -> None:
        check_state(state)
        agrees(state, action, actions)

    random_game(seed, limit=400, each=each)


@pytest.mark.parametrize("seed", range(3))
def test_a_log_replays_byte_for_byte(seed: int) -> None:
    document, state, log = random_game(100 + seed, limit=300)
    scenario = {**document, "actions": log}
    result = adjudicate(scenario)
    assert result["refused"] == [], "a legal action was refused on replay"
    check_invariants(scenario, result)
    assert result["state"]["turn"]["phase"] == state.phase


@pytest.mark.slow
def test_a_thousand_random_games_end_without_an_error() -> None:
    ended = 0
    for seed in range(1000):
        _, state, log = random_game(10_000 + seed)
        check_state(state)
        ended += state.phase == "over" or len(log) == 1000
    assert ended == 1000
