"""Positions for the board and report tests: a small crafted board holding one of each piece,
the four-islands example played by the bot, and the SVG parsed back."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import yaml

from engine.seafarers import State, apply_action, bot_action, parse_scenario

ROOT = Path(__file__).resolve().parents[3]
FOUR_ISLANDS = ROOT / "examples" / "four-islands.seafarers.yaml"
SVG = "{http://www.w3.org/2000/svg}"
ODD = "a<b&\"c'd"  # a player id with every character markup cares about


def crafted_doc(first: str = ODD, second: str = "blue") -> dict[str, Any]:
    """Two land hexes in a ring of sea; the first player owns a road, an open and a closed
    ship, a settlement and a city and may build everywhere; the second a road, a ship and a
    settlement. The robber on the hills, the pirate on the sea to the south-west."""
    sea = [(2, -1), (2, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]
    return {
        "format": "seafarers-scenario/1",
        "seed": 5,
        "board": {
            "hexes": [
                {"q": 0, "r": 0, "terrain": "forest", "number": 6},
                {"q": 1, "r": 0, "terrain": "hills", "number": 4},
                *({"q": q, "r": r, "terrain": "sea"} for q, r in sea),
            ],
            "harbours": [
                {"edge": "0,0,NW", "kind": "generic"},
                {"edge": "1,0,E", "kind": "brick"},
            ],
            "islands": [{"id": "Isle <&>", "hexes": ["0,0", "1,0"]}],
            "robber": "1,0",
            "pirate": "-1,1",
        },
        "players": [
            {
                "id": first,
                "hand": {"brick": 3, "wood": 3, "wool": 3, "grain": 3, "ore": 3},
                "roads": ["0,0,NE"],
                "ships": ["0,-1,E", {"edge": "1,0,NE", "closed": True}],
                "settlements": ["0,0,N"],
                "cities": ["1,0,S"],
            },
            {
                "id": second,
                "roads": ["0,0,E"],
                "ships": ["0,0,W"],
                "settlements": ["1,0,SE"],
            },
        ],
        "turn": {"number": 3, "player": first, "phase": "action"},
    }


def crafted(first: str = ODD, second: str = "blue") -> State:
    return parse_scenario(crafted_doc(first, second)).state


def who_acts(state: State) -> str:
    """The player the game waits for (discards and gold picks in seat order)."""
    if state.phase == "discard":
        return state.players[next(q for q, d in enumerate(state.discard) if d)]
    if state.phase == "gold":
        return state.players[next(q for q, g in enumerate(state.gold_picks) if g)]
    return state.players[state.player]


def played(actions: int, seed: int = 3) -> tuple[State, list[dict[str, Any]]]:
    """The four-islands example after `actions` bot actions; the last action's events."""
    state = parse_scenario(yaml.safe_load(FOUR_ISLANDS.read_text())).state
    events: list[dict[str, Any]] = []
    for _ in range(actions):
        player = who_acts(state)
        action = bot_action(state, player, seed)
        assert action is not None
        events = apply_action(state, action)
    return state, events


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def find(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def title_of(element: ET.Element) -> str:
    t = element.find(f"{SVG}title")
    assert t is not None
    assert t.text is not None
    return t.text


def target_actions(root: ET.Element) -> list[dict[str, Any]]:
    return [json.loads(a.get("data-action") or "") for a in find(root, "target")]


def on_board(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The legal actions that name a place (the others are not drawn)."""
    kinds = {
        "build_road",
        "build_ship",
        "move_ship",
        "build_settlement",
        "build_city",
        "move_robber",
        "move_pirate",
    }
    return [a for a in actions if a["type"] in kinds]


def frozen(actions: list[dict[str, Any]]) -> set[str]:
    return {json.dumps(a, sort_keys=True) for a in actions}
