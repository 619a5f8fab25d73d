"""Plain words for a board's places, shared by the picture's titles, the desk's list of places
and the report's lines (issue 13: the desk read "a city at -1,-1,S on home").

A board file names only its islands (seafarers-format.md "Board"); the rest is worded from what
a player sees on the board: a land hex by its terrain and number ("forest 6 on home"), a sea hex
by the land hex it lies beside ("the sea east of forest 6"), a node as a corner of a hex and a
side as a side of one ("the north corner of forest 6 on home", "the south-east side of hills 4"),
the land hex first, with the harbour there if any ("at a 2:1 wool harbour"). A place whose words
another place has too (two "fields 9" on one island) keeps its coordinates in brackets, so every
place has words of its own (docs/rulings.md S-39). Graph boards keep their node names as
written.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.seafarers import State
from engine.seafarers.board import CORNERS, SIDES
from seafarers.board_geometry import EdgeKey, edge_key, sides_of

# Compass words for the corners and sides of a pointy-top hex (engine/seafarers/board.py).
COMPASS = {
    "N": "north",
    "NE": "north-east",
    "E": "east",
    "SE": "south-east",
    "S": "south",
    "SW": "south-west",
    "W": "west",
    "NW": "north-west",
}
# The hex beyond each side, in axial coordinates.
BEYOND = {"NE": (1, -1), "E": (1, 0), "SE": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (0, -1)}
# X11: a generic harbour trades 3:1, a resource's 2:1.
RATE = {"generic": "3:1"}


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
        side_words: dict[EdgeKey, tuple[str, str]] = {}
        self.corners: dict[str, tuple[str, str]] = {}  # node -> (its hex, the corner)
        self.harbour_of_edge: dict[EdgeKey, str] = {}
        self.harbour_of_node: dict[str, str] = {}
        if board.is_hex:
            land_first = sorted(board.hexes, key=lambda h: (h.terrain == "sea", h.r, h.q))
            for h in land_first:
                assert h.q is not None
                assert h.r is not None
                for side, key in zip(SIDES, sides_of(h.q, h.r), strict=True):
                    edge_hexes.setdefault(key, []).append(h.id)
                    self.sides.setdefault(key, f"{h.id},{side}")
                    side_words.setdefault(key, (h.id, side))
                hx = board.hex_index[h.id]
                for corner, n in zip(CORNERS, board.hex_nodes[hx], strict=True):
                    self.corners.setdefault(board.node_names[n], (h.id, corner))
            for harbour in board.harbours:
                a, b = board.edge_nodes[harbour.edge]
                key = edge_key((board.node_names[a], board.node_names[b]))
                self.harbour_of_edge[key] = harbour.kind
            for name, kinds in zip(board.node_names, board.node_harbours, strict=True):
                if kinds:
                    self.harbour_of_node[name] = kinds[0]
        self.edge_hexes = {k: tuple(sorted(v)) for k, v in edge_hexes.items()}
        self.side_words = side_words
        self.sea_island: dict[str, str] = {}  # a sea hex: the island of the hex it is worded by
        self.hex_words = self._hex_words(board) if board.is_hex else {}
        # A corner's and a side's words, written when first asked for. They are distinct by
        # construction: a hex's words are (repeated ones carry their coordinates), a corner or a
        # side is one of a hex, and a corner with one land hex has one sea-lane (S-39).
        self.node_words: dict[str, str] = {}
        self.edge_words: dict[EdgeKey, str] = {}

    def _hex_words(self, board: Any) -> dict[str, str]:
        """Each hex's words, unique: a land hex its terrain and number, a sea hex the land hex
        it lies beside; a repeated one with its coordinates."""
        at = {(h.q, h.r): h.id for h in board.hexes}
        land = {}
        for h in board.hexes:
            if h.terrain != "sea":
                number = f" {h.number}" if h.number is not None else ""
                land[h.id] = f"{h.terrain}{number}"
        words = _unique(land, self.hex_island)
        sea = {}
        land_hexes = [h for h in board.hexes if h.id in words]
        for h in board.hexes:
            if h.terrain == "sea":
                for side, (dq, dr) in BEYOND.items():  # the first land hex beside it
                    other = at.get((h.q - dq, h.r - dr))
                    if other in words:
                        sea[h.id] = f"the sea {COMPASS[side]} of {words[other]}"
                        if other in self.hex_island:
                            self.sea_island[h.id] = self.hex_island[other]
                        break
                else:  # open water: by the nearest land, as a player would point at it
                    sea[h.id] = _far_sea(h, land_hexes, words)
        return {**words, **_distinct(sea)}

    def hex(self, hid: str) -> str:
        if self.is_hex and hid in self.hex_words:
            words = self.hex_words[hid]
            isle = self.hex_island.get(hid) or self._sea_island(hid)
            return words + self._on(isle)
        terrain = self.hex_terrain.get(hid, "hex")
        number = self.hex_number.get(hid)
        numbered = f" {number}" if number is not None else ""
        return f"{terrain}{numbered} at {hid}{self._on(self.hex_island.get(hid))}"

    def node(self, name: str) -> str:
        if name not in self.corners:  # a graph board's node, as written
            return name + self._on(self.node_island.get(name))
        words = self.node_words.get(name)
        if words is None:
            words = self.node_words[name] = self._node_text(name)
        return words

    def _node_text(self, name: str) -> str:
        return self._corner(name) + self._harbour(self.harbour_of_node.get(name))

    def _corner(self, name: str) -> str:
        hid, at = self.corners[name]
        isle = self.node_island.get(name) or self.hex_island.get(hid) or self._sea_island(hid)
        return f"the {COMPASS[at]} corner of {self.hex_words[hid]}{self._on(isle)}"

    def edge(self, edge: Sequence[str] | str) -> str:
        """An edge as its two nodes (any order) or as written."""
        if isinstance(edge, str):
            return edge
        first, second = sorted(str(n) for n in edge)
        key = (first, second)
        if key not in self.side_words:  # a graph board's edge
            isle = self.node_island.get(first) or self.node_island.get(second)
            return self.sides.get(key, f"{first}–{second}") + self._on(isle)
        words = self.edge_words.get(key)
        if words is None:
            words = self.edge_words[key] = self._edge_text(key)
        return words

    def _edge_text(self, key: EdgeKey) -> str:
        first, second = key
        hid, at = self.side_words[key]
        harbour = self._harbour(self.harbour_of_edge.get((first, second)))
        if self.hex_terrain.get(hid) != "sea":
            isle = self.hex_island.get(hid)
            return f"the {COMPASS[at]} side of {self.hex_words[hid]}{self._on(isle)}{harbour}"
        # Open water on both sides: the lane off a coast's corner (a corner with one land hex
        # has one such lane), else a side of the sea hex.
        for end in (first, second):
            corner = self.corners.get(end)
            if corner is not None and self.hex_terrain.get(corner[0]) != "sea":
                return f"the sea-lane off {self._corner(end)}"
        return f"the {COMPASS[at]} side of {self.hex_words[hid]}{self._on(self._sea_island(hid))}"

    def _sea_island(self, hid: str) -> str | None:
        return self.sea_island.get(hid)

    @staticmethod
    def _harbour(kind: str | None) -> str:
        if kind is None:
            return ""
        return f", at a {RATE.get(kind, '2:1')}{'' if kind == 'generic' else ' ' + kind} harbour"

    @staticmethod
    def _on(isle: str | None) -> str:
        return f" on {isle}" if isle else ""


# How far, in words, for the open sea (issue 20 §4: "the sea two hexes west of forest 9").
HOW_FAR = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def _far_sea(sea: Any, land: Sequence[Any], words: dict[str, str]) -> str:
    """A sea hex no land touches, worded by the nearest land hex (the first of the nearest in
    the board's order): "the sea two hexes west of forest 9" when it lies straight off one of
    the land hex's sides, else "the sea three hexes from forest 9"."""
    if not land:
        return f"the open sea at {sea.id}"
    near = min(land, key=lambda h: _distance(sea.q - h.q, sea.r - h.r))
    dq, dr = sea.q - near.q, sea.r - near.r
    steps = _distance(dq, dr)
    far = HOW_FAR.get(steps, str(steps))
    for side, (uq, ur) in BEYOND.items():
        if (dq, dr) == (uq * steps, ur * steps):
            return f"the sea {far} hexes {COMPASS[side]} of {words[near.id]}"
    return f"the sea {far} hexes from {words[near.id]}"


def _distance(dq: int, dr: int) -> int:
    """Steps between two hexes in axial coordinates."""
    return max(abs(dq), abs(dr), abs(dq + dr))


def _distinct(sea: dict[str, str]) -> dict[str, str]:
    """Sea words another sea hex has too keep the hex's coordinates in brackets (S-39)."""
    count: dict[str, int] = {}
    for text in sea.values():
        count[text] = count.get(text, 0) + 1
    return {hid: text if count[text] == 1 else f"{text} ({hid})" for hid, text in sea.items()}


def _unique(words: dict[str, str], island: dict[str, str]) -> dict[str, str]:
    """The words, with the coordinates of every hex whose words and island another has too."""
    seen: dict[tuple[str, str | None], int] = {}
    for hid, text in words.items():
        seen[(text, island.get(hid))] = seen.get((text, island.get(hid)), 0) + 1
    return {
        hid: text if seen[(text, island.get(hid))] == 1 else f"{text} ({hid})"
        for hid, text in words.items()
    }
