"""Every action of the table (seafarers-format.md "Actions"): checked, then applied.

`apply_action(state, action)` runs the general checks of X25 in the format's order, then the
action's own checks in the table's order; the first failing one raises `Refused` with its code
and nothing has changed. Only then does the action write, and return its events. Each `_check_*`
is pure and returns a closure that applies the action, so `legal_actions` runs the very same
checks (legal.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.seafarers import reach
from engine.seafarers.board import (
    GOLD,
    GOLD_YIELD,
    LAND,
    NO_EDGES,
    RESOURCE_OF,
    SEA,
    Board,
    is_edge_shape,
)
from engine.seafarers.chance import seeded_roll, seeded_steal
from engine.seafarers.refusals import Refused
from engine.seafarers.routes import (
    after_pendant,
    close_lines,
    holder_after,
    longest_route,
    split_node,
)
from engine.seafarers.rules import (
    COST_CITY,
    COST_DEV,
    COST_ROAD,
    COST_SETTLEMENT,
    COST_SHIP,
    RESOURCES,
)
from engine.seafarers.state import CITY, NONE, ROAD, SETTLEMENT, SETUP_PHASES, SHIP, State

Event = dict[str, Any]
Apply = Callable[[list[Event]], None]
FastApply = Callable[[State, int, dict[str, Any], list[Event]], None]

RES_INDEX = {r: i for i, r in enumerate(RESOURCES)}

# type -> (required keys, optional keys)
SHAPES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "roll": ((), ("dice",)),
    "discard": (("cards",), ()),
    "move_robber": (("hex",), ("steal_from",)),
    "move_pirate": (("hex",), ("steal_from",)),
    "pick_gold": (("take",), ()),
    "build_road": (("edge",), ()),
    "build_ship": (("edge",), ()),
    "move_ship": (("from", "to"), ()),
    "build_settlement": (("node",), ()),
    "build_city": (("node",), ()),
    "buy_dev_card": ((), ()),
    "play_knight": ((), ()),
    "play_road_building": ((), ()),
    "end_road_building": ((), ()),
    "play_year_of_plenty": (("take",), ()),
    "play_monopoly": (("resource",), ()),
    "maritime_trade": (("give", "get"), ()),
    "domestic_trade": (("with", "give", "get"), ()),
    "end_turn": ((), ()),
    "award_svp": (("node", "points"), ()),
}
COMMON_KEYS = ("type", "player", "by_moderator")
# The phases each action is taken in (the table's "phase" column).
PHASES: dict[str, frozenset[str]] = {
    "roll": frozenset({"roll"}),
    "discard": frozenset({"discard"}),
    "move_robber": frozenset({"robber"}),
    "move_pirate": frozenset({"robber"}),
    "pick_gold": frozenset({"gold"}),
    "build_road": frozenset({"action", "road_building", "setup_route"}),
    "build_ship": frozenset({"action", "road_building", "setup_route"}),
    "move_ship": frozenset({"action"}),
    "build_settlement": frozenset({"action", "setup_settlement"}),
    "build_city": frozenset({"action"}),
    "buy_dev_card": frozenset({"action"}),
    "play_knight": frozenset({"roll", "action"}),
    "play_road_building": frozenset({"roll", "action"}),
    "end_road_building": frozenset({"road_building"}),
    "play_year_of_plenty": frozenset({"roll", "action"}),
    "play_monopoly": frozenset({"roll", "action"}),
    "maritime_trade": frozenset({"action"}),
    "domestic_trade": frozenset({"action"}),
    "end_turn": frozenset({"action"}),
}
CARD_OF = {
    "play_knight": "knight",
    "play_road_building": "road_building",
    "play_year_of_plenty": "year_of_plenty",
    "play_monopoly": "monopoly",
}
CARD_WORDS = {
    "knight": "Knight",
    "road_building": "Road Building",
    "year_of_plenty": "Year of Plenty",
    "monopoly": "Monopoly",
    "victory_point": "Victory Point",
}


def _invalid(message: str) -> Refused:
    return Refused("invalid_action", message)


def _counts(value: object, key: str) -> tuple[int, ...]:
    """A resource → count object; zeros dropped (format "Actions")."""
    if not isinstance(value, dict):
        raise _invalid(f"{key} must be an object of resource counts")
    counts = [0] * 5
    for name, count in value.items():
        if name not in RES_INDEX:
            raise _invalid(f"{name!r} is not a resource (brick, wood, wool, grain, ore)")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise _invalid(f"{key}.{name} must be a whole number, 0 or more")
        counts[RES_INDEX[name]] = count
    return tuple(counts)


def _names(counts: tuple[int, ...] | list[int]) -> dict[str, int]:
    return {RESOURCES[i]: c for i, c in enumerate(counts) if c}


def _words(counts: tuple[int, ...] | list[int]) -> str:
    return ", ".join(f"{c} {RESOURCES[i]}" for i, c in enumerate(counts) if c) or "nothing"


def _cards(n: int) -> str:
    """A count of cards in words for a refusal's message ("1 card", "3 cards"): the message is
    plain words (seafarers-format.md "Result"), its code the contract."""
    return f"{n} card" if n == 1 else f"{n} cards"


def _keys_of(kind: str, keys: tuple[str, ...]) -> tuple[str, ...]:
    required, optional = SHAPES[kind]
    return tuple(key for key in keys if key in required or key in optional)


# Per type, its allowed keys and those of them each shape test below looks at, in the tests'
# order: a key a type does not allow is refused before these tests, so they need look no further.
ALLOWED = {kind: frozenset((*COMMON_KEYS, *req, *opt)) for kind, (req, opt) in SHAPES.items()}
EDGE_KEYS = {kind: _keys_of(kind, ("edge", "from", "to")) for kind in SHAPES}
STRING_KEYS = {kind: _keys_of(kind, ("node", "hex", "steal_from", "with")) for kind in SHAPES}
COUNT_KEYS = {kind: _keys_of(kind, ("cards", "take", "give", "get")) for kind in SHAPES}


def check_shape(action: object) -> None:
    """X25 first: a bad shape is `invalid_action`."""
    if not isinstance(action, dict):
        raise _invalid("an action must be an object")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in SHAPES:
        raise _invalid(f"unknown action type {kind!r}")
    required = SHAPES[kind][0]
    allowed = ALLOWED[kind]
    for key in action:
        if key not in allowed:
            raise _invalid(f"{kind} has no key {key!r}")
    if not isinstance(action.get("player"), str):
        raise _invalid("the action must name its player")
    if "by_moderator" in action and not isinstance(action["by_moderator"], bool):
        raise _invalid("by_moderator must be true or false")
    for key in required:
        if key not in action:
            raise _invalid(f"{kind} needs {key!r}")
    for key in EDGE_KEYS[kind]:
        if key in action and not is_edge_shape(action[key]):
            raise _invalid(f"{key} must be an edge: 'q,r,D' or a pair of nodes")
    for key in STRING_KEYS[kind]:
        if key in action and not isinstance(action[key], str):
            raise _invalid(f"{key} must be a string")
    for key in COUNT_KEYS[kind]:
        if key in action:
            _counts(action[key], key)
    if "dice" in action:
        dice = action["dice"]
        if (
            not isinstance(dice, list)
            or len(dice) != 2
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)
        ):
            raise _invalid("dice must be a pair of numbers 1–6")
    if kind == "play_monopoly" and (
        not isinstance(action["resource"], str) or action["resource"] not in RES_INDEX
    ):
        raise _invalid(f"{action['resource']!r} is not a resource")
    if kind == "award_svp":
        points = action["points"]
        if not isinstance(points, int) or isinstance(points, bool) or points < 1:
            raise _invalid("points must be a whole number, 1 or more")


# `action: Any` in the three entry points below: whatever a person or a file sends arrives here
# and is refused by `check_shape` (invalid_action); an annotated dict would be checked by the
# compiled build (tools/compile_engine.py) at the call, a TypeError before any refusal.
def check(state: State, action: Any) -> Apply:
    """Every check of X25 in order; returns what applies the action."""
    check_shape(action)
    kind = action["type"]
    if state.phase == "over":
        raise Refused("game_over", "the game is over")
    name = action["player"]
    p = state.pindex.get(name)
    if p is None:
        raise Refused("unknown_player", f"{name!r} is not a player in this game")
    if kind in ("discard", "pick_gold"):
        wanted = "discard" if kind == "discard" else "gold"
        if state.phase != wanted:
            raise Refused(
                "wrong_phase",
                f"nobody is {'discarding' if kind == 'discard' else 'picking gold'} now",
            )
        owed = state.discard[p] if kind == "discard" else state.gold_picks[p]
        if not owed:
            raise Refused(
                "nothing_pending",
                f"{name} owes no {'discard' if kind == 'discard' else 'gold pick'}",
            )
    elif kind != "award_svp":
        if p != state.player:
            raise Refused(
                "not_your_turn", f"it is {state.players[state.player]}'s turn, not {name}'s"
            )
        if state.phase not in PHASES[kind]:
            raise Refused("wrong_phase", f"{kind} cannot be done in the {state.phase} phase")
    return CHECKS[kind](state, p, action)


def apply_action(state: State, action: Any) -> list[Event]:
    """Check, then apply (X25); raises `Refused` leaving the state as it was."""
    applier = check(state, action)
    state.listed = None
    events: list[Event] = []
    applier(events)
    return _finish(state, action, events)


def apply_listed(state: State, action: Any) -> list[Event]:
    """`apply_action` without the checks, for an action `legal_actions(state, …)` has just
    listed for this very state (the same dict, unchanged): the playouts' path (the bench).
    Anything else — an action a person or a file sends, a copy, a list made before the last
    action — is not in the state's last list and goes through `apply_action`, checks and
    refusals as the format orders them (X25). The same writes and events as `apply_action`:
    both run the same appliers (tests/engine/seafarers/test_fast.py plays each game both ways).
    """
    listed = state.listed
    if listed is not None:
        for candidate in listed:
            if candidate is action:
                fast = FAST.get(action["type"])
                if fast is None:  # a card: rare, checked
                    break
                state.listed = None
                events: list[Event] = []
                fast(state, state.pindex[action["player"]], action, events)
                return _finish(state, action, events)
    return apply_action(state, action)


def _finish(state: State, action: dict[str, Any], events: list[Event]) -> list[Event]:
    """After the applier: each event names its player, then the win (X20)."""
    name = state.players[state.pindex[action["player"]]]
    for event in events:
        if "player" not in event and event["type"] != "stolen":
            event["player"] = name
    _check_win(state, events)
    if action.get("by_moderator"):
        for event in events:
            event["by_moderator"] = True
    return events


# -- names ------------------------------------------------------------------------------------
def _node(state: State, value: object) -> int:
    n = state.board.node_of(value)
    if n is None:
        raise Refused("unknown_node", f"{value} is no node of this board")
    return n


def _edge(state: State, value: object) -> int:
    e = state.board.edge_of(value)
    if e is None:
        shown = value if isinstance(value, str) else "–".join(str(v) for v in value)  # type: ignore[attr-defined]
        raise Refused("unknown_edge", f"{shown} is no edge of this board")
    return e


def _hex(state: State, value: object) -> int:
    h = state.board.hex_of(value)
    if h is None:
        raise Refused("unknown_hex", f"{value} is no hex of this board")
    return h


def _other(state: State, value: str) -> int:
    q = state.pindex.get(value)
    if q is None:
        raise Refused("unknown_player", f"{value!r} is not a player in this game")
    return q


def _pay(state: State, p: int, cost: tuple[int, ...]) -> None:
    hand = state.hands[p]
    for i, c in enumerate(cost):
        hand[i] -= c
        state.bank[i] += c


def _afford(state: State, p: int, cost: tuple[int, ...], what: str) -> None:
    hand = state.hands[p]
    if any(hand[i] < c for i, c in enumerate(cost)):
        raise Refused(
            "insufficient_resources",
            f"{state.players[p]} needs {_words(cost)} for {what} and holds {_words(hand)}",
        )


# -- placement (X1, X2, X3, X18) ------------------------------------------------------------
def attached(state: State, p: int, e: int, piece: int, without: int = NONE) -> bool:
    """X2: a road (ship) is attached at a node holding an own building, or an own road (ship)
    on another edge and no other player's building (SH4–SH6, B7). Ships do at sea what roads
    do on land (SH9), and from a new settlement either may set out (SH13)."""
    board = state.board
    for n in board.edge_nodes[e]:
        owner = state.node_owner[n]
        if owner == p:
            return True
        if owner != NONE:
            continue
        for f in board.node_edges[n]:
            if (
                f != e
                and f != without
                and state.edge_owner[f] == p
                and state.edge_piece[f] == piece
            ):
                return True
    return False


def on_pirate(state: State, e: int) -> bool:
    """X18: one of the six edges of the pirate's hex."""
    return state.pirate is not None and e in state.board.hex_edge_sets[state.pirate]


