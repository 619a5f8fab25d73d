"""Route length (seafarers.md X4), closed lines (X5) and the Longest Trade Route card (X10).

LR2 LR7 LR8 LR9: the one longest line of roads and/or ships holds the card, taken at once by a
longer one (a swing of 4 points); LR10 LR11 LR12 LR13 LR15 LR16 are the rulebook's illustration
(the claw and the cut, tested in tests/scenarios/seafarers/lr and x); LR20: nobody below 5.
A route is a trail: distinct pieces, nodes may repeat (a figure eight counts whole), a claw
counts 2 (LR6, LR12), an opponent's building may end a route but not lie inside it (LR14), and a
road meets a ship only at an own building (SH6, LR3). The search runs on the player's network
split so that those two rules vanish: an empty node becomes one node per kind of piece, a node
with another player's building one end per piece; the routes are then exactly the trails of the
split network. Each of its components is searched alone, the largest first, and none that has
no more pieces than the best route found so far: a tree's longest trail is its longest path
(two breadth-first passes); a component with a cycle gets a depth-first walk over trails with a
bit mask of pieces used, started only at odd nodes (elsewhere a trail could always be
prolonged at its start), runs of pass-through nodes taken as one weighted step; a component
without an odd node has an Euler circuit, which counts whole.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.seafarers.state import NONE, SHIP, State


def longest_route(
    state: State,
    p: int,
    at_least: int = 0,
    at_most: int | None = None,
    adj: dict[int, list[tuple[int, int]]] | None = None,
) -> int:
    """X4: the most pieces in one route of player `p` (0 without pieces). `at_least`: a length
    the route is known to reach (`game._after_placing` says which after a build or a move), so
    that no component with no more pieces is searched; `at_most`: a length it is known not to
    pass, so that the search ends once a route reaches it. The result is the same; a larger
    `at_least` than the route would be returned as it is. `adj`: the split network, when the
    caller has it."""
    if not state.player_edges[p]:
        return 0
    if adj is None:
        adj = split_network(state, p)
    # Components (each in breadth-first order from its first node), largest first: none can
    # beat its own number of pieces.
    seen: set[int] = set()
    components: list[tuple[int, int, list[int]]] = []
    for root in adj:
        if root in seen:
            continue
        seen.add(root)
        members = [root]
        degrees = 0
        for n in members:
            links = adj[n]
            degrees += len(links)
            for _, m in links:
                if m not in seen:
                    seen.add(m)
                    members.append(m)
        components.append((degrees // 2, len(members), members))
    if len(components) > 1:
        components.sort(key=lambda c: -c[0])
    best = at_least
    for size, count, members in components:
        if size <= best or (at_most is not None and best >= at_most):
            break
        if size == count - 1:
            # A tree: its longest trail is its longest path, from a node farthest from any
            # node (the last in breadth-first order) to the node farthest from that one.
            length = _depth(adj, members[-1])
        else:
            length = _trail_search(adj, members, size, at_most)
        if length > best:
            best = length
    return best


def split_network(state: State, p: int) -> dict[int, list[tuple[int, int]]]:
    """The player's network split so that its trails are exactly the routes (X4): a node
    holding an own building stays one node (`n << 2`); an empty node becomes one node per kind
    of piece (`n << 2 | kind`: a road meets a ship only at an own building, SH6, LR3); a node
    holding another player's building becomes one end per piece (a route may end there, not
    pass, LR14: `~(2 * e)` and `~(2 * e + 1)` for the first and second node of edge e).
    Each node maps to its links (edge, other node). reach.py keeps one per player up to date
    (`state.split`); this builds it from the pieces."""
    adj: dict[int, list[tuple[int, int]]] = {}
    piece = state.edge_piece
    for e in state.player_edges[p]:
        link(adj, e, *piece_ends(state, p, e, piece[e]))
    return adj


def piece_ends(state: State, p: int, e: int, kind: int) -> tuple[int, int]:
    """The two nodes of `split_network` at the ends of p's piece of `kind` on `e`."""
    owner = state.node_owner
    a, b = state.board.edge_nodes[e]
    o = owner[a]
    a = a << 2 if o == p else a << 2 | kind if o == NONE else ~(2 * e)
    o = owner[b]
    b = b << 2 if o == p else b << 2 | kind if o == NONE else ~(2 * e + 1)
    return a, b


