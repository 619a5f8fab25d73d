"""Where each player's pieces reach: kept up to date by every write, for `legal_actions`.

Derived from the pieces and buildings, never serialised, rebuilt by `rebuild` when a position
is read, and changed by the few functions that place, lift or settle (game.py), so that the
action phase's list needs no pass over the player's pieces (issue 12's games per second):

- `road_at[p]`: node -> how many of p's roads end there;
- `ship_at[p]`: node -> p's ships ending there, in the order they were laid;
- `attach[p]`: each empty edge a new piece of p would be attached to (X2), with 1 for a road
  and 2 for a ship (3 both, at an own building): a node of the edge holds an own building, or
  holds no building and an own road (for a road) or ship (for a ship) ends there (SH4-SH6,
  SH13, B7). The checks (`game.attached`) say the same from the pieces themselves;
  tests/engine/seafarers/invariants.py holds the two equal after every action of every
  playout. X15's question (a free road or ship placeable anywhere, `game._any_free_placement`)
  is read from it too;
- `harbour_rates[p]`: p's rate for each resource (X11), renewed when p builds on a harbour;
- `split[p]`: p's network split for the route search (`routes.split_network`), so that the
  route after a piece (X10) needs no pass over the pieces either.
"""

from __future__ import annotations

from typing import Final

from engine.seafarers.routes import link, piece_ends, split_network
from engine.seafarers.rules import RESOURCES
from engine.seafarers.state import NONE, SHIP, State

ROAD_BIT: Final = 1
SHIP_BIT: Final = 2


def rebuild(state: State) -> None:
    """Everything from the pieces (a position just read)."""
    count = len(state.players)
    state.road_at = [{} for _ in range(count)]
    state.ship_at = [{} for _ in range(count)]
    state.attach = [{} for _ in range(count)]
    edge_nodes = state.board.edge_nodes
    piece = state.edge_piece
    for p in range(count):
        roads, ships = state.road_at[p], state.ship_at[p]
        for e in state.player_edges[p]:
            for n in edge_nodes[e]:
                if piece[e] == SHIP:
                    ships.setdefault(n, []).append(e)
                else:
                    roads[n] = roads.get(n, 0) + 1
    state.harbour_rates = [rates_of(state, p) for p in range(count)]
    state.split = [split_network(state, p) for p in range(count)]
    state.listing = [None] * count
    touched: set[int] = set()
    node_edges = state.board.node_edges
    for p in range(count):
        for n in (*state.road_at[p], *state.ship_at[p], *state.player_nodes[p]):
            touched.update(node_edges[n])
    for p in range(count):
        _renew(state, p, sorted(touched))


def rates_of(state: State, p: int) -> list[int]:
    """X11: 2 on a 2:1 harbour of the resource, else 3 on a generic harbour, else 4.

    MT1 MT2 MT3 MT4 MT5 MT6: 4:1 with the bank needs no harbour; MT7 MT8 MT9 MT10 MT11: a
    building on a generic harbour trades 3:1; MT12 MT13 MT14 MT15: a special harbour trades
    only its resource 2:1 (and no other better, not even 3:1, unless the player also has a
    generic one); MT16 MT17 MT18 MT19: its multiples (4 ore for 2 cards) are
    `maritime_trade`'s (X11)."""
    generic = 4
    special: set[str] = set()
    harbours = state.board.node_harbours
    for n in state.player_nodes[p]:  # a harbour's nodes are its edge's ends (X11)
        for kind in harbours[n]:
            if kind == "generic":
                generic = 3
            else:
                special.add(kind)
    return [2 if name in special else generic for name in RESOURCES]


def _renew(state: State, p: int, edges: tuple[int, ...] | list[int]) -> None:
    """The entries of `edges` in `attach[p]`, each from its two nodes (and p's listing for
    legal.py to be made again)."""
    state.listing[p] = None
    owner = state.node_owner
    taken = state.edge_piece
    edge_nodes = state.board.edge_nodes
    roads = state.road_at[p]
    ships = state.ship_at[p]
    attach = state.attach[p]
    for t in edges:
        how = 0
        if not taken[t]:
            for n in edge_nodes[t]:
                o = owner[n]
                if o == p:
                    how = ROAD_BIT | SHIP_BIT
                    break
                if o == NONE:
                    if n in roads:
                        how |= ROAD_BIT
                    if n in ships:
                        how |= SHIP_BIT
        if how:
            attach[t] = how
        else:
            attach.pop(t, None)