def _route_checks(state: State, p: int, e: int, piece: int, without: int = NONE) -> None:
    """The first checks of build_road / build_ship (and of move_ship's `to`)."""
    board = state.board
    label = board.edge_label  # a place's name, only for a refusal's message
    kind = board.edge_kind[e]
    if piece == ROAD and kind == SEA:
        raise Refused(
            "not_land_edge",
            f"{label(e)} is a sea edge: a road goes on land or the coast",
        )
    if piece == SHIP and kind == LAND:
        raise Refused(
            "not_sea_edge",
            f"{label(e)} is a land edge: a ship goes on the sea or the coast",
        )
    if state.edge_piece[e] and e != without:
        raise Refused(
            "edge_occupied",
            f"{label(e)} already holds a {'road' if state.edge_piece[e] == ROAD else 'ship'}",
        )
    if piece == SHIP and on_pirate(state, e):
        raise Refused("pirate_blocks", f"the pirate lies next to {label(e)}")
    if state.phase == "setup_route":
        if state.setup_node not in board.edge_nodes[e]:
            node = board.node_names[state.setup_node] if state.setup_node is not None else "?"
            raise Refused("not_connected", f"the setup piece must touch the settlement on {node}")
    elif not attached(state, p, e, piece, without):
        what = "road" if piece == ROAD else "ship"
        raise Refused(
            "not_connected",
            f"{label(e)} joins no building, and no {what}, of {state.players[p]}",
        )


