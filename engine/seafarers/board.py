"""The board: hexes in axial coordinates or a plain graph, read once into integer ids.

Nodes, edges and hexes are numbered; every table below is a tuple indexed by those numbers, so
the rules and the route search never touch a string. Names are the format's canonical ones
(seafarers-format.md "Board"): a hex node `q,r,N|S`, an edge the sorted pair of its nodes.
Edge kinds come from the hexes on their two sides (seafarers.md X1, SH3, SH7, SH8, B1). Gold
fields (GD1, GD2) are a terrain that yields a pick, never a card (GD3). A ship links the two
nodes at its ends (SH10), a row of them links across the water (SH11): edges join nodes here
whatever lies on them, and the rules decide what a piece may join.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

TERRAINS = ("hills", "forest", "pasture", "fields", "mountains", "gold", "desert", "sea")
# B1: what each land hex yields; gold is GD1-GD4 (a pick, never a card).
RESOURCE_OF = {"hills": 0, "forest": 1, "pasture": 2, "fields": 3, "mountains": 4}
GOLD: Final = "gold"
GOLD_YIELD: Final = -1  # a gold field's yield in `Board.production`: a pick (GD3)
LAND: Final = "land"
COAST: Final = "coast"
SEA: Final = "sea"
EDGE_KINDS = (LAND, COAST, SEA)
NO_EDGES: frozenset[int] = frozenset()  # no pirate, nothing blocked (X18)
CORNERS = ("N", "NE", "SE", "S", "SW", "NW")
SIDES = ("NE", "E", "SE", "SW", "W", "NW")
# Neighbour of a hex across each side (pointy-top axial coordinates).
NEIGHBOUR = {
    "E": (1, 0),
    "W": (-1, 0),
    "NE": (1, -1),
    "NW": (0, -1),
    "SE": (0, 1),
    "SW": (-1, 1),
}
# The two corners at the ends of each side.
SIDE_CORNERS = {
    "NE": ("N", "NE"),
    "E": ("NE", "SE"),
    "SE": ("SE", "S"),
    "SW": ("S", "SW"),
    "W": ("SW", "NW"),
    "NW": ("NW", "N"),
}


def canonical_corner(q: int, r: int, corner: str) -> str:
    """NE(q,r)=S(q+1,r-1), SE(q,r)=N(q,r+1), SW(q,r)=N(q-1,r+1), NW(q,r)=S(q,r-1)."""
    if corner == "NE":
        return f"{q + 1},{r - 1},S"
    if corner == "SE":
        return f"{q},{r + 1},N"
    if corner == "SW":
        return f"{q - 1},{r + 1},N"
    if corner == "NW":
        return f"{q},{r - 1},S"
    return f"{q},{r},{corner}"


def parse_place(text: str, parts: tuple[str, ...]) -> tuple[int, int, str] | None:
    """`q,r,X` with X one of `parts`, or None."""
    pieces = text.split(",")
    if len(pieces) != 3 or pieces[2] not in parts:
        return None
    try:
        return int(pieces[0]), int(pieces[1]), pieces[2]
    except ValueError:
        return None


def parse_hex(text: str) -> tuple[int, int] | None:
    pieces = text.split(",")
    if len(pieces) != 2:
        return None
    try:
        return int(pieces[0]), int(pieces[1])
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class Hex:
    id: str
    terrain: str
    number: int | None
    q: int | None = None
    r: int | None = None
    nodes: tuple[str, ...] | None = None  # graph boards only, as written


@dataclass(frozen=True, slots=True)
class Harbour:
    edge: int
    kind: str  # "generic" or a resource name


@dataclass(frozen=True, slots=True)
class Island:
    id: str
    hexes: tuple[str, ...] | None  # hex boards
    nodes: tuple[str, ...] | None  # graph boards


class Board:
    """An immutable board; built by `hex_board` or `graph_board`. Robber and pirate positions
    live in the state; the board only knows where they start."""

    def __init__(
        self,
        *,
        is_hex: bool,
        node_names: list[str],
        edge_pairs: list[tuple[int, int]],
        edge_kinds: list[str],
        hexes: list[Hex],
        hex_nodes: list[tuple[int, ...]],
        hex_edges: list[tuple[int, ...]],
        land_nodes: set[int],
        graph_edges_as_written: list[tuple[str, str, str]] | None = None,
    ) -> None:
        self.is_hex = is_hex
        self.node_names = tuple(node_names)
        self.node_index = {name: n for n, name in enumerate(node_names)}
        order = sorted(
            range(len(edge_pairs)),
            key=lambda e: sorted((node_names[edge_pairs[e][0]], node_names[edge_pairs[e][1]])),
        )
        pairs = [edge_pairs[e] for e in order]
        self.edge_nodes: tuple[tuple[int, int], ...] = tuple(pairs)
        self.edge_kind: tuple[str, ...] = tuple(edge_kinds[e] for e in order)
        renumber = {old: new for new, old in enumerate(order)}
        self.edge_names: tuple[tuple[str, str], ...] = tuple(
            tuple(sorted((node_names[a], node_names[b])))  # type: ignore[misc]
            for a, b in pairs
        )
        self.edge_index: dict[tuple[int, int], int] = {}
        for e, (a, b) in enumerate(pairs):
            self.edge_index[(a, b)] = e
            self.edge_index[(b, a)] = e
        node_edges: list[list[int]] = [[] for _ in node_names]
        for e, (a, b) in enumerate(pairs):
            node_edges[a].append(e)
            node_edges[b].append(e)
        self.node_edges: tuple[tuple[int, ...], ...] = tuple(tuple(x) for x in node_edges)
        self.node_neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(pairs[e][1] if pairs[e][0] == n else pairs[e][0] for e in node_edges[n])
            for n in range(len(node_names))
        )
        self.hexes = tuple(hexes)
        self.hex_index = {h.id: i for i, h in enumerate(hexes)}
        self.hex_nodes = tuple(hex_nodes)
        self.hex_edges = tuple(tuple(sorted(renumber[e] for e in edges)) for edges in hex_edges)
        self.hex_is_land = tuple(h.terrain != "sea" for h in hexes)
        # The same edges as sets: what the pirate blocks (X18), asked of many edges in a list.
        self.hex_edge_sets = tuple(frozenset(edges) for edges in self.hex_edges)
        # The hexes of each kind with their ids, in board order: where the robber (land) and
        # the pirate (sea) may be moved (X16, X17).
        self.land_hexes = tuple((h, hx.id) for h, hx in enumerate(hexes) if self.hex_is_land[h])
        self.sea_hexes = tuple((h, hx.id) for h, hx in enumerate(hexes) if not self.hex_is_land[h])
        edge_hexes: list[list[int]] = [[] for _ in pairs]
        for h, edges in enumerate(self.hex_edges):
            for e in edges:
                edge_hexes[e].append(h)
        self.edge_hexes: tuple[tuple[int, ...], ...] = tuple(tuple(x) for x in edge_hexes)
        node_hexes: list[list[int]] = [[] for _ in node_names]
        for h, nodes in enumerate(hex_nodes):
            for n in nodes:
                node_hexes[n].append(h)
        self.node_hexes: tuple[tuple[int, ...], ...] = tuple(tuple(x) for x in node_hexes)
        self.is_land_node = tuple(n in land_nodes for n in range(len(node_names)))
        self.graph_edges_as_written = graph_edges_as_written
        # Filled in by `with_extras`.
        self.harbours: tuple[Harbour, ...] = ()
        self.node_harbours: tuple[tuple[str, ...], ...] = tuple(() for _ in node_names)
        self.islands: tuple[Island, ...] = ()
        self.node_island: tuple[str | None, ...] = tuple(None for _ in node_names)
        self.robber_start: int | None = None
        self.pirate_start: int | None = None
        # Hexes by number, for production (B9).
        by_number: dict[int, list[int]] = {}
        for h, hx in enumerate(hexes):
            if hx.number is not None and (hx.terrain in RESOURCE_OF or hx.terrain == GOLD):
                by_number.setdefault(hx.number, []).append(h)
        self.hexes_by_number = {k: tuple(v) for k, v in by_number.items()}
        # The same, each hex with what it yields (a resource's index, GOLD_YIELD for a pick) and
        # its corners: the roll's one table (B9, GD4).
        self.production: dict[int, tuple[tuple[int, int, tuple[int, ...]], ...]] = {
            k: tuple(
                (h, RESOURCE_OF.get(hexes[h].terrain, GOLD_YIELD), self.hex_nodes[h]) for h in v
            )
            for k, v in self.hexes_by_number.items()
        }

    # -- names ------------------------------------------------------------------------------
    def node_of(self, text: object) -> int | None:
        """The node a string names (any corner notation on a hex board), or None."""
        if not isinstance(text, str):
            return None
        known = self.node_index.get(text)  # a canonical name, as every result writes it
        if known is not None or not self.is_hex:
            return known
        if self.is_hex:
            place = parse_place(text, CORNERS)
            if place is None:
                return None
            text = canonical_corner(*place)
        return self.node_index.get(text)

    def edge_of(self, value: object) -> int | None:
        """The edge a value names: `q,r,D` on a hex board, or a pair of nodes; else None."""
        if isinstance(value, str):
            if not self.is_hex:
                return None
            place = parse_place(value, SIDES)
            if place is None:
                return None
            q, r, side = place
            a, b = SIDE_CORNERS[side]
            na = self.node_index.get(canonical_corner(q, r, a))
            nb = self.node_index.get(canonical_corner(q, r, b))
            if na is None or nb is None:
                return None
            return self.edge_index.get((na, nb))
        if isinstance(value, list | tuple) and len(value) == 2:
            na, nb = self.node_of(value[0]), self.node_of(value[1])
            if na is None or nb is None:
                return None
            return self.edge_index.get((na, nb))
        return None

    def hex_of(self, text: object) -> int | None:
        if not isinstance(text, str):
            return None
        if self.is_hex:
            place = parse_hex(text)
            if place is None:
                return None
            text = f"{place[0]},{place[1]}"
        return self.hex_index.get(text)

    def edge_name(self, e: int) -> list[str]:
        return list(self.edge_names[e])

    def edge_label(self, e: int) -> str:
        """An edge for a message: its two nodes."""
        a, b = self.edge_names[e]
        return f"{a}–{b}"


def is_edge_shape(value: object) -> bool:
    """A string, or a pair of strings (the shapes an edge may be written in)."""
    if isinstance(value, str):
        return True
    return (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(x, str) for x in value)
    )


def _interner(names: list[str], index: dict[str, int]) -> Callable[[str], int]:
    """A node's integer id by its name, given the next id the first time the name is seen."""

    def node(name: str) -> int:
        n = index.get(name)
        if n is None:
            n = index[name] = len(names)
            names.append(name)
        return n

    return node


