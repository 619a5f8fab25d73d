"""`legal_actions(state, player)`: everything that player may do now, each action complete.

The order pages are built from this list, so it must agree with the checks exactly: every
candidate is run through `game.check`, the very checks `apply_action` runs (X25), and kept only
when nothing refuses it. Candidates are narrowed first to what could pass (edges and nodes next
to the player's own pieces, hexes the robber or pirate may take), never to less.

What is listed (docs/rulings.md S-4): maritime trades in their unit form (the player's rate of
one resource for one card of another, X11) — larger multiples and mixed trades are legal but not
enumerated; domestic trades are not listed (they need the other player's consent, X24); nor is
the moderator's `award_svp` (G4).
"""

from __future__ import annotations

from itertools import product
from typing import Any

from engine.seafarers.game import check
from engine.seafarers.refusals import Refused
from engine.seafarers.rules import RESOURCES
from engine.seafarers.state import NONE, SHIP, State

Action = dict[str, Any]


def _ok(state: State, action: Action) -> bool:
    try:
        check(state, action)
    except Refused:
        return False
    return True


def combinations(total: int, limits: list[int]) -> list[dict[str, int]]:
    """Every way to choose `total` cards within `limits` per resource (zeros dropped)."""
    out: list[dict[str, int]] = []

    def walk(i: int, left: int, chosen: list[int]) -> None:
        if i == 4:
            if left <= limits[4]:
                counts = [*chosen, left]
                out.append({RESOURCES[r]: c for r, c in enumerate(counts) if c})
            return
        for c in range(min(left, limits[i]), -1, -1):
            walk(i + 1, left - c, [*chosen, c])

    if total <= sum(limits):
        walk(0, total, [])
    return out


def _near_edges(state: State, p: int) -> list[int]:
    """Empty edges at a node the player's pieces or buildings touch (a superset of where a
    new road or ship may go, X2)."""
    board = state.board
    nodes: set[int] = set()
    for e in state.player_edges[p]:
        nodes.update(board.edge_nodes[e])
    nodes.update(n for n, o in enumerate(state.node_owner) if o == p)
    found = {e for n in nodes for e in board.node_edges[n] if not state.edge_piece[e]}
    return sorted(found)


def _edge_actions(state: State, name: str, p: int, edges: list[int]) -> list[Action]:
    board = state.board
    out = []
    for e in edges:
        for kind in ("build_road", "build_ship"):
            action = {"type": kind, "player": name, "edge": board.edge_name(e)}
            if _ok(state, action):
                out.append(action)
    return out


def legal_actions(state: State, player: str) -> list[Action]:
    """Everything `player` may send now (G1); [] when nothing."""
    p = state.pindex.get(player)
    if p is None or state.phase == "over":
        return []
    board = state.board
    phase = state.phase
    out: list[Action] = []
    if phase == "discard":
        if state.discard[p]:
            for cards in combinations(state.discard[p], state.hands[p]):
                out.append({"type": "discard", "player": player, "cards": cards})
        return out
    if phase == "gold":
        if state.gold_picks[p]:
            for take in combinations(state.gold_picks[p], state.bank):
                out.append({"type": "pick_gold", "player": player, "take": take})
        return out
    if p != state.player:
        return out
    if phase == "setup_settlement":
        for n in range(len(board.node_names)):
            action = {"type": "build_settlement", "player": player, "node": board.node_names[n]}
            if state.node_owner[n] == NONE and _ok(state, action):
                out.append(action)
        return out
    if phase == "setup_route":
        assert state.setup_node is not None
        return _edge_actions(state, player, p, list(board.node_edges[state.setup_node]))
    if phase == "roll":
        out.append({"type": "roll", "player": player})
        out.extend(_card_actions(state, player))
        return out
    if phase == "robber":
        out.extend(_thief_actions(state, player, p, pirate=False))
        if state.pirate is not None:
            out.extend(_thief_actions(state, player, p, pirate=True))
        return out
    if phase == "road_building":
        out.extend(_edge_actions(state, player, p, _near_edges(state, p)))
        out.append({"type": "end_road_building", "player": player})
        return out
    # the action phase
    near = _near_edges(state, p)
    out.extend(_edge_actions(state, player, p, near))
    touched = {n for e in state.player_edges[p] for n in board.edge_nodes[e]}
    for n in sorted(touched):
        action = {"type": "build_settlement", "player": player, "node": board.node_names[n]}
        if _ok(state, action):
            out.append(action)
    for n, owner in enumerate(state.node_owner):
        if owner == p:
            action = {"type": "build_city", "player": player, "node": board.node_names[n]}
            if _ok(state, action):
                out.append(action)
    if not state.ship_moved:
        out.extend(_ship_moves(state, player, p))
    buy = {"type": "buy_dev_card", "player": player}
    if _ok(state, buy):
        out.append(buy)
    out.extend(_card_actions(state, player))
    for give in range(5):
        rate = state.rate(p, give)
        if state.hands[p][give] < rate:
            continue
        for get in range(5):
            if get != give and state.bank[get]:
                out.append(
                    {
                        "type": "maritime_trade",
                        "player": player,
                        "give": {RESOURCES[give]: rate},
                        "get": {RESOURCES[get]: 1},
                    }
                )
    out.append({"type": "end_turn", "player": player})
    return out


def _card_actions(state: State, player: str) -> list[Action]:
    out: list[Action] = []
    for kind in ("play_knight", "play_road_building"):
        action = {"type": kind, "player": player}
        if _ok(state, action):
            out.append(action)
    first: Action = {"type": "play_year_of_plenty", "player": player, "take": {}}
    try:
        check(state, first)
    except Refused as refusal:
        if refusal.code in ("wrong_count", "bank_empty"):
            for take in combinations(2, state.bank):
                plenty: Action = {"type": "play_year_of_plenty", "player": player, "take": take}
                if _ok(state, plenty):
                    out.append(plenty)
    for resource in RESOURCES:
        action = {"type": "play_monopoly", "player": player, "resource": resource}
        if _ok(state, action):
            out.append(action)
    return out


def _thief_actions(state: State, player: str, p: int, *, pirate: bool) -> list[Action]:
    from engine.seafarers.game import robber_victims

    kind = "move_pirate" if pirate else "move_robber"
    out: list[Action] = []
    for h, hx in enumerate(state.board.hexes):
        if state.board.hex_is_land[h] == pirate:
            continue
        victims = robber_victims(state, p, h, pirate)
        options: list[Action] = (
            [
                {"type": kind, "player": player, "hex": hx.id, "steal_from": state.players[q]}
                for q in victims
            ]
            if victims
            else [{"type": kind, "player": player, "hex": hx.id}]
        )
        out.extend(a for a in options if _ok(state, a))
    return out


def _ship_moves(state: State, player: str, p: int) -> list[Action]:
    from engine.seafarers.game import movable

    board = state.board
    out: list[Action] = []
    ships = [
        e for e in state.player_edges[p] if state.edge_piece[e] == SHIP and movable(state, p, e)
    ]
    if not ships:
        return out
    near = _near_edges(state, p)
    for source, target in product(ships, near):
        action = {
            "type": "move_ship",
            "player": player,
            "from": board.edge_name(source),
            "to": board.edge_name(target),
        }
        if _ok(state, action):
            out.append(action)
    return out