def can_place(state: State, p: int, e: int, piece: int) -> bool:
    """A legal free placement (supply and cost aside)."""
    try:
        _route_checks(state, p, e, piece)
    except Refused:
        return False
    return True


def _check_build_route(piece: int) -> Callable[[State, int, dict[str, Any]], Apply]:
    def checker(state: State, p: int, action: dict[str, Any]) -> Apply:
        e = _edge(state, action["edge"])
        _route_checks(state, p, e, piece)
        what = "road" if piece == ROAD else "ship"
        left = (
            (state.rules.roads - state.roads[p])
            if piece == ROAD
            else (state.rules.ships - state.ships[p])
        )
        if left <= 0:
            raise Refused("no_pieces_left", f"{state.players[p]} has no {what} left")
        free = state.phase != "action"
        cost = COST_ROAD if piece == ROAD else COST_SHIP
        if not free:
            _afford(state, p, cost, f"a {what}")

        def apply(events: list[Event]) -> None:
            _build_route(state, p, e, piece, free, events)

        return apply

    return checker


def _meets_none(state: State, p: int, n: int, piece: int, without: int = NONE) -> bool:
    """No other piece of p meets a piece of that kind at `n` (a pendant's free end in the
    routes' split network): not an own building, and another player's building or no own
    piece of the kind there but `without`."""
    owner = state.node_owner[n]
    if owner == p:
        return False
    if owner != NONE:
        return True
    here = state.ship_at[p].get(n) if piece == SHIP else state.road_at[p].get(n)
    if not here:
        return True
    return piece == SHIP and here == [without]


def _pendant(
    state: State, p: int, e: int, piece: int, without: int = NONE
) -> tuple[bool, int | None]:
    """Before a piece of p is laid on `e` (`without`: the ship being lifted): whether it will
    be a pendant of the routes' split network, and the node it hangs from (None: neither end
    meets a piece of p)."""
    a, b = state.board.edge_nodes[e]
    free_a = _meets_none(state, p, a, piece, without)
    free_b = _meets_none(state, p, b, piece, without)
    if free_a and free_b:
        return True, None
    if free_a or free_b:
        return True, split_node(state, p, b if free_a else a, piece)
    return False, None


def _build_route(state: State, p: int, e: int, piece: int, free: bool, events: list[Event]) -> None:
    if not free:
        _pay(state, p, COST_ROAD if piece == ROAD else COST_SHIP)
    pendant, grown = _pendant(state, p, e, piece)
    _place_route(state, p, e, piece)
    events.append(
        {
            "type": "built",
            "piece": "road" if piece == ROAD else "ship",
            "edge": state.board.edge_name(e),
            "free": free,
        }
    )
    if pendant:  # X5: no line ends at its free end; X10: a cheaper search (routes.py)
        _after_pendant(state, p, e, grown, None, False, events)
    else:
        _after_placing(state, p, events, ships=piece == SHIP)
    if state.phase == "setup_route":
        _next_setup(state, events)
    elif state.phase == "road_building":
        state.free_pieces -= 1
        if state.free_pieces == 0 or not _any_free_placement(state, p):
            _end_road_building(state, events)


def _place_route(state: State, p: int, e: int, piece: int) -> None:
    state.edge_owner[e] = p
    state.edge_piece[e] = piece
    state.player_edges[p].append(e)
    reach.placed(state, p, e, piece)
    if piece == ROAD:
        state.roads[p] += 1
    else:
        state.ships[p] += 1
        state.ship_new.add(e)  # SR9, X8: placed this turn


def _any_free_placement(state: State, p: int) -> bool:
    """X15: a legal edge for a road with a road in supply, or for a ship with a ship — never
    asked in setup, so `can_place` on every empty edge, which says the same as the empty
    edges attached for the piece that reach.py keeps (`attach`, X2) with their kinds and the
    pirate (X1, X18): those are read instead (tests/engine/seafarers/invariants.py holds the
    two equal)."""
    roads = state.rules.roads > state.roads[p]
    ships = state.rules.ships > state.ships[p]
    if not roads and not ships:
        return False
    kinds = state.board.edge_kind
    pirate = state.board.hex_edge_sets[state.pirate] if state.pirate is not None else NO_EDGES
    for e, how in state.attach[p].items():
        if roads and how & 1 and kinds[e] != SEA:
            return True
        if ships and how & 2 and kinds[e] != LAND and e not in pirate:
            return True
    return False


def _after_placing(
    state: State,
    p: int,
    events: list[Event],
    *,
    ships: bool,
    cut: int = NONE,
    moved: bool = False,
) -> None:
    """X5 closed lines, then X10: the routes of every player recalculated at once (`cut`: the
    node of a new settlement, which may cut other players' routes). The player's own route
    is searched from a length it is known to reach (`state.routes` always holds each player's
    route: recomputed at load and after every change to it): a new piece or an own building
    only lengthens it (every trail stays a trail); a `moved` ship shortens it by one at most —
    it was lifted from an open end (X6), where no other own ship and no own building meets it,
    so it ended any trail it was in — and the ship laid down only lengthens it again."""
    if ships or cut != NONE:
        newly = close_lines(state, p)
        if newly:
            state.ship_closed.update(newly)
            events.append(
                {"type": "route_closed", "ships": [state.board.edge_name(e) for e in newly]}
            )
    known = state.routes[p] - 1 if moved else state.routes[p]
    state.routes[p] = longest_route(state, p, max(known, 0), adj=state.split[p])
    if cut != NONE:  # a settlement can cut other players' routes (LR14); only theirs can shrink
        # A route depends only on its player's pieces and the owners of their nodes: only a
        # player with a piece at the new settlement's node can see their route change (X10).
        touching = {state.edge_owner[e] for e in state.board.node_edges[cut]}
        for q in range(len(state.players)):
            if q != p and q in touching:
                state.routes[q] = longest_route(state, q, adj=state.split[q])
    _update_longest(state, events)


