"""Route length (seafarers.md X4), closed lines (X5) and the Longest Trade Route card (X10).

LR2 LR7 LR8 LR9: the one longest line of roads and/or ships holds the card, taken at once by a
longer one (a swing of 4 points); LR10 LR11 LR12 LR13 LR15 LR16 are the rulebook's illustration
(the claw and the cut, tested in tests/scenarios/seafarers/lr and x); LR20: nobody below 5.
A route is a trail: distinct pieces, nodes may repeat (a figure eight counts whole), a claw
counts 2 (LR6, LR12), an opponent's building may end a route but not lie inside it (LR14), and a
road meets a ship only at an own building (SH6, LR3). The search is a depth-first walk over the
player's own pieces with a bit mask of pieces used, started only where an optimal trail can
start: at a node of odd degree, at a node an opponent's building blocks, or at a node where
roads meet ships without an own building (elsewhere a trail could always be prolonged at its
start); pieces no such start reaches form even, unblocked components, which count whole.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.seafarers.state import NONE, SHIP, State


def longest_route(state: State, p: int) -> int:
    """X4: the most pieces in one route of player `p` (0 without pieces)."""
    edges = state.player_edges[p]
    if not edges:
        return 0
    board_nodes = state.board.edge_nodes
    piece = state.edge_piece
    owner = state.node_owner
    adj: dict[int, list[tuple[int, int, int]]] = {}
    for i, e in enumerate(edges):
        a, b = board_nodes[e]
        bit = 1 << i
        kind = piece[e]
        adj.setdefault(a, []).append((bit, b, kind))
        adj.setdefault(b, []).append((bit, a, kind))
    blocked = {n for n in adj if owner[n] != NONE and owner[n] != p}
    own = {n for n in adj if owner[n] == p}

    def walk(n: int, kind: int, used: int) -> int:
        best = 0
        switch = n in own
        for bit, m, k in adj[n]:
            if used & bit or (k != kind and not switch):
                continue
            # The route may end at another player's building, not pass it (X4, LR14).
            length = 1 if m in blocked else 1 + walk(m, k, used | bit)
            if length > best:
                best = length
        return best

    best = 0
    reached = 0
    starts = []
    for n, links in adj.items():
        kinds = {k for _, _, k in links}
        if len(links) % 2 or n in blocked or (len(kinds) > 1 and n not in own):
            starts.append(n)
    full = (1 << len(edges)) - 1
    for n in starts:
        for bit, m, k in adj[n]:
            reached |= bit
            length = 1 if m in blocked else 1 + walk(m, k, bit)
            if length > best:
                best = length
    if reached != full:
        # Components with no start: every node even, none blocked, no unowned kind switch —
        # an Euler circuit of the component is a route (X4), so it counts whole.
        rest = [i for i in range(len(edges)) if not reached >> i & 1]
        best = max(best, _component_sizes(rest, edges, board_nodes))
    return best


def _component_sizes(rest: list[int], edges: list[int], nodes: tuple[tuple[int, int], ...]) -> int:
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i in rest:
        a, b = nodes[edges[i]]
        parent[find(a)] = find(b)
    sizes: dict[int, int] = {}
    for i in rest:
        root = find(nodes[edges[i]][0])
        sizes[root] = sizes.get(root, 0) + 1
    return max(sizes.values())


def close_lines(state: State, p: int) -> list[int]:
    """X5: ships of `p` that now lie on a line of ships, passing no node twice, between two
    different own buildings, with no other player's building inside; returns those newly
    closed (the caller marks them)."""
    ships = [e for e in state.player_edges[p] if state.edge_piece[e] == SHIP]
    if not ships:
        return []
    nodes = state.board.edge_nodes
    owner = state.node_owner
    adj: dict[int, list[tuple[int, int]]] = {}
    for e in ships:
        a, b = nodes[e]
        adj.setdefault(a, []).append((e, b))
        adj.setdefault(b, []).append((e, a))
    closed: set[int] = set()
    path: list[int] = []
    seen: set[int] = set()

    def walk(n: int, start: int) -> None:
        for e, m in adj[n]:
            if m in seen:
                continue
            if owner[m] != NONE and owner[m] != p:
                continue  # another player's building: no line runs through or ends there
            path.append(e)
            if owner[m] == p and m != start:
                closed.update(path)
            seen.add(m)
            walk(m, start)
            seen.discard(m)
            path.pop()

    for s in adj:
        if owner[s] == p:
            seen.add(s)
            walk(s, s)
            seen.discard(s)
    return sorted(closed - state.ship_closed)


def holder_after(state: State, previous: int) -> int:
    """X10: M the greatest length, T who has it: below the minimum nobody; one player holds
    it; several — the previous holder keeps it if among them, else nobody (LR18–LR21)."""
    lengths = state.routes
    top = max(lengths) if lengths else 0
    if top < state.rules.longest_route_min:
        return NONE
    tied = [p for p, length in enumerate(lengths) if length == top]
    if len(tied) == 1:
        return tied[0]
    return previous if previous in tied else NONE


RouteFn = Callable[[State, int], int]