def link(adj: dict[int, list[tuple[int, int]]], e: int, a: int, b: int) -> None:
    """Piece `e` between the split network's nodes `a` and `b`."""
    links = adj.get(a)
    if links is None:
        adj[a] = [(e, b)]
    else:
        links.append((e, b))
    links = adj.get(b)
    if links is None:
        adj[b] = [(e, a)]
    else:
        links.append((e, a))


def split_node(state: State, p: int, n: int, kind: int) -> int:
    """The node of `split_network` where a piece of `kind` of p ends at `n`, which holds an
    own building or no building."""
    return n << 2 if state.node_owner[n] == p else n << 2 | kind


def longest_from(
    adj: dict[int, list[tuple[int, int]]], start: int, used: list[bool], enough: int = 1 << 30
) -> int:
    """The most pieces in a trail of the split network that ends at `start` (0 when no piece
    meets it), the pieces marked in `used` (by edge id) left out, or `enough` as soon as a
    trail reaches it (a length the caller knows none passes, or all it needs to know): a
    depth-first walk over trails, marking the pieces it takes in `used` and clearing them as
    it comes back (so `used` is as it was after the walk). On a tree it visits each piece
    once."""
    if start not in adj:
        return 0
    return _trail_from(adj, start, used, 0, enough)


def _trail_from(
    adj: dict[int, list[tuple[int, int]]], n: int, used: list[bool], length: int, enough: int
) -> int:
    """`longest_from`'s walk from `n`, `length` pieces in: the longest trail on from here, or
    the first length that reaches `enough` (a function of its own, not a closure: the compiled
    build calls it directly). The pieces are marked in a list by edge id rather than in a bit
    mask: a mask of edge ids is an integer of hundreds of bits, made anew at every step."""
    best = length
    for i, m in adj[n]:
        if not used[i]:
            if length + 1 >= enough:
                return length + 1
            used[i] = True
            found = _trail_from(adj, m, used, length + 1, enough)
            used[i] = False
            if found > best:
                best = found
                if found >= enough:
                    return found
    return best


def after_pendant(
    state: State, p: int, edge: int, grown: int | None, lifted: int | None, moved: bool
) -> int:
    """X10 after a piece `edge` of p laid with one end that meets no other piece of p (a
    pendant of the split network, hanging from its node `grown`; None: neither end meets a
    piece), and, for a move, after the ship lifted from an end that met none (its other node
    `lifted`; None: it met none at either end): p's new route. R is the route before
    (`state.routes[p]`), M the network without the new piece. A trail through a pendant ends
    there, so M and the piece reach max(L(M), 1 + the longest trail of M ending at `grown`).
    After a build L(M) = R. After a move L(M) is R or R - 1, and it is R unless a trail of R
    went through the lifted ship (then 1 + the longest trail of M ending at `lifted` is R);
    only then is the network searched, and only for R. No trail of M is longer than R, so
    the walks stop at R (and at R - 1 for the lifted end: all that is asked of it)."""
    route = state.routes[p]
    adj = state.split[p]
    new = [False] * len(state.board.edge_nodes)  # M: the network without this piece
    new[edge] = True
    reached = 1 + (longest_from(adj, grown, new, route) if grown is not None else 0)
    if reached >= route or not moved:
        return max(route, reached)
    # Here R >= 2 (reached is at least 1).
    if lifted is None or 1 + longest_from(adj, lifted, new, route - 1) < route:
        return route
    # A longest trail went through the lifted ship: R - 1 or R, from the search (that stops
    # at R, which no route of the new network passes).
    return longest_route(state, p, max(route - 1, reached), at_most=route, adj=adj)


def _depth(adj: dict[int, list[tuple[int, int]]], root: int) -> int:
    """The greatest distance from `root` in its component, in pieces (breadth-first)."""
    seen = {root}
    frontier = [root]
    depth = -1
    while frontier:
        depth += 1
        ahead = []
        for n in frontier:
            for _, m in adj[n]:
                if m not in seen:
                    seen.add(m)
                    ahead.append(m)
        frontier = ahead
    return depth