def _after_pendant(
    state: State,
    p: int,
    e: int,
    grown: int | None,
    lifted: int | None,
    moved: bool,
    events: list[Event],
) -> None:
    """`_after_placing` for a new piece with a free end (`_pendant`): no line of ships can
    pass it (X5), and the route is found from the lengths ending at its nodes, with a search
    bounded by the old route only when a moved ship's old place may have carried it
    (`routes.after_pendant`, X10)."""
    state.routes[p] = after_pendant(state, p, e, grown, lifted, moved)
    _update_longest(state, events)


def _update_longest(state: State, events: list[Event]) -> None:
    new = holder_after(state, state.longest)
    if new != state.longest:
        events.append(
            {
                "type": "longest_route",
                "from": None if state.longest == NONE else state.players[state.longest],
                "to": None if new == NONE else state.players[new],
                "lengths": {state.players[q]: state.routes[q] for q in range(len(state.players))},
            }
        )
        state.longest = new


# -- move_ship (SR1 … SR9, SH2, X5–X8, X18) --------------------------------------------------
# SR1 SR2 SR3: ships, unlike roads, can be relocated under these rules; a row of ships is a
# shipping route; SR6: one that does not link two own buildings is open, and only its foremost
# ship moves (X6).
def open_end(state: State, p: int, e: int) -> bool:
    """X6: a node of the ship with no own building and no other own ship."""
    board = state.board
    edge_owner = state.edge_owner
    piece = state.edge_piece
    for n in board.edge_nodes[e]:
        if state.node_owner[n] == p:
            continue
        for f in board.node_edges[n]:
            if f != e and edge_owner[f] == p and piece[f] == SHIP:
                break
        else:
            return True
    return False


def movable(state: State, p: int, e: int) -> bool:
    """The snapshot's `movable`: not new, not closed, an open end, not on the pirate's edges."""
    return (
        state.edge_owner[e] == p
        and state.edge_piece[e] == SHIP
        and e not in state.ship_new
        and e not in state.ship_closed
        and open_end(state, p, e)
        and not on_pirate(state, e)
    )


def _check_move_ship(state: State, p: int, action: dict[str, Any]) -> Apply:
    source = _edge(state, action["from"])
    target = _edge(state, action["to"])
    board = state.board
    label = board.edge_label  # a place's name, only for a refusal's message
    name = state.players[p]
    if state.edge_owner[source] != p or state.edge_piece[source] != SHIP:
        raise Refused("no_such_ship", f"{name} has no ship on {label(source)}")
    if state.ship_moved:
        raise Refused("already_moved_ship", f"{name} has already moved a ship this turn (SR8)")
    if source in state.ship_new:
        raise Refused(
            "ship_built_this_turn",
            f"{name}'s ship on {label(source)} was placed this turn (SR9)",
        )
    if source in state.ship_closed:
        raise Refused("route_closed", f"{name}'s ship {label(source)} lies on a closed route")
    if not open_end(state, p, source):
        raise Refused(
            "no_open_end",
            f"{name}'s ship {label(source)} is not the foremost ship of its route",
        )
    if on_pirate(state, source):
        raise Refused("pirate_blocks", f"the pirate lies next to {label(source)}")
    if target == source:
        raise Refused("same_edge", f"the ship already lies on {label(source)}")
    _route_checks(state, p, target, SHIP, without=source)

    def apply(events: list[Event]) -> None:
        _move_ship(state, p, source, target, events)

    return apply


def _move_ship(state: State, p: int, source: int, target: int, events: list[Event]) -> None:
    board = state.board
    # Before the move: the lifted ship's end that meets other pieces (it has an open end,
    # X6, but an end at another player's building meets nothing either), and the target's.
    a, b = board.edge_nodes[source]
    free_a = _meets_none(state, p, a, SHIP, source)
    free_b = _meets_none(state, p, b, SHIP, source)
    lifted = None if free_a == free_b else split_node(state, p, b if free_a else a, SHIP)
    pendant, grown = _pendant(state, p, target, SHIP, source)
    pendant = pendant and (free_a or free_b)
    state.edge_owner[source] = NONE
    state.edge_piece[source] = 0
    edges = state.player_edges[p]
    edges.remove(source)
    reach.lifted(state, p, source)
    state.edge_owner[target] = p
    state.edge_piece[target] = SHIP
    edges.append(target)
    reach.placed(state, p, target, SHIP)
    state.ship_moved = True
    events.append(
        {"type": "ship_moved", "from": board.edge_name(source), "to": board.edge_name(target)}
    )
    if pendant:
        _after_pendant(state, p, target, grown, lifted, True, events)
    else:
        _after_placing(state, p, events, ships=True, moved=True)


# -- buildings ------------------------------------------------------------------------------
def _check_settlement(state: State, p: int, action: dict[str, Any]) -> Apply:
    n = _node(state, action["node"])
    board = state.board
    label = board.node_names[n]
    name = state.players[p]
    setup = state.phase == "setup_settlement"
    if not board.is_land_node[n]:
        raise Refused("not_land_node", f"{label} is not on land")
    if state.node_owner[n] != NONE:
        raise Refused("node_occupied", f"{label} already holds a building")
    for m in board.node_neighbours[n]:
        if state.node_owner[m] != NONE:
            raise Refused(
                "distance_rule", f"{label} is next to the building on {board.node_names[m]} (B4)"
            )
    if setup:
        allowed = state.rules.setup_islands
        if allowed is not None and board.node_island[n] not in allowed:
            raise Refused(
                "wrong_island",
                f"setup settlements go on {', '.join(allowed)}, and {label} is not there",
            )
    elif not any(state.edge_owner[e] == p for e in board.node_edges[n]):
        raise Refused("not_connected", f"no road or ship of {name} touches {label} (X3)")
    if state.settlements[p] >= state.rules.settlements:
        raise Refused("no_pieces_left", f"{name} has no settlement left")
    if not setup:
        _afford(state, p, COST_SETTLEMENT, "a settlement")

    def apply(events: list[Event]) -> None:
        _build_settlement(state, p, n, setup, events)

    return apply