def hex_board(hexes: list[Hex]) -> Board:
    """A pointy-top axial board: the corners and sides of its hexes; kinds from X1."""
    node_names: list[str] = []
    node_index: dict[str, int] = {}
    node = _interner(node_names, node_index)

    hex_nodes: list[tuple[int, ...]] = []
    for h in hexes:
        assert h.q is not None
        assert h.r is not None
        hex_nodes.append(tuple(node(canonical_corner(h.q, h.r, c)) for c in CORNERS))
    edge_pairs: list[tuple[int, int]] = []
    edge_sides: list[list[int]] = []  # hexes on each side
    edge_at: dict[tuple[int, int], int] = {}
    hex_edges: list[list[int]] = [[] for _ in hexes]
    for i, h in enumerate(hexes):
        assert h.q is not None
        assert h.r is not None
        for side in SIDES:
            a, b = SIDE_CORNERS[side]
            na = node_index[canonical_corner(h.q, h.r, a)]
            nb = node_index[canonical_corner(h.q, h.r, b)]
            key = (min(na, nb), max(na, nb))
            e = edge_at.get(key)
            if e is None:
                e = edge_at[key] = len(edge_pairs)
                edge_pairs.append(key)
                edge_sides.append([])
            edge_sides[e].append(i)
            hex_edges[i].append(e)
    kinds = []
    for sides in edge_sides:  # X1: a side with no hex (the rim) does not count
        land = any(hexes[i].terrain != "sea" for i in sides)
        sea = any(hexes[i].terrain == "sea" for i in sides)
        kinds.append(COAST if land and sea else LAND if land else SEA)
    land_nodes = {
        n for i, h in enumerate(hexes) if h.terrain != "sea" for n in hex_nodes[i]
    }  # B1: a land node is a corner of a land hex
    return Board(
        is_hex=True,
        node_names=node_names,
        edge_pairs=edge_pairs,
        edge_kinds=kinds,
        hexes=hexes,
        hex_nodes=hex_nodes,
        hex_edges=[tuple(x) for x in hex_edges],
        land_nodes=land_nodes,
    )


