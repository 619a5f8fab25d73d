"""`legal_actions(state, player)`: everything that player may do now, each action complete.

The order pages are built from this list, so it must agree with the checks exactly: pieces are
listed by the checks' predicates (`game.attached` from the attached edges reach.py keeps,
`game.movable` over the player's ships; the costs and supplies), robber moves by the victims of
`game.robber_victims` gathered in one pass, cards by running their own checks (`game.CHECKS`);
tests/engine/seafarers/test_playouts.py holds every listed action to the checks and random
unlisted ones to a refusal. Candidates are narrowed first to what could pass (edges and nodes
next to the player's own pieces), never to less.

What is listed (docs/rulings.md S-4): maritime trades in their unit form (the player's rate of
one resource for one card of another, X11) — larger multiples and mixed trades are legal but not
enumerated; domestic trades are not listed (they need the other player's consent, X24); nor is
the moderator's `award_svp` (G4).
"""

from __future__ import annotations

from typing import Any, Final

from engine.seafarers.board import LAND, NO_EDGES, SEA
from engine.seafarers.game import CHECKS
from engine.seafarers.refusals import Refused
from engine.seafarers.rules import (
    COST_CITY,
    COST_DEV,
    COST_ROAD,
    COST_SETTLEMENT,
    COST_SHIP,
    RESOURCES,
)
from engine.seafarers.state import NONE, SETTLEMENT, SHIP, Listing, State

Action = dict[str, Any]


def _ok(state: State, p: int, action: Action) -> bool:
    """A card the player to act may play (phase roll or action, their turn: X25's general
    checks hold for every action `_card_actions` makes, shaped as the table says), by the
    card's own checks (`game.CHECKS`, which `game.check` runs after the general ones)."""
    try:
        CHECKS[action["type"]](state, p, action)
    except Refused:
        return False
    return True


