"""The longest route (X4) against a brute force on small random networks (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.seafarers import reach
from engine.seafarers.board import graph_board
from engine.seafarers.game import _build_route, _move_ship, open_end
from engine.seafarers.routes import close_lines, longest_route
from engine.seafarers.rules import Rules
from engine.seafarers.state import NONE, ROAD, SETTLEMENT, SHIP, State

NODES = 7
PAIRS = [(a, b) for a in range(NODES) for b in range(a + 1, NODES)]


networks = st.lists(
    st.tuples(st.sampled_from(PAIRS), st.sampled_from((0, 1)), st.sampled_from((ROAD, SHIP))),
    max_size=11,
    unique_by=lambda t: t[0],
)
buildings = st.lists(st.sampled_from((NONE, NONE, 0, 1)), min_size=NODES, max_size=NODES)


def make_state(network: list[tuple[tuple[int, int], int, int]], owners: list[int]) -> State:
    board = graph_board([(f"n{a}", f"n{b}", "coast") for a, b in PAIRS], [])
    state = State(board, Rules(), ["p0", "p1"])
    for (a, b), owner, piece in network:
        e = board.edge_index[(board.node_index[f"n{a}"], board.node_index[f"n{b}"])]
        state.edge_owner[e] = owner
        state.edge_piece[e] = piece
        state.player_edges[owner].append(e)
    for n in range(NODES):
        node = board.node_index[f"n{n}"]
        if owners[n] != NONE:
            state.node_owner[node] = owners[n]
            state.node_level[node] = SETTLEMENT
    return state


@settings(max_examples=400, deadline=None)
@given(networks, buildings)
def test_longest_route_agrees_with_brute_force(network, owners) -> None:  # type: ignore[no-untyped-def]
    state = make_state(network, owners)
    for p in (0, 1):
        assert longest_route(state, p) == brute_force_nodes(state, p)


def brute_force_nodes(state: State, p: int) -> int:
    """Every trail from every node, over every order of pieces: X4 read literally."""
    nodes = state.board.edge_nodes
    own = [e for e in range(len(nodes)) if state.edge_owner[e] == p]
    best = 0

    def extend(n: int, used: list[int]) -> None:
        nonlocal best
        best = max(best, len(used))
        if used and state.node_owner[n] not in (NONE, p):
            return
        for e in own:
            if e in used or n not in nodes[e]:
                continue
            if (
                used
                and state.edge_piece[e] != state.edge_piece[used[-1]]
                and state.node_owner[n] != p
            ):
                continue
            a, b = nodes[e]
            extend(b if n == a else a, [*used, e])

    for n in range(len(state.board.node_names)):
        extend(n, [])
    return best


def test_the_brute_force_itself_counts_a_claw_as_two() -> None:
    state = make_state([((0, 1), 0, ROAD), ((0, 2), 0, ROAD), ((0, 3), 0, ROAD)], [NONE] * NODES)
    assert brute_force_nodes(state, 0) == 2 == longest_route(state, 0)


def test_a_ring_cut_at_one_node_still_counts_whole() -> None:
    """X4 (JSettlers2 #96): a ring of 6 with another player's settlement on it counts 6."""
    ring = [((a, (a + 1) % 6) if a < (a + 1) % 6 else ((a + 1) % 6, a), 0, ROAD) for a in range(6)]
    owners = [1] + [NONE] * (NODES - 1)
    state = make_state(ring, owners)
    assert longest_route(state, 0) == 6


def closed_by_brute_force(state: State, p: int) -> set[int]:
    """X5 read literally: every simple path of own ships between two different own buildings,
    with no other player's building inside; the ships on any of them."""
    nodes = state.board.edge_nodes
    ships = [e for e in state.player_edges[p] if state.edge_piece[e] == SHIP]
    found: set[int] = set()

    def walk(n: int, start: int, seen: list[int], path: list[int]) -> None:
        if path and state.node_owner[n] == p and n != start:
            found.update(path)
        if path and state.node_owner[n] not in (NONE, p):
            return
        for e in ships:
            if e in path or n not in nodes[e]:
                continue
            a, b = nodes[e]
            m = b if n == a else a
            if m in seen:
                continue
            walk(m, start, [*seen, m], [*path, e])

    for s in range(len(state.board.node_names)):
        if state.node_owner[s] == p:
            walk(s, s, [s], [])
    return found


@settings(max_examples=300, deadline=None)
@given(networks, buildings)
def test_closed_lines_agree_with_brute_force(network, owners) -> None:  # type: ignore[no-untyped-def]
    state = make_state(network, owners)
    for p in (0, 1):
        assert set(close_lines(state, p)) == closed_by_brute_force(state, p)


def ring_with_spurs(spurs: list[tuple[str, str]]) -> State:
    """Player 0's roads: a ring r0…r5 and the spurs given (issue 12 perf: the split search's
    cyclic case, its weighted runs of pass-through nodes and its bound)."""
    ring = [(f"r{a}", f"r{(a + 1) % 6}") for a in range(6)]
    board = graph_board([(a, b, "land") for a, b in ring + spurs], [])
    state = State(board, Rules(), ["p0", "p1"])
    for e in range(len(board.edge_nodes)):
        state.edge_owner[e] = 0
        state.edge_piece[e] = ROAD
        state.player_edges[0].append(e)
    return state


def test_a_ring_with_a_tail_counts_the_tail_and_the_whole_ring() -> None:
    """X4: a tail of 2 at r0 — from its far end over 2 roads to r0, then the 6 of the ring
    back to r0: 2 + 6 = 8, every piece."""
    state = ring_with_spurs([("t1", "t2"), ("t1", "r0")])
    assert longest_route(state, 0) == 8 == brute_force_nodes(state, 0)


def test_a_ring_with_tails_at_opposite_nodes_leaves_one_tail_out() -> None:
    """X4: tails of 1 at r0 and r3 (8 roads, four odd nodes: both tail ends, r0, r3). A route
    uses at most 7: tail, r0 to r3 one way (3), r3 back to r0 the other way (3) = 7, the
    other tail then out of reach. A route has two ends, so at the other two odd nodes a piece
    stays unused: 8 - (4 - 2) / 2 = 7, the search's bound."""
    state = ring_with_spurs([("a", "r0"), ("d", "r3")])
    assert longest_route(state, 0) == 7 == brute_force_nodes(state, 0)


# -- X10 after one piece (issue 12 perf): a pendant's shortcut against the brute force --------
def _ready(state: State) -> State:
    """The derived values a played position carries: where the pieces reach, closed lines and
    routes (the shortcut starts from each player's exact route)."""
    reach.rebuild(state)
    for q in (0, 1):
        state.ship_closed.update(closed_by_brute_force(state, q))
        state.routes[q] = brute_force_nodes(state, q)
    return state


@settings(max_examples=400, deadline=None)
@given(networks, buildings, st.sampled_from(PAIRS), st.sampled_from((ROAD, SHIP)))
def test_a_new_piece_leaves_the_routes_and_lines_the_brute_force_finds(  # type: ignore[no-untyped-def]
    network, owners, pair, piece
) -> None:
    """X5, X10 after `game._build_route` (the pendant shortcut, or the full search)."""
    state = _ready(make_state(network, owners))
    board = state.board
    e = board.edge_index[(board.node_index[f"n{pair[0]}"], board.node_index[f"n{pair[1]}"])]
    if state.edge_piece[e]:
        return
    _build_route(state, 0, e, piece, True, [])
    assert state.routes[0] == brute_force_nodes(state, 0)
    assert state.routes[1] == brute_force_nodes(state, 1)
    assert state.ship_closed >= closed_by_brute_force(state, 0)  # X5: closed lines stay closed


@settings(max_examples=400, deadline=None)
@given(networks, buildings, st.sampled_from(PAIRS), st.integers(0, 10))
def test_a_moved_ship_leaves_the_route_the_brute_force_finds(  # type: ignore[no-untyped-def]
    network, owners, pair, pick
) -> None:
    """X7, X10 after `game._move_ship` from any ship with an open end (X6: the only ships
    that move, and what both the shortcut and the search rely on) to any empty edge."""
    state = _ready(make_state(network, owners))
    board = state.board
    ships = [
        e for e in state.player_edges[0] if state.edge_piece[e] == SHIP and open_end(state, 0, e)
    ]
    target = board.edge_index[(board.node_index[f"n{pair[0]}"], board.node_index[f"n{pair[1]}"])]
    if not ships or state.edge_piece[target]:
        return
    source = ships[pick % len(ships)]
    _move_ship(state, 0, source, target, [])
    assert state.routes[0] == brute_force_nodes(state, 0)
    assert state.ship_closed >= closed_by_brute_force(state, 0)