def graph_board(edges: list[tuple[str, str, str]], hexes: list[Hex]) -> Board:
    """A plain graph (rule tests): nodes are the strings named; a hex's edges are the board
    edges with both ends among its nodes (X18)."""
    node_names: list[str] = []
    node_index: dict[str, int] = {}
    node = _interner(node_names, node_index)

    edge_pairs: list[tuple[int, int]] = []
    kinds: list[str] = []
    for a, b, kind in edges:
        edge_pairs.append((node(a), node(b)))
        kinds.append(kind)
    hex_nodes = [tuple(node(n) for n in (h.nodes or ())) for h in hexes]
    hex_edges = []
    for nodes in hex_nodes:
        members = set(nodes)
        hex_edges.append(
            tuple(e for e, (a, b) in enumerate(edge_pairs) if a in members and b in members)
        )
    land_nodes = {n for i, h in enumerate(hexes) if h.terrain != "sea" for n in hex_nodes[i]}
    for (na, nb), edge_kind in zip(edge_pairs, kinds, strict=True):
        if edge_kind != SEA:  # B1 on a graph: touches a land or coast edge
            land_nodes.update((na, nb))
    return Board(
        is_hex=False,
        node_names=node_names,
        edge_pairs=edge_pairs,
        edge_kinds=kinds,
        hexes=hexes,
        hex_nodes=hex_nodes,
        hex_edges=hex_edges,
        land_nodes=land_nodes,
        graph_edges_as_written=edges,
    )