def _needs(cost: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    return tuple((r, c) for r, c in enumerate(cost) if c)


# Each cost's resources with their counts, zeros dropped (B3, SH1): what `_has` compares, made
# once (a cost looked up by its tuple would hash five numbers every time).
NEED_ROAD: Final = _needs(COST_ROAD)
NEED_SHIP: Final = _needs(COST_SHIP)
NEED_SETTLEMENT: Final = _needs(COST_SETTLEMENT)
NEED_CITY: Final = _needs(COST_CITY)
NEED_DEV: Final = _needs(COST_DEV)


def _has(hand: list[int], needs: tuple[tuple[int, int], ...]) -> bool:
    """The hand holds the cost (B3): the same test as the checks' `_afford`, over the cost's
    resources only (`NEED_*`)."""
    for r, c in needs:  # noqa: SIM110 (faster than all())
        if hand[r] < c:
            return False
    return True


def combinations(total: int, limits: list[int]) -> list[dict[str, int]]:
    """Every way to choose `total` cards within `limits` per resource (zeros dropped): the
    first resource's count from the most it can be down to 0, then the next's, and so on —
    each count no lower than what the resources after it cannot hold (those lower choices
    would give nothing)."""
    out: list[dict[str, int]] = []
    l0, l1, l2, l3, l4 = limits
    if total > l0 + l1 + l2 + l3 + l4:
        return out
    brick, wood, wool, grain, ore = RESOURCES
    append = out.append
    for a in range(min(total, l0), max(0, total - l1 - l2 - l3 - l4) - 1, -1):
        with_a = {brick: a} if a else {}
        left_a = total - a
        for b in range(min(left_a, l1), max(0, left_a - l2 - l3 - l4) - 1, -1):
            with_b = {**with_a, wood: b} if b else with_a
            left_b = left_a - b
            for c in range(min(left_b, l2), max(0, left_b - l3 - l4) - 1, -1):
                with_c = {**with_b, wool: c} if c else with_b
                left_c = left_b - c
                for d in range(min(left_c, l3), max(0, left_c - l4) - 1, -1):
                    cards = dict(with_c)
                    if d:
                        cards[grain] = d
                    if left_c - d:
                        cards[ore] = left_c - d
                    append(cards)
    return out


def _setup_route(state: State, player: str, p: int) -> list[Action]:
    """SU1, X14: the setup road or ship, on an edge of the settlement just placed (B20, X1,
    X18, B2)."""
    board = state.board
    assert state.setup_node is not None
    roads = state.roads[p] < state.rules.roads
    ships = state.ships[p] < state.rules.ships
    pirate = board.hex_edge_sets[state.pirate] if state.pirate is not None else NO_EDGES
    out: list[Action] = []
    for e in board.node_edges[state.setup_node]:
        if state.edge_piece[e]:
            continue
        kind = board.edge_kind[e]
        if roads and kind != SEA:
            out.append({"type": "build_road", "player": player, "edge": board.edge_name(e)})
        if ships and kind != LAND and e not in pirate:
            out.append({"type": "build_ship", "player": player, "edge": board.edge_name(e)})
    return out


def _route_builds(
    state: State,
    player: str,
    p: int,
    roads: bool,
    ships: bool,
    edges: tuple[int, ...],
    pirate: frozenset[int],
    out: list[Action],
) -> None:
    """build_road / build_ship on each empty edge attached for it (X2, reach.py), in edge
    order: a road not at sea, a ship not on land nor by the pirate (X1, X18, B2)."""
    kinds = state.board.edge_kind
    names = state.board.edge_names
    attach = state.attach[p]
    append = out.append
    for e in edges:
        kind = kinds[e]
        how = attach[e]
        if roads and how & 1 and kind != SEA:
            append({"type": "build_road", "player": player, "edge": list(names[e])})
        if ships and how & 2 and kind != LAND and e not in pirate:
            append({"type": "build_ship", "player": player, "edge": list(names[e])})


def _setup_settlements(state: State, player: str, p: int) -> list[Action]:
    """build_settlement in setup: build_settlement's own checks as predicates, in node order
    (B4, B20, X3, B2; no cost in setup), over every node of the board."""
    board = state.board
    if state.settlements[p] >= state.rules.settlements:
        return []
    allowed = state.rules.setup_islands
    island = board.node_island
    land = board.is_land_node
    owner = state.node_owner
    neighbours = board.node_neighbours
    names = board.node_names
    out: list[Action] = []
    for n in range(len(names)):
        if not land[n] or owner[n] != NONE:
            continue
        if allowed is not None and island[n] not in allowed:
            continue
        for m in neighbours[n]:
            if owner[m] != NONE:
                break
        else:  # B4: no building on a neighbouring node
            out.append({"type": "build_settlement", "player": player, "node": names[n]})
    return out


def legal_actions(state: State, player: str) -> list[Action]:
    """Everything `player` may send now (G1); [] when nothing. The list is kept in the state
    until the next action, so `game.apply_listed` may apply one of its actions unchecked."""
    out = _legal(state, player)
    state.listed = out
    return out


def _legal(state: State, player: str) -> list[Action]:
    p = state.pindex.get(player)
    phase = state.phase
    if p is None or phase == "over":
        return []
    if phase == "action":  # most lists: asked first
        return _action_phase(state, player, p) if p == state.player else []
    board = state.board
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
        return _setup_settlements(state, player, p)
    if phase == "setup_route":
        return _setup_route(state, player, p)
    if phase == "roll":
        out.append({"type": "roll", "player": player})
        out.extend(_card_actions(state, player))
        return out
    if phase == "robber":
        out.extend(_thief_actions(state, player, p, pirate=False))
        if state.pirate is not None:
            out.extend(_thief_actions(state, player, p, pirate=True))
        return out
    if phase == "road_building":  # X15: free pieces, from the supply
        roads = state.roads[p] < state.rules.roads
        ships = state.ships[p] < state.rules.ships
        if roads or ships:
            pirate = board.hex_edge_sets[state.pirate] if state.pirate is not None else NO_EDGES
            _route_builds(state, player, p, roads, ships, listing_for(state, p)[0], pirate, out)
        out.append({"type": "end_road_building", "player": player})
        return out
    return out  # no other phase (seafarers-format.md "Actions")


def _action_phase(state: State, player: str, p: int) -> list[Action]:
    """The action phase's list, from where the player's pieces reach (reach.py, kept by every
    write): the empty edges attached for a road or a ship (X2), the nodes an own road or ship
    touches (X3), each ship's open end (X6). The same list, in the same order, as the
    predicates of the checks give (`game.attached`, `game.movable`, `game._check_settlement`)."""
    board = state.board
    rules = state.rules
    hand = state.hands[p]
    owner = state.node_owner
    names = board.edge_names
    road_at = state.road_at[p]
    ship_at = state.ship_at[p]
    out: list[Action] = []
    append = out.append
    roads = state.roads[p] < rules.roads and _has(hand, NEED_ROAD)
    ships = state.ships[p] < rules.ships and _has(hand, NEED_SHIP)
    pirate = board.hex_edge_sets[state.pirate] if state.pirate is not None else NO_EDGES
    movable = [] if state.ship_moved or not ship_at else _movable(state, p, ship_at, pirate)
    edges, targets = listing_for(state, p) if roads or ships or movable else ((), ())
    if roads or ships:
        _route_builds(state, player, p, roads, ships, edges, pirate, out)
    if state.settlements[p] < rules.settlements and _has(hand, NEED_SETTLEMENT):
        land = board.is_land_node
        neighbours = board.node_neighbours
        node_names = board.node_names
        for n in sorted({*road_at, *ship_at}):  # X3: a node an own road or ship touches
            if land[n] and owner[n] == NONE:
                for m in neighbours[n]:
                    if owner[m] != NONE:
                        break
                else:  # B4: no building on a neighbouring node
                    append({"type": "build_settlement", "player": player, "node": node_names[n]})
    if state.cities[p] < rules.cities and _has(hand, NEED_CITY):
        level = state.node_level
        for n in sorted(state.player_nodes[p]):
            if level[n] == SETTLEMENT:
                append({"type": "build_city", "player": player, "node": board.node_names[n]})
    if movable:
        _ship_moves(player, movable, targets, pirate, names, out)
    if state.deck and _has(hand, NEED_DEV):
        append({"type": "buy_dev_card", "player": player})
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
                    append(
                        {
                            "type": "maritime_trade",
                            "player": player,
                            "give": {RESOURCES[give]: rate},
                            "get": {RESOURCES[get]: 1},
                        }
                    )
    append({"type": "end_turn", "player": player})
    return out


def _card_actions(state: State, player: str) -> list[Action]:
    """The cards the player may play now (B12, X15, X23), through their checks (`_ok`)."""
    p = state.pindex[player]
    held = state.dev_cards[p]
    if state.dev_card_played or not held:
        return []
    playable = {card for card, new in held if not new}
    out: list[Action] = []
    for kind, card in (("play_knight", "knight"), ("play_road_building", "road_building")):
        if card in playable:
            action = {"type": kind, "player": player}
            if _ok(state, p, action):
                out.append(action)
    if "year_of_plenty" in playable:
        for take in combinations(2, state.bank):
            plenty: Action = {"type": "play_year_of_plenty", "player": player, "take": take}
            if _ok(state, p, plenty):
                out.append(plenty)
    if "monopoly" in playable:
        for resource in RESOURCES:
            action = {"type": "play_monopoly", "player": player, "resource": resource}
            if _ok(state, p, action):
                out.append(action)
    return out


# Per game's players: what each set of candidates (a bit per player) lists on a hex, made
# once — (None,) for no candidate (the move alone), the candidates' names in seat order, and,
# last, () for the hex the thief stands on (no move). A few games' worth are kept.
_CANDIDATES: dict[tuple[str, ...], list[tuple[str | None, ...]]] = {}


def _candidates(names: tuple[str, ...]) -> list[tuple[str | None, ...]]:
    made = _CANDIDATES.get(names)
    if made is None:
        count = len(names)
        made = [(None,)]
        for mask in range(1, 1 << count):
            made.append(tuple(names[q] for q in range(count) if mask >> q & 1))
        made.append(())
        if len(_CANDIDATES) >= 64:
            _CANDIDATES.clear()
        _CANDIDATES[names] = made
    return made


def _thief_actions(state: State, player: str, p: int, *, pirate: bool) -> list[Action]:
    """move_robber / move_pirate: every other hex of its kind, with each candidate (X17): the
    other players with a card and a building on a corner (robber) or a ship on a side (pirate)
    — `game.robber_victims`, gathered here from the pieces in one pass."""
    board = state.board
    kind = "move_pirate" if pirate else "move_robber"
    here = state.pirate if pirate else state.robber
    # hex -> its candidates, one bit each; a list by hex id, not a dict
    around = [0] * len(board.hexes)
    count = len(state.players)
    for q in range(count):
        if q == p or not any(state.hands[q]):
            continue
        bit = 1 << q
        if pirate:
            piece = state.edge_piece
            edge_hexes = board.edge_hexes
            for e in state.player_edges[q]:
                if piece[e] == SHIP:
                    for h in edge_hexes[e]:
                        around[h] |= bit
        else:
            node_hexes = board.node_hexes
            for n in state.player_nodes[q]:
                for h in node_hexes[n]:
                    around[h] |= bit
    if here is not None:
        around[here] = 1 << count  # where it stands: no move
    listed = _candidates(state.players)
    # One comprehension over the hexes of the kind, in the board's order (about 90 on the
    # bundled board, listed after every 7 and Knight): a move per candidate, or the move alone.
    return [
        {"type": kind, "player": player, "hex": hid}
        if victim is None
        else {"type": kind, "player": player, "hex": hid, "steal_from": victim}
        for h, hid in (board.sea_hexes if pirate else board.land_hexes)
        for victim in listed[around[h]]
    ]


def _movable(
    state: State, p: int, ship_at: dict[int, list[int]], pirate: frozenset[int]
) -> list[int]:
    """`game.movable` over the player's ships, in their order: not placed this turn (SR9), not
    on a closed route (X5), not on the pirate's edges (X18), with an open end — a node with no
    own building and no other own ship (X6)."""
    piece = state.edge_piece
    new = state.ship_new
    closed = state.ship_closed
    owner = state.node_owner
    edge_nodes = state.board.edge_nodes
    out = []
    for e in state.player_edges[p]:
        if piece[e] != SHIP or e in new or e in closed or e in pirate:
            continue
        a, b = edge_nodes[e]
        if (owner[a] != p and len(ship_at[a]) == 1) or (owner[b] != p and len(ship_at[b]) == 1):
            out.append(e)
    return out


def listing_for(state: State, p: int) -> Listing:
    """The player's attached edges in order, and the targets a ship may be moved to — not land,
    attached for a ship, each with the one ship that alone attaches it (NONE for none: an own
    building there, or several ships). Kept in the state until a write changes where the
    player's pieces reach (reach.py clears it); the pirate is left to the caller (X18)."""
    kept = state.listing[p]
    if kept is not None:
        return kept
    kinds = state.board.edge_kind
    edge_nodes = state.board.edge_nodes
    attach = state.attach[p]
    ship_at = state.ship_at[p]
    owner = state.node_owner
    edges = tuple(sorted(attach))
    targets = []
    for t in edges:
        if not attach[t] & 2 or kinds[t] == LAND:
            continue
        a, b = edge_nodes[t]
        only = NONE
        owner_a, owner_b = owner[a], owner[b]
        if owner_a != p and owner_b != p:  # no own building: attached by ships alone
            at_a = ship_at.get(a) if owner_a == NONE else None
            at_b = ship_at.get(b) if owner_b == NONE else None
            if at_a is None:
                at_a, at_b = at_b, None
            if at_a is not None and at_b is None and len(at_a) == 1:
                only = at_a[0]
        targets.append((t, only))
    kept = state.listing[p] = (edges, tuple(targets))
    return kept


def _ship_moves(
    player: str,
    movable: list[int],
    targets: tuple[tuple[int, int], ...],
    pirate: frozenset[int],
    names: tuple[tuple[str, str], ...],
    out: list[Action],
) -> None:
    """move_ship: each movable ship to each edge a ship may go without it (X7, X18): empty,
    not land, not on the pirate's hex, attached by an own building, or by own ships other
    than the one lifted (`game._route_checks` with `without`): a target attached by one ship
    alone, at a node with no building, is no target for that ship."""
    where = [(only, list(names[t])) for t, only in targets if t not in pirate]
    append = out.append
    for e in movable:
        source = list(names[e])
        for only, to in where:
            if only != e:
                append({"type": "move_ship", "player": player, "from": source, "to": to})