def placed(state: State, p: int, e: int, piece: int) -> None:
    """A road or ship of `p` was laid on `e` (written already): `e` is taken for everyone, and
    the empty edges at its nodes that hold no building are attached for its kind."""
    for q, attach in enumerate(state.attach):
        if attach.pop(e, None) is not None:
            state.listing[q] = None
    state.listing[p] = None
    link(state.split[p], e, *piece_ends(state, p, e, piece))
    bit = SHIP_BIT if piece == SHIP else ROAD_BIT
    attach = state.attach[p]
    owner = state.node_owner
    taken = state.edge_piece
    node_edges = state.board.node_edges
    for n in state.board.edge_nodes[e]:
        if piece == SHIP:
            ships = state.ship_at[p].get(n)
            if ships is None:
                state.ship_at[p][n] = [e]
            else:
                ships.append(e)
        else:
            roads = state.road_at[p]
            roads[n] = roads.get(n, 0) + 1
        if owner[n] == NONE:
            for t in node_edges[n]:
                if not taken[t]:
                    attach[t] = attach.get(t, 0) | bit
        # an own building attached every edge there already; another's attaches nothing


def lifted(state: State, p: int, e: int) -> None:
    """The ship of `p` on `e` was lifted (written already, X7): the edges at its nodes may lose
    their attachment for `p`, and `e`, empty again, may be attached for anyone."""
    node_edges = state.board.node_edges
    owner = state.node_owner
    nodes = state.board.edge_nodes[e]
    _unlink(state.split[p], e, *piece_ends(state, p, e, SHIP))
    state.listing[p] = None
    at = state.ship_at[p]
    for n in nodes:
        ships = at[n]
        ships.remove(e)
        if not ships:
            del at[n]
            if owner[n] == NONE:  # the edges there may have been attached by this ship alone
                _renew(state, p, node_edges[n])
    alone = (e,)
    a, b = nodes
    for q in range(len(state.players)):
        # e is attached for q only if q has a building, a road or a ship at one of its nodes
        if q == p or owner[a] == q or owner[b] == q:
            _renew(state, q, alone)
            continue
        their_roads, their_ships = state.road_at[q], state.ship_at[q]
        if a in their_roads or b in their_roads or a in their_ships or b in their_ships:
            _renew(state, q, alone)


def settled(state: State, p: int, n: int) -> None:
    """`p` built a settlement on the empty node `n` (written already): every empty edge there
    is attached for `p`, and no other player's piece ending there attaches anything now."""
    if state.board.node_harbours[n]:
        state.harbour_rates[p] = rates_of(state, p)
    attach = state.attach[p]
    taken = state.edge_piece
    edges = state.board.node_edges[n]
    for t in edges:
        if not taken[t]:
            attach[t] = ROAD_BIT | SHIP_BIT
    state.listing[p] = None
    for q in range(len(state.players)):
        if q != p and (n in state.road_at[q] or n in state.ship_at[q]):
            _renew(state, q, edges)
    # Each piece ending at n now meets the others at p's building, or ends alone there.
    edge_nodes = state.board.edge_nodes
    for f in edges:
        q = state.edge_owner[f]
        if q != NONE:
            kind = state.edge_piece[f]
            a, b = piece_ends(state, q, f, kind)
            was = n << 2 | kind  # the node was empty
            _unlink(state.split[q], f, *((was, b) if edge_nodes[f][0] == n else (a, was)))
            link(state.split[q], f, a, b)


def _unlink(split: dict[int, list[tuple[int, int]]], e: int, a: int, b: int) -> None:
    for here, there in ((a, b), (b, a)):
        links = split[here]
        links.remove((e, there))
        if not links:
            del split[here]


# The state's slots this module keeps (the invariants compare them with a `rebuild`).
SLOTS = ("road_at", "ship_at", "attach", "harbour_rates", "split")