def _build_settlement(state: State, p: int, n: int, setup: bool, events: list[Event]) -> None:
    board = state.board
    label = board.node_names[n]
    if not setup:
        _pay(state, p, COST_SETTLEMENT)
    state.node_owner[n] = p
    state.player_nodes[p].append(n)
    reach.settled(state, p, n)
    state.node_level[n] = SETTLEMENT
    state.settlements[p] += 1
    events.append({"type": "built", "piece": "settlement", "node": label, "free": setup})
    island = board.node_island[n]
    if setup:
        if island is not None and island not in state.home_islands[p]:
            state.home_islands[p].append(island)
    elif (
        island is not None
        and state.rules.svp_new_island > 0
        and island not in state.home_islands[p]
        and not any(t[2] == island for t in state.svp[p])
    ):  # X19, PV1–PV4
        points = state.rules.svp_new_island
        state.svp[p].append((n, points, island))
        events.append({"type": "svp_awarded", "node": label, "points": points, "island": island})
    _after_placing(state, p, events, ships=True, cut=n)
    if setup:
        state.setup_node = n
        state.phase = "setup_route"
        if state.setup_round == 2:
            _setup_resources(state, p, n, events)


def _setup_resources(state: State, p: int, n: int, events: list[Event]) -> None:
    """B20: one card from each adjacent producing land hex (a short bank gives what it has);
    X13: a gold hex owes a pick, made before the road or ship."""
    board = state.board
    cards = [0] * 5
    gold = 0
    for h in board.node_hexes[n]:
        terrain = board.hexes[h].terrain
        if terrain in RESOURCE_OF:
            r = RESOURCE_OF[terrain]
            if state.bank[r] > cards[r]:
                cards[r] += 1
        elif terrain == GOLD:
            gold += 1
    if any(cards):
        for i, c in enumerate(cards):
            state.bank[i] -= c
            state.hands[p][i] += c
        events.append({"type": "setup_resources", "cards": _names(cards)})
    gold = min(gold, sum(state.bank))
    if gold:
        state.gold_picks[p] = gold
        events.append({"type": "gold_owed", "count": gold})
        state.phase = "gold"
        state.resume = "setup_route"


def _check_city(state: State, p: int, action: dict[str, Any]) -> Apply:
    n = _node(state, action["node"])
    label = state.board.node_names[n]
    name = state.players[p]
    if state.node_owner[n] != p or state.node_level[n] != SETTLEMENT:
        raise Refused("not_own_settlement", f"{name} has no settlement on {label}")
    if state.cities[p] >= state.rules.cities:
        raise Refused("no_pieces_left", f"{name} has no city left")
    _afford(state, p, COST_CITY, "a city")

    def apply(events: list[Event]) -> None:
        _build_city(state, p, n, events)

    return apply


def _build_city(state: State, p: int, n: int, events: list[Event]) -> None:
    _pay(state, p, COST_CITY)
    state.node_level[n] = CITY
    state.settlements[p] -= 1  # B6: the settlement goes back to supply
    state.cities[p] += 1
    events.append(
        {"type": "built", "piece": "city", "node": state.board.node_names[n], "free": False}
    )
    # X10 needs no recomputation: the node keeps its owner, so no route and no line changes.


# -- setup (B20, SU1, X14) ------------------------------------------------------------------
def _next_setup(state: State, events: list[Event]) -> None:
    """After the setup piece: the next player in snake order, or the first turn."""
    count = len(state.players)
    state.setup_node = None
    if state.setup_round == 1:
        if state.player + 1 < count:
            state.player += 1
        else:
            state.setup_round = 2
        state.phase = "setup_settlement"
        return
    if state.player > 0:
        state.player -= 1
        state.phase = "setup_settlement"
        return
    state.setup_round = None
    _start_turn(state, 0, events)


def _start_turn(state: State, p: int, events: list[Event]) -> None:
    state.player = p
    state.number += 1
    state.phase = "roll"
    state.dev_card_played = False
    state.ship_moved = False
    state.ship_new.clear()
    for q, cards in enumerate(state.dev_cards):
        for _, new in cards:
            if new:
                state.dev_cards[q] = [(card, False) for card, _ in cards]
                break
    events.append({"type": "turn_started", "number": state.number})


def _check_end_turn(state: State, p: int, action: dict[str, Any]) -> Apply:
    def apply(events: list[Event]) -> None:
        _end_turn(state, p, events)

    return apply


def _end_turn(state: State, p: int, events: list[Event]) -> None:
    events.append({"type": "turn_ended", "number": state.number})
    _start_turn(state, (p + 1) % len(state.players), events)


def _check_win(state: State, events: list[Event]) -> None:
    """X20, PV5: the current player, during his own turn, never in setup."""
    phase = state.phase
    if phase == "over" or phase in SETUP_PHASES or (phase == "gold" and state.in_setup()):
        return  # (`in_setup` called only in a gold pick: this runs after every action)
    p = state.player
    points = state.vp(p)
    if points >= state.rules.victory_points:
        state.phase = "over"
        state.resume = None
        state.winner = p
        events.append({"type": "won", "player": state.players[p], "vp": points})


# -- the roll, production, gold, 7s (B9–B11, GD4, X13, X17) ---------------------------------
def _check_roll(state: State, p: int, action: dict[str, Any]) -> Apply:
    def apply(events: list[Event]) -> None:
        _roll(state, action, events)

    return apply


def _roll(state: State, action: dict[str, Any], events: list[Event]) -> None:
    if "dice" in action:
        dice = (action["dice"][0], action["dice"][1])
    elif state.dice_used < len(state.dice_script):
        dice = state.dice_script[state.dice_used]
        state.dice_used += 1
    else:
        dice = seeded_roll(state.seed or 0, state.rolls)
    state.rolls += 1
    total = dice[0] + dice[1]
    events.append({"type": "rolled", "dice": [dice[0], dice[1]], "total": total})
    if total == 7:
        _seven(state, events)
    else:
        _produce(state, total, events)