def _trail_search(
    adj: dict[int, list[tuple[int, int]]], members: list[int], size: int, at_most: int | None
) -> int:
    """A component with a cycle: a depth-first walk over trails (a bit mask of pieces used),
    started at its odd nodes only — an optimal trail that is not a whole component ends at
    two of them (elsewhere it could be prolonged); with no odd node the component has an Euler
    circuit, which counts whole (X4: a figure eight). Runs of pass-through nodes (two pieces)
    are walked as one weighted link: a trail entering one leaves it at its other end. The
    search ends as soon as a trail reaches a length none can pass: its bound (below) or
    `at_most`."""
    starts = [n for n in members if len(adj[n]) % 2]
    if not starts:
        return size
    links: dict[int, list[tuple[int, int, int]]] = {}
    chain_of: dict[int, int] = {}  # a chain's first piece -> its bit
    for n in members:
        if len(adj[n]) == 2:
            continue
        out = links.setdefault(n, [])
        for i, m in adj[n]:
            length = 1
            first = last = i
            while len(adj[m]) == 2:
                a, b = adj[m]
                j, nxt = b if a[0] == last else a
                last = j
                m = nxt
                length += 1
            key = first if first <= last else last
            bit = chain_of.get(key)
            if bit is None:
                bit = chain_of[key] = 1 << len(chain_of)
            out.append((bit, length, m))
    # No trail is longer than the pieces less one unused piece per two odd nodes beyond its
    # two ends; a walk reaching that bound ends the search.
    bound = size - (len(starts) - 2) // 2
    if at_most is not None and at_most < bound:
        bound = at_most
    # The last odd node need not start a walk: an optimal trail ending there starts at another
    # odd node (its two ends are distinct odd nodes), whose walk found it.
    best = 0
    for n in starts[:-1]:
        found = _chain_walk(links, n, 0, 0, bound)
        if found > best:
            best = found
            if best >= bound:
                break
    return best


def _chain_walk(
    links: dict[int, list[tuple[int, int, int]]], n: int, used: int, length: int, bound: int
) -> int:
    """`_trail_search`'s walk from `n`, `length` pieces in, over chains (a bit each, a weight
    each): the longest trail on from here, or the first length that reaches `bound`."""
    best = length
    for bit, weight, m in links[n]:
        if used & bit:
            continue
        total = length + weight
        if total >= bound:
            return total
        found = _chain_walk(links, m, used | bit, total, bound)
        if found > best:
            best = found
            if found >= bound:
                return found
    return best


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
    if sum(1 for n in adj if owner[n] == p) < 2:
        return []  # a line needs two own buildings at its ends
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

    # Walk only from the buildings of a part a line can lie in (its ships' nodes, no other
    # player's building) with two own buildings or more and a ship not closed yet: elsewhere no
    # walk finds a new line.
    marked = state.ship_closed
    part: set[int] = set()
    starts: list[int] = []
    for s in adj:
        if owner[s] != p or s in part:
            continue
        members = [s]
        part.add(s)
        buildings = 0
        fresh = False
        for n in members:
            if owner[n] == p:
                buildings += 1
            for e, m in adj[n]:
                if owner[m] != NONE and owner[m] != p:
                    continue
                if e not in marked:
                    fresh = True
                if m not in part:
                    part.add(m)
                    members.append(m)
        if buildings >= 2 and fresh:
            starts.extend(n for n in members if owner[n] == p)
    for s in starts:
        seen.add(s)
        walk(s, s)
        seen.discard(s)
    return sorted(closed - marked)


def holder_after(state: State, previous: int) -> int:
    """X10: M the greatest length, T who has it: below the minimum nobody; one player holds
    it; several — the previous holder keeps it if among them, else nobody (LR18–LR21)."""
    lengths = state.routes
    top = max(lengths) if lengths else 0
    if top < state.rules.longest_route_min:
        return NONE
    if lengths.count(top) == 1:
        return lengths.index(top)
    return previous if previous != NONE and lengths[previous] == top else NONE


RouteFn = Callable[[State, int], int]
