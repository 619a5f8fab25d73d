"""Plain words for a board's places, shared by the picture's titles and the report's lines.

A board file names only its islands (seafarers-format.md "Board"); everything else is written
from coordinates: a hex by its terrain and number ("forest 6 at 1,0 on main"), a node by its
canonical name, an edge as a hex's side ("1,0,E", a land hex's where it has one), which is easier
to find on the board than its two corners. Graph boards keep their node names as written."""

from __future__ import annotations

from collections.abc import Sequence

from engine.seafarers import State
from engine.seafarers.board import SIDES
from seafarers.board_geometry import EdgeKey, sides_of


class Places:
    def __init__(self, state: State) -> None:
        board = state.board
        self.is_hex = board.is_hex
        self.hex_terrain = {h.id: h.terrain for h in board.hexes}
        self.hex_number = {h.id: h.number for h in board.hexes}
        self.hex_island = {h: isle.id for isle in board.islands for h in isle.hexes or ()}
        self.node_island = {
            name: isle
            for name, isle in zip(board.node_names, board.node_island, strict=True)
            if isle is not None
        }
        edge_hexes: dict[EdgeKey, list[str]] = {}
        self.sides: dict[EdgeKey, str] = {}
        if board.is_hex:
            land_first = sorted(board.hexes, key=lambda h: (h.terrain == "sea", h.r, h.q))
            for h in land_first:
                assert h.q is not None
                assert h.r is not None
                for side, key in zip(SIDES, sides_of(h.q, h.r), strict=True):
                    edge_hexes.setdefault(key, []).append(h.id)
                    self.sides.setdefault(key, f"{h.id},{side}")
        self.edge_hexes = {k: tuple(sorted(v)) for k, v in edge_hexes.items()}

    def hex(self, hid: str) -> str:
        terrain = self.hex_terrain.get(hid, "hex")
        number = self.hex_number.get(hid)
        numbered = f" {number}" if number is not None else ""
        return f"{terrain}{numbered} at {hid}{self._on(self.hex_island.get(hid))}"

    def node(self, name: str) -> str:
        return name + self._on(self.node_island.get(name))

    def edge(self, edge: Sequence[str] | str) -> str:
        """An edge as its two nodes (any order) or as written."""
        if isinstance(edge, str):
            return edge
        first, second = sorted(str(n) for n in edge)
        isle = self.node_island.get(first) or self.node_island.get(second)
        return self.sides.get((first, second), f"{first}–{second}") + self._on(isle)

    @staticmethod
    def _on(isle: str | None) -> str:
        return f" on {isle}" if isle else ""