def _produce(state: State, total: int, events: list[Event]) -> None:
    """B9: each building on a hex of the number, the robber's hex aside; B10: a short bank
    pays nobody that resource, unless only one player is owed it (who gets what is left);
    GD4, X13: a gold field owes picks, from what the bank holds after production."""
    owed: dict[int, list[int]] = {}  # player -> cards, only for those owed any
    picks: dict[int, int] = {}
    due = [0, 0, 0, 0, 0]  # all the owed cards of each resource
    robber = state.robber
    node_owner = state.node_owner
    level = state.node_level
    for h, r, nodes in state.board.production.get(total, ()):
        if h == robber:
            continue  # B9, X13: the robber blocks its hex
        for n in nodes:
            q = node_owner[n]
            if q == NONE:
                continue
            if r == GOLD_YIELD:
                picks[q] = picks.get(q, 0) + level[n]  # 1 settlement, 2 city
            else:
                cards = owed.get(q)
                if cards is None:
                    cards = owed[q] = [0, 0, 0, 0, 0]
                cards[r] += level[n]
                due[r] += level[n]
    bank = state.bank
    if owed:
        for r in range(5):
            if due[r] > bank[r]:  # B10
                owed_players = [q for q in sorted(owed) if owed[q][r]]
                if len(owed_players) == 1:
                    owed[owed_players[0]][r] = bank[r]
                else:
                    for q in owed_players:
                        owed[q][r] = 0
        for q in sorted(owed) if len(owed) > 1 else owed:
            cards = owed[q]
            hand = state.hands[q]
            paid: dict[str, int] = {}
            for r in range(5):
                c = cards[r]
                if c:
                    hand[r] += c
                    bank[r] -= c
                    paid[RESOURCES[r]] = c
            if paid:
                events.append({"type": "produced", "player": state.players[q], "cards": paid})
    state.phase = "action"
    if picks:
        left = sum(bank)  # X13: from what the bank holds after production
        if sum(picks.values()) > left:
            picks = dict.fromkeys(picks, left) if len(picks) == 1 else {}
        for q in sorted(picks):
            if picks[q]:
                state.gold_picks[q] = picks[q]
                events.append({"type": "gold_owed", "player": state.players[q], "count": picks[q]})
        if any(picks.values()):
            state.phase = "gold"
            state.resume = "action"


