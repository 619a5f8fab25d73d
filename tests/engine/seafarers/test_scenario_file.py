"""Reading seafarers-scenario/1 files: every problem with its path; the result's shape."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine.seafarers import ScenarioError, adjudicate, parse_scenario

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "seafarers-skirmish.scenario.json"


def example() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return document


def problems(document: dict[str, Any]) -> dict[str, str]:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(document)
    return {p.path: p.message for p in caught.value.problems}


def test_every_problem_is_reported_with_its_path() -> None:
    document = example()
    document["players"][0]["hand"]["gold"] = 1  # GD3
    document["players"][1]["roads"] = ["0,1,E", "0,0,E"]  # a road on the sea (X1)
    document["players"][1]["ships"] = ["0,0,E"]  # a ship on land
    document["players"][0]["colour"] = "red"
    document["rules"] = {"setup_islands": ["atlantis"], "pieces": {"boats": 3}}
    document["board"]["harbours"] = None
    document["actions"][1]["speed"] = 3
    found = problems(document)
    assert set(found) >= {
        "players[0].hand.gold",
        "players[1].roads[0]",
        "players[1].ships[0]",
        "players[0].colour",
        "rules.setup_islands[0]",
        "rules.pieces.boats",
        "board.harbours",
        "actions[1].speed",
    }, found


def test_holders_must_agree_with_the_position() -> None:
    """X10, B17: nobody has 5 pieces, so nobody holds the card; nobody played 3 Knights."""
    document = example()
    document["holders"] = {"longest_route": "red", "largest_army": "blue"}
    found = problems(document)
    assert "holders.longest_route" in found
    assert "holders.largest_army" in found


def test_more_pieces_than_the_supply_is_a_problem() -> None:
    document = example()
    document["rules"] = {"pieces": {"ships": 0}}
    assert "players[0].ships" in problems(document)


def test_two_pieces_on_one_edge_or_node_are_problems() -> None:
    document = example()
    document["players"][1]["ships"] = [["0,0,S", "0,1,N"]]  # red's ship lies there
    document["players"][1]["settlements"] = ["1,0,N", "0,0,S"]
    found = problems(document)
    assert "players[1].ships[0].edge" not in found
    assert "players[1].ships[0]" in found
    assert "players[1].settlements[1]" in found


def test_a_result_state_loads_back_and_the_input_is_untouched() -> None:
    document = example()
    original = copy.deepcopy(document)
    result = adjudicate(document)
    assert document == original
    assert set(result["state"]) == {
        "format",
        "seed",
        "rules",
        "board",
        "players",
        "bank",
        "dev_deck",
        "holders",
        "turn",
    }
    again = adjudicate(result["state"])
    assert again["state"] == result["state"]
    assert again["steps"] == []
    assert all(isinstance(s, dict) for p in result["state"]["players"] for s in p["ships"])


def test_defaults_fill_the_bank_and_shuffle_the_deck_by_the_seed() -> None:
    """B10: the bank is 19 less the hands; B12, X22: the deck is the 25 less those held."""
    state = parse_scenario(example()).state
    assert state.bank == [
        18,
        16,
        17,
        16,
        16,
    ]  # red 1 brick 3 wood 2 wool 1 grain; blue 2 grain 3 ore
    assert len(state.deck) == 25
    other = example()
    other["seed"] = 8
    assert parse_scenario(other).state.deck != state.deck
    assert parse_scenario(example()).state.deck == state.deck
