"""`legal_actions(state, player)`: everything that player may do now, each action complete.

The order pages are built from this list, so it must agree with the checks exactly: pieces are
listed by the checks' own predicates (`game.attached`, `game.movable`, the costs and supplies),
cards and robber moves by running `game.check` itself; tests/engine/seafarers/test_playouts.py
holds every listed action to the checks and random unlisted ones to a refusal. Candidates are
narrowed first to what could pass (edges and nodes next to the player's own pieces), never to
less.

What is listed (docs/rulings.md S-4): maritime trades in their unit form (the player's rate of
one resource for one card of another, X11) — larger multiples and mixed trades are legal but not
enumerated; domestic trades are not listed (they need the other player's consent, X24); nor is
the moderator's `award_svp` (G4).
"""

from __future__ import annotations

from typing import Any

from engine.seafarers.board import LAND, SEA
from engine.seafarers.game import attached, check, movable
from engine.seafarers.refusals import Refused
from engine.seafarers.rules import (
    COST_CITY,
    COST_DEV,
    COST_ROAD,
    COST_SETTLEMENT,
    COST_SHIP,
    RESOURCES,
)
from engine.seafarers.state import NONE, ROAD, SETTLEMENT, SHIP, State

Action = dict[str, Any]


def _ok(state: State, action: Action) -> bool:
    try:
        check(state, action)
    except Refused:
        return False
    return True


def _has(hand: list[int], cost: tuple[int, ...]) -> bool:
    """The hand holds the cost (B3): the same test as the checks' `_afford`."""
    for h, c in zip(hand, cost, strict=True):  # noqa: SIM110 (faster than all() of a generator)
        if h < c:
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
    edge_nodes = board.edge_nodes
    node_edges = board.node_edges
    piece = state.edge_piece
    nodes = set(state.player_nodes[p])
    for e in state.player_edges[p]:
        a, b = edge_nodes[e]
        nodes.add(a)
        nodes.add(b)
    found: set[int] = set()
    for n in nodes:
        for e in node_edges[n]:
            if not piece[e]:
                found.add(e)
    return sorted(found)


def _edge_actions(state: State, name: str, p: int, edges: list[int]) -> list[Action]:
    """build_road / build_ship on `edges`, by the checks' own predicates (X1, X2, X18, B2)."""
    board = state.board
    kinds = board.edge_kind
    pieces = state.edge_piece
    free = state.phase != "action"
    hand = state.hands[p]
    roads = state.roads[p] < state.rules.roads and (free or _has(hand, COST_ROAD))
    ships = state.ships[p] < state.rules.ships and (free or _has(hand, COST_SHIP))
    out: list[Action] = []
    if not (roads or ships):
        return out
    pirate = board.hex_edges[state.pirate] if state.pirate is not None else ()
    setup = state.setup_node if state.phase == "setup_route" else None
    for e in edges:
        if pieces[e]:
            continue
        kind = kinds[e]
        road = roads and kind != SEA
        ship = ships and kind != LAND and e not in pirate
        if not (road or ship):
            continue
        if setup is not None:
            if setup not in board.edge_nodes[e]:
                continue
            road_ok, ship_ok = road, ship
        else:
            road_ok = road and attached(state, p, e, ROAD)
            ship_ok = ship and attached(state, p, e, SHIP)
        if road_ok:
            out.append({"type": "build_road", "player": name, "edge": board.edge_name(e)})
        if ship_ok:
            out.append({"type": "build_ship", "player": name, "edge": board.edge_name(e)})
    return out


def _settlement_ok(state: State, p: int, n: int, setup: bool) -> bool:
    """build_settlement's own checks as predicates (B4, B20, X3, B2, B3)."""
    board = state.board
    owner = state.node_owner
    if not board.is_land_node[n] or owner[n] != NONE:
        return False
    if any(owner[m] != NONE for m in board.node_neighbours[n]):
        return False
    if setup:
        allowed = state.rules.setup_islands
        if allowed is not None and board.node_island[n] not in allowed:
            return False
    elif not any(state.edge_owner[e] == p for e in board.node_edges[n]):
        return False
    if state.settlements[p] >= state.rules.settlements:
        return False
    return setup or all(h >= c for h, c in zip(state.hands[p], COST_SETTLEMENT, strict=True))


def legal_actions(state: State, player: str) -> list[Action]:
    """Everything `player` may send now (G1); [] when nothing. The list is kept in the state
    until the next action, so `game.apply_listed` may apply one of its actions unchecked."""
    out = _legal(state, player)
    state.listed = out
    return out


