"""Invariants after every case and every playout (tests/scenarios/seafarers/README.md)."""

from __future__ import annotations

import json
from typing import Any

from engine.seafarers import adjudicate, parse_scenario, reach
from engine.seafarers.game import _any_free_placement, can_place
from engine.seafarers.legal import listing_for
from engine.seafarers.routes import holder_after, longest_route
from engine.seafarers.rules import RESOURCES
from engine.seafarers.state import NONE, ROAD, SHIP, State

PIECES = ("roads", "ships", "settlements", "cities")


def any_free_placement_checked(state: State, p: int) -> bool:
    """X15's question asked of the checks themselves, on every empty edge: what
    `game._any_free_placement` must answer from the attached edges reach.py keeps. Kept here,
    not in the engine: only the invariants ask it this way."""
    roads = state.rules.roads > state.roads[p]
    ships = state.rules.ships > state.ships[p]
    for e in range(len(state.board.edge_nodes)):
        if state.edge_piece[e]:
            continue
        if roads and can_place(state, p, e, ROAD):
            return True
        if ships and can_place(state, p, e, SHIP):
            return True
    return False


def totals(state_doc: dict[str, Any]) -> dict[str, int]:
    out = dict(state_doc["bank"])
    for player in state_doc["players"]:
        for r, n in player["hand"].items():
            out[r] += n
    return out


def no_gold(value: object) -> None:
    """GD3: no hand, bank or event ever holds gold."""
    if isinstance(value, dict):
        assert "gold" not in value or not isinstance(value["gold"], int), value
        for v in value.values():
            no_gold(v)
    elif isinstance(value, list):
        for v in value:
            no_gold(v)


def check_invariants(scenario: dict[str, Any], result: dict[str, Any]) -> None:
    start = parse_scenario(scenario).state
    end_doc = result["state"]
    start_totals = {
        r: start.bank[i] + sum(h[i] for h in start.hands) for i, r in enumerate(RESOURCES)
    }
    assert totals(end_doc) == start_totals, "bank + hands changed their total (B10)"
    no_gold(end_doc["bank"])
    no_gold([p["hand"] for p in end_doc["players"]])
    no_gold(result["events"])
    rules = end_doc["rules"]["pieces"]
    for player in end_doc["players"]:
        for key in PIECES:
            assert len(player[key]) <= rules[key], f"{player['id']} has too many {key} (B2)"
    # the result's state loads back, and run with no actions gives the same state
    again = adjudicate(end_doc)
    assert again["state"] == end_doc, "the result's state does not load back unchanged"
    loaded = parse_scenario(end_doc).state
    check_state(loaded)
    last = result["steps"][-1] if result["steps"] else result["start"]
    for q, pid in enumerate(loaded.players):
        assert last["routes"][pid] == longest_route(loaded, q)
        assert last["vp"][pid] == vp_from_sources(end_doc, q)
    assert json.dumps(adjudicate(scenario)) == json.dumps(result), "same file, other bytes"


def vp_from_sources(doc: dict[str, Any], q: int) -> int:
    """B19, counted from the document."""
    player = doc["players"][q]
    pid = player["id"]
    points = len(player["settlements"]) + 2 * len(player["cities"])
    points += 2 * (doc["holders"]["longest_route"] == pid) + 2 * (
        doc["holders"]["largest_army"] == pid
    )
    points += sum(
        1
        for c in player["dev_cards"]
        if (c if isinstance(c, str) else c["card"]) == "victory_point"
    )
    points += sum(t["points"] for t in player["svp"])
    return points


def _normal(name: str, value: Any) -> Any:
    """A reach.py slot's value in a form that does not depend on the order of the writes."""
    if name == "split":
        return [{n: sorted(links) for n, links in split.items()} for split in value]
    return value


def kept_reach(state: Any) -> dict[str, Any]:
    """The values reach.py keeps in the state, by slot."""
    return {name: _normal(name, getattr(state, name)) for name in reach.SLOTS}


def fresh_reach(state: Any) -> dict[str, Any]:
    """What `reach.rebuild` would make now, by slot, leaving the state as it was (legal.py's
    kept listings too, which a rebuild clears)."""
    before = {name: getattr(state, name) for name in (*reach.SLOTS, "listing")}
    reach.rebuild(state)
    made = kept_reach(state)
    for name, value in before.items():
        setattr(state, name, value)
    return made


def check_state(state: Any) -> None:
    """The holders obey X10 and B17 with lengths recomputed; pieces counted; no negative cards;
    where the pieces reach (reach.py), kept by every write, is what the pieces say now."""
    assert fresh_reach(state) == kept_reach(state)
    for q, listing in enumerate(state.listing):  # legal.py's, if kept, is what it would make
        if listing is not None:
            state.listing[q] = None
            assert listing_for(state, q) == listing
    for q in range(len(state.players)):
        if not state.in_setup():  # X15's question, from reach.py and by the checks
            assert _any_free_placement(state, q) == any_free_placement_checked(state, q)
        assert state.routes[q] == longest_route(state, q)
        assert all(n >= 0 for n in state.hands[q])
        assert state.roads[q] <= state.rules.roads
        assert state.ships[q] <= state.rules.ships
        assert state.settlements[q] <= state.rules.settlements
        assert state.cities[q] <= state.rules.cities
    assert all(n >= 0 for n in state.bank)
    assert holder_after(state, state.longest) == state.longest, "X10"
    if state.army != NONE:
        assert state.knights[state.army] >= state.rules.largest_army_min
        assert state.knights[state.army] == max(state.knights), "B17"