def _seven(state: State, events: list[Event]) -> None:
    """B11: discards first, then the robber or the pirate (X17)."""
    limit = state.rules.discard_limit
    state.resume = "action"
    any_owed = False
    for q, hand in enumerate(state.hands):
        held = sum(hand)
        if held > limit:
            state.discard[q] = held // 2
            any_owed = True
            events.append({"type": "discard_owed", "player": state.players[q], "count": held // 2})
    state.phase = "discard" if any_owed else "robber"


def _check_discard(state: State, p: int, action: dict[str, Any]) -> Apply:
    cards = _counts(action["cards"], "cards")
    owed = state.discard[p]
    name = state.players[p]
    if sum(cards) != owed:
        raise Refused("wrong_count", f"{name} must discard {_cards(owed)}, not {sum(cards)}")
    if any(state.hands[p][i] < c for i, c in enumerate(cards)):
        raise Refused(
            "insufficient_resources", f"{name} holds {_words(state.hands[p])}, not {_words(cards)}"
        )

    def apply(events: list[Event]) -> None:
        _discard(state, p, cards, events)

    return apply


def _discard(state: State, p: int, cards: tuple[int, ...], events: list[Event]) -> None:
    for i, c in enumerate(cards):
        state.hands[p][i] -= c
        state.bank[i] += c
    state.discard[p] = 0
    events.append({"type": "discarded", "cards": _names(cards)})
    if not any(state.discard):
        state.phase = "robber"


def _check_pick_gold(state: State, p: int, action: dict[str, Any]) -> Apply:
    take = _counts(action["take"], "take")
    owed = state.gold_picks[p]
    name = state.players[p]
    if sum(take) != owed:
        raise Refused("wrong_count", f"{name} picks {_cards(owed)} for gold, not {sum(take)}")
    if any(state.bank[i] < c for i, c in enumerate(take)):
        raise Refused("bank_empty", f"the bank holds {_words(state.bank)}, not {_words(take)}")

    def apply(events: list[Event]) -> None:
        _pick_gold(state, p, take, events)

    return apply


def _pick_gold(state: State, p: int, take: tuple[int, ...], events: list[Event]) -> None:
    for i, c in enumerate(take):
        state.hands[p][i] += c
        state.bank[i] -= c
    state.gold_picks[p] = 0
    events.append({"type": "gold_picked", "cards": _names(take)})
    if not any(state.gold_picks):
        state.phase = state.resume or "action"
        state.resume = None


def robber_victims(state: State, p: int, h: int, pirate: bool) -> list[int]:
    """X17: others with a card and a building on a corner (robber) or a ship on an edge
    (pirate) of the hex."""
    board = state.board
    found: set[int] = set()
    if pirate:
        for e in board.hex_edges[h]:
            if state.edge_piece[e] == SHIP:
                found.add(state.edge_owner[e])
    else:
        for n in board.hex_nodes[h]:
            if state.node_owner[n] != NONE:
                found.add(state.node_owner[n])
    return [q for q in sorted(found) if q != p and sum(state.hands[q]) > 0]


# PI1 PI2 PI3 PI4: the pirate variant (X16): a black ship on a sea hex, moved instead of the
# robber by a 7 or a Knight (X17); PV2, PV3: special points are earned as the scenario says (X19).
def _check_move_thief(pirate: bool) -> Callable[[State, int, dict[str, Any]], Apply]:
    def checker(state: State, p: int, action: dict[str, Any]) -> Apply:
        h = _hex(state, action["hex"])
        victim_name = action.get("steal_from")
        victim = _other(state, victim_name) if victim_name is not None else None
        board = state.board
        label = board.hexes[h].id
        if pirate:
            if state.pirate is None:
                raise Refused("no_pirate", "this game has no pirate (X16)")
            if board.hex_is_land[h]:
                raise Refused("not_sea_hex", f"{label} is land: the pirate sails the sea")
            if h == state.pirate:
                raise Refused("same_hex", f"the pirate is already on {label}")
        else:
            if not board.hex_is_land[h]:
                raise Refused("not_land_hex", f"{label} is sea: the robber stays on land")
            if h == state.robber:
                raise Refused("same_hex", f"the robber is already on {label}")
        candidates = robber_victims(state, p, h, pirate)
        if victim is not None and victim not in candidates:
            raise Refused("invalid_victim", f"{victim_name} cannot be robbed at {label}")
        if victim is None and len(candidates) > 1:
            names = ", ".join(state.players[q] for q in candidates)
            raise Refused("victim_required", f"name whom to rob at {label}: {names}")
        if victim is None and candidates:
            victim = candidates[0]

        def apply(events: list[Event]) -> None:
            _move_thief(state, p, h, victim, pirate, events)

        return apply

    return checker


def _move_thief(
    state: State, p: int, h: int, victim: int | None, pirate: bool, events: list[Event]
) -> None:
    hexes = state.board.hexes
    before = state.pirate if pirate else state.robber
    if pirate:
        state.pirate = h
    else:
        state.robber = h
    events.append(
        {
            "type": "pirate_moved" if pirate else "robber_moved",
            "from": None if before is None else hexes[before].id,
            "to": hexes[h].id,
        }
    )
    if victim is not None:
        _steal(state, p, victim, events)
    state.phase = state.resume or "action"
    state.resume = None


def _steal(state: State, p: int, victim: int, events: list[Event]) -> None:
    """X22: the index into the victim's cards listed brick … ore."""
    hand = state.hands[victim]
    held = sum(hand)
    if state.draws_used < len(state.draws_script):
        index = state.draws_script[state.draws_used] % held
        state.draws_used += 1
    else:
        index = seeded_steal(state.seed or 0, state.steals, held)
    state.steals += 1
    r = 0
    while index >= hand[r]:
        index -= hand[r]
        r += 1
    hand[r] -= 1
    state.hands[p][r] += 1
    events.append(
        {
            "type": "stolen",
            "by": state.players[p],
            "from": state.players[victim],
            "card": RESOURCES[r],
        }
    )


# -- development cards (B12–B17, RB1, X15, X21, X23) ----------------------------------------
def _check_buy(state: State, p: int, action: dict[str, Any]) -> Apply:
    if not state.deck:
        raise Refused("deck_empty", "no development card is left")
    _afford(state, p, COST_DEV, "a development card")

    def apply(events: list[Event]) -> None:
        _buy(state, p, events)

    return apply


def _buy(state: State, p: int, events: list[Event]) -> None:
    _pay(state, p, COST_DEV)
    card = state.deck.pop(0)
    state.dev_cards[p].append((card, True))
    events.append({"type": "dev_card_bought", "card": card})


def _card_checks(state: State, p: int, card: str) -> None:
    name = state.players[p]
    if state.dev_card_played:
        raise Refused(
            "dev_card_already_played", f"{name} has already played a development card this turn"
        )
    held = [new for c, new in state.dev_cards[p] if c == card]
    if not held:
        raise Refused("no_such_card", f"{name} holds no {CARD_WORDS[card]} card")
    if all(held):
        raise Refused("card_bought_this_turn", f"{name}'s {CARD_WORDS[card]} was bought this turn")


def _take_card(state: State, p: int, card: str, events: list[Event]) -> None:
    cards = state.dev_cards[p]
    cards.remove((card, False))
    state.dev_card_played = True
    events.append({"type": "dev_card_played", "card": card})


def _check_knight(state: State, p: int, action: dict[str, Any]) -> Apply:
    _card_checks(state, p, "knight")

    def apply(events: list[Event]) -> None:
        _take_card(state, p, "knight", events)
        state.knights[p] += 1
        held = state.army
        if (
            state.knights[p] >= state.rules.largest_army_min
            and held != p
            and (held == NONE or state.knights[p] > state.knights[held])
        ):  # B17, X21
            state.army = p
            events.append(
                {
                    "type": "largest_army",
                    "from": None if held == NONE else state.players[held],
                    "to": state.players[p],
                }
            )
        state.resume = state.phase
        state.phase = "robber"

    return apply


def _check_road_building(state: State, p: int, action: dict[str, Any]) -> Apply:
    _card_checks(state, p, "road_building")
    if state.roads[p] >= state.rules.roads and state.ships[p] >= state.rules.ships:
        raise Refused("no_pieces_left", f"{state.players[p]} has no road and no ship left")
    if not _any_free_placement(state, p):
        raise Refused(
            "no_legal_placement", f"{state.players[p]} has nowhere to place a road or a ship"
        )

    def apply(events: list[Event]) -> None:
        _take_card(state, p, "road_building", events)
        state.resume = state.phase
        state.phase = "road_building"
        state.free_pieces = 2

    return apply


def _end_road_building(state: State, events: list[Event]) -> None:
    placed = 2 - state.free_pieces
    if placed == 0:  # X15: stopping before any piece returns the card, unplayed
        state.dev_cards[state.player].append(("road_building", False))
        state.dev_card_played = False
    events.append({"type": "road_building_ended", "placed": placed})
    state.free_pieces = 0
    state.phase = state.resume or "action"
    state.resume = None


def _check_end_road_building(state: State, p: int, action: dict[str, Any]) -> Apply:
    def apply(events: list[Event]) -> None:
        _end_road_building(state, events)

    return apply


def _check_year_of_plenty(state: State, p: int, action: dict[str, Any]) -> Apply:
    _card_checks(state, p, "year_of_plenty")
    take = _counts(action["take"], "take")
    if sum(take) != 2:
        raise Refused("wrong_count", f"Year of Plenty takes 2 cards, not {sum(take)}")
    if any(state.bank[i] < c for i, c in enumerate(take)):
        raise Refused("bank_empty", f"the bank holds {_words(state.bank)}, not {_words(take)}")

    def apply(events: list[Event]) -> None:
        _take_card(state, p, "year_of_plenty", events)
        for i, c in enumerate(take):
            state.hands[p][i] += c
            state.bank[i] -= c

    return apply


def _check_monopoly(state: State, p: int, action: dict[str, Any]) -> Apply:
    _card_checks(state, p, "monopoly")
    r = RES_INDEX[action["resource"]]

    def apply(events: list[Event]) -> None:
        _take_card(state, p, "monopoly", events)
        taken = {}
        for q in range(len(state.players)):
            if q != p:
                count = state.hands[q][r]
                state.hands[q][r] = 0
                state.hands[p][r] += count
                taken[state.players[q]] = count
        events.append({"type": "monopoly", "resource": RESOURCES[r], "taken": taken})

    return apply


# -- trade (MT, X11, X24, B18) ---------------------------------------------------------------
def _check_maritime(state: State, p: int, action: dict[str, Any]) -> Apply:
    give = _counts(action["give"], "give")
    get = _counts(action["get"], "get")
    name = state.players[p]
    both = [RESOURCES[i] for i in range(5) if give[i] and get[i]]
    if both:
        raise Refused("same_resource", f"{both[0]} cannot be traded for {both[0]}")
    if any(state.hands[p][i] < c for i, c in enumerate(give)):
        raise Refused(
            "insufficient_resources", f"{name} holds {_words(state.hands[p])}, not {_words(give)}"
        )
    multiples = 0
    rates = state.rates(p)
    for i, c in enumerate(give):
        if c:
            rate = rates[i]
            if c % rate:
                raise Refused(
                    "bad_ratio",
                    f"{name} trades {RESOURCES[i]} {rate}:1, and {c} is no multiple of {rate}",
                )
            multiples += c // rate
    if not multiples or sum(get) != multiples:
        raise Refused(
            "bad_ratio",
            f"{_words(give)} buys {_cards(multiples)} at {name}'s rates, not {sum(get)}",
        )
    if any(state.bank[i] < c for i, c in enumerate(get)):
        raise Refused("bank_empty", f"the bank holds {_words(state.bank)}, not {_words(get)}")

    def apply(events: list[Event]) -> None:
        _maritime(state, p, give, get, events)

    return apply


def _maritime(
    state: State, p: int, give: tuple[int, ...], get: tuple[int, ...], events: list[Event]
) -> None:
    for i in range(5):
        state.hands[p][i] += get[i] - give[i]
        state.bank[i] += give[i] - get[i]
    events.append({"type": "traded", "kind": "maritime", "give": _names(give), "get": _names(get)})


def _check_domestic(state: State, p: int, action: dict[str, Any]) -> Apply:
    other = _other(state, action["with"])
    give = _counts(action["give"], "give")
    get = _counts(action["get"], "get")
    name = state.players[p]
    if other == p:
        raise Refused("bad_trade", f"{name} cannot trade with themselves")
    if not any(give) or not any(get):
        raise Refused("bad_trade", "a trade gives at least one card each way (X24)")
    if any(give[i] and get[i] for i in range(5)):
        raise Refused("bad_trade", "a trade cannot have a resource on both sides (B18)")
    if any(state.hands[p][i] < c for i, c in enumerate(give)):
        raise Refused(
            "insufficient_resources", f"{name} holds {_words(state.hands[p])}, not {_words(give)}"
        )
    if any(state.hands[other][i] < c for i, c in enumerate(get)):
        raise Refused(
            "insufficient_resources",
            f"{state.players[other]} holds {_words(state.hands[other])}, not {_words(get)}",
        )

    def apply(events: list[Event]) -> None:
        for i in range(5):
            state.hands[p][i] += get[i] - give[i]
            state.hands[other][i] += give[i] - get[i]
        events.append(
            {
                "type": "traded",
                "kind": "domestic",
                "give": _names(give),
                "get": _names(get),
                "with": state.players[other],
            }
        )

    return apply


# -- the moderator (G4, X19) -----------------------------------------------------------------
def _check_award(state: State, p: int, action: dict[str, Any]) -> Apply:
    n = _node(state, action["node"])
    label = state.board.node_names[n]
    if state.node_owner[n] != p:
        raise Refused("not_own_building", f"{state.players[p]} has no building on {label}")
    points = action["points"]

    def apply(events: list[Event]) -> None:
        state.svp[p].append((n, points, None))
        events.append({"type": "svp_awarded", "node": label, "points": points, "island": None})

    return apply


CHECKS: dict[str, Callable[[State, int, dict[str, Any]], Apply]] = {
    "roll": _check_roll,
    "discard": _check_discard,
    "move_robber": _check_move_thief(False),
    "move_pirate": _check_move_thief(True),
    "pick_gold": _check_pick_gold,
    "build_road": _check_build_route(ROAD),
    "build_ship": _check_build_route(SHIP),
    "move_ship": _check_move_ship,
    "build_settlement": _check_settlement,
    "build_city": _check_city,
    "buy_dev_card": _check_buy,
    "play_knight": _check_knight,
    "play_road_building": _check_road_building,
    "end_road_building": _check_end_road_building,
    "play_year_of_plenty": _check_year_of_plenty,
    "play_monopoly": _check_monopoly,
    "maritime_trade": _check_maritime,
    "domestic_trade": _check_domestic,
    "end_turn": _check_end_turn,
    "award_svp": _check_award,
}


# -- the fast path: a listed action's applier, its names read without the checks ------------
def _edge_id(board: Board, value: list[str]) -> int:
    index = board.node_index
    return board.edge_index[(index[value[0]], index[value[1]])]


def _fast_route(piece: int) -> FastApply:
    def fast(state: State, p: int, action: dict[str, Any], events: list[Event]) -> None:
        e = _edge_id(state.board, action["edge"])
        _build_route(state, p, e, piece, state.phase != "action", events)

    return fast


def _fast_move_ship(state: State, p: int, action: dict[str, Any], events: list[Event]) -> None:
    board = state.board
    _move_ship(state, p, _edge_id(board, action["from"]), _edge_id(board, action["to"]), events)


def _fast_thief(pirate: bool) -> FastApply:
    def fast(state: State, p: int, action: dict[str, Any], events: list[Event]) -> None:
        h = state.board.hex_index[action["hex"]]
        name = action.get("steal_from")
        if name is not None:
            victim: int | None = state.pindex[name]
        else:  # listed without a victim: at most one candidate, robbed (X17)
            candidates = robber_victims(state, p, h, pirate)
            victim = candidates[0] if candidates else None
        _move_thief(state, p, h, victim, pirate, events)

    return fast


def _fast_counts(value: dict[str, int]) -> tuple[int, ...]:
    counts = [0] * 5
    for name, count in value.items():
        counts[RES_INDEX[name]] = count
    return tuple(counts)


FAST: dict[str, FastApply] = {
    "roll": lambda state, p, action, events: _roll(state, action, events),
    "discard": lambda state, p, action, events: _discard(
        state, p, _fast_counts(action["cards"]), events
    ),
    "move_robber": _fast_thief(False),
    "move_pirate": _fast_thief(True),
    "pick_gold": lambda state, p, action, events: _pick_gold(
        state, p, _fast_counts(action["take"]), events
    ),
    "build_road": _fast_route(ROAD),
    "build_ship": _fast_route(SHIP),
    "move_ship": _fast_move_ship,
    "build_settlement": lambda state, p, action, events: _build_settlement(
        state, p, state.board.node_index[action["node"]], state.phase == "setup_settlement", events
    ),
    "build_city": lambda state, p, action, events: _build_city(
        state, p, state.board.node_index[action["node"]], events
    ),
    "buy_dev_card": lambda state, p, action, events: _buy(state, p, events),
    "maritime_trade": lambda state, p, action, events: _maritime(
        state, p, _fast_counts(action["give"]), _fast_counts(action["get"]), events
    ),
    "end_turn": lambda state, p, action, events: _end_turn(state, p, events),
}