def _legal(state: State, player: str) -> list[Action]:
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
            if _settlement_ok(state, p, n, True):
                out.append(
                    {"type": "build_settlement", "player": player, "node": board.node_names[n]}
                )
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
    hand = state.hands[p]
    rules = state.rules
    pieces = (state.roads[p] < rules.roads and _has(hand, COST_ROAD)) or (
        state.ships[p] < rules.ships and _has(hand, COST_SHIP)
    )
    ships = [] if state.ship_moved else _movable_ships(state, p)
    # The empty edges near the player's pieces, only when a road, a ship or a move needs them.
    near = _near_edges(state, p) if pieces or ships else []
    if pieces:
        out.extend(_edge_actions(state, player, p, near))
    if state.settlements[p] < rules.settlements and _has(hand, COST_SETTLEMENT):
        touched = {n for e in state.player_edges[p] for n in board.edge_nodes[e]}
        for n in sorted(touched):
            if _settlement_ok(state, p, n, False):
                out.append(
                    {"type": "build_settlement", "player": player, "node": board.node_names[n]}
                )
    if state.cities[p] < rules.cities and _has(hand, COST_CITY):
        for n in sorted(state.player_nodes[p]):
            if state.node_level[n] == SETTLEMENT:
                out.append({"type": "build_city", "player": player, "node": board.node_names[n]})
    if ships:
        out.extend(_ship_moves(state, player, p, near, ships))
    if state.deck and _has(hand, COST_DEV):
        out.append({"type": "buy_dev_card", "player": player})
    if state.dev_cards[p]:
        out.extend(_card_actions(state, player))
    if max(hand) >= 2:  # no rate is better than 2:1 (X11)
        rates = state.rates(p)
        bank = state.bank
        for give in range(5):
            rate = rates[give]
            if hand[give] < rate:
                continue
            for get in range(5):
                if get != give and bank[get]:
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
    """The cards the player may play now (B12, X15, X23), through `check` itself."""
    p = state.pindex[player]
    if state.dev_card_played:
        return []
    playable = {card for card, new in state.dev_cards[p] if not new}
    out: list[Action] = []
    for kind, card in (("play_knight", "knight"), ("play_road_building", "road_building")):
        if card in playable:
            action = {"type": kind, "player": player}
            if _ok(state, action):
                out.append(action)
    if "year_of_plenty" in playable:
        for take in combinations(2, state.bank):
            plenty: Action = {"type": "play_year_of_plenty", "player": player, "take": take}
            if _ok(state, plenty):
                out.append(plenty)
    if "monopoly" in playable:
        for resource in RESOURCES:
            action = {"type": "play_monopoly", "player": player, "resource": resource}
            if _ok(state, action):
                out.append(action)
    return out


def _thief_actions(state: State, player: str, p: int, *, pirate: bool) -> list[Action]:
    """move_robber / move_pirate: every other hex of its kind, with each candidate (X17): the
    other players with a card and a building on a corner (robber) or a ship on a side (pirate)
    — `game.robber_victims`, gathered here from the pieces in one pass."""
    board = state.board
    kind = "move_pirate" if pirate else "move_robber"
    here = state.pirate if pirate else state.robber
    around: dict[int, set[int]] = {}
    for q in range(len(state.players)):
        if q == p or not any(state.hands[q]):
            continue
        if pirate:
            for e in state.player_edges[q]:
                if state.edge_piece[e] == SHIP:
                    for h in board.edge_hexes[e]:
                        around.setdefault(h, set()).add(q)
        else:
            for n in state.player_nodes[q]:
                for h in board.node_hexes[n]:
                    around.setdefault(h, set()).add(q)
    out: list[Action] = []
    land = board.hex_is_land
    for h, hx in enumerate(board.hexes):
        if land[h] == pirate or h == here:
            continue
        victims = around.get(h)
        if victims:
            for q in sorted(victims):
                out.append(
                    {"type": kind, "player": player, "hex": hx.id, "steal_from": state.players[q]}
                )
        else:
            out.append({"type": kind, "player": player, "hex": hx.id})
    return out


def _movable_ships(state: State, p: int) -> list[int]:
    """`game.movable` over the player's pieces, in their order: ships not placed this turn,
    not on a closed route, with an open end (X6), not on the pirate's edges (X18)."""
    piece = state.edge_piece
    new = state.ship_new
    closed = state.ship_closed
    return [
        e
        for e in state.player_edges[p]
        if piece[e] == SHIP and e not in new and e not in closed and movable(state, p, e)
    ]


def _ship_moves(
    state: State, player: str, p: int, near_edges: list[int], ships: list[int]
) -> list[Action]:
    """move_ship: each movable ship (X6) to each edge legal without it (X7, X18): a target is
    attached (X2) by an own building at one of its nodes, or by own ships there other than the
    one lifted."""
    board = state.board
    out: list[Action] = []
    pirate = board.hex_edges[state.pirate] if state.pirate is not None else ()
    owner = state.node_owner
    piece = state.edge_piece
    edge_nodes = board.edge_nodes
    # The player's ships at each node, gathered once (a target is empty, so none is the target).
    ships_at: dict[int, list[int]] = {}
    for f in state.player_edges[p]:
        if piece[f] == SHIP:
            for n in edge_nodes[f]:
                ships_at.setdefault(n, []).append(f)
    targets: list[tuple[int, bool, set[int], list[str]]] = []
    for t in near_edges:
        if board.edge_kind[t] == LAND or t in pirate or piece[t]:
            continue
        building = False
        support: set[int] = set()
        for n in edge_nodes[t]:
            if owner[n] == p:
                building = True
                break
            if owner[n] != NONE:
                continue
            here = ships_at.get(n)
            if here:
                support.update(here)
        if building or support:
            targets.append((t, building, support, board.edge_name(t)))
    for source in ships:
        name = board.edge_name(source)
        for _, building, support, to in targets:
            if building or len(support) > 1 or source not in support:
                out.append({"type": "move_ship", "player": player, "from": name, "to": to})
    return out
