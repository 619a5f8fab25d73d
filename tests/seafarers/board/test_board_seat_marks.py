"""Each seat's pieces carry a mark of its own beside its colour (red and orange look alike to
many eyes): every piece of a seat holds the same small white glyph, no two
seats share one, and the key shows each seat's glyph on its swatch."""

from __future__ import annotations

from engine.seafarers import parse_scenario
from seafarers.board_marks import SEAT_COLOURS
from seafarers.board_svg import board_svg
from tests.seafarers.board.helpers import crafted_doc, find, parse

# Four more seats, each with a road on the crafted board's land: six in all, one per colour.
MORE = {"orange": "0,0,SW", "green": "0,0,SE", "sky": "1,0,SW", "sand": "1,0,SE"}


def six_seats():
    doc = crafted_doc("red", "blue")
    doc["players"] += [{"id": pid, "roads": [edge]} for pid, edge in MORE.items()]
    return parse_scenario(doc).state


def glyphs_in(element) -> list[str]:
    return [
        c.removeprefix("glyph-")
        for e in element.iter()
        for c in (e.get("class") or "").split()
        if c.startswith("glyph-")
    ]


def test_every_seat_has_a_mark_of_its_own_on_every_piece_and_in_the_key() -> None:
    state = six_seats()
    root = parse(board_svg(state, viewer=None))
    marks: dict[str, set[str]] = {}
    for piece in find(root, "piece"):
        found = glyphs_in(piece)
        assert len(found) == 1, piece.get("data-place")
        marks.setdefault(piece.get("data-owner") or "", set()).update(found)
    assert set(marks) == set(state.players)
    assert all(len(m) == 1 for m in marks.values())  # one mark a seat, on all its pieces
    per_seat = {pid: next(iter(m)) for pid, m in marks.items()}
    assert len(set(per_seat.values())) == len(state.players)  # no two seats share one
    colours = {r.get("data-player"): r.get("data-colour") for r in find(root, "legend-player")}
    assert len(set(colours.values())) == len(state.players)
    for row in find(root, "legend-player"):
        assert glyphs_in(row) == [per_seat[row.get("data-player") or ""]]
        assert row.get("data-glyph") == per_seat[row.get("data-player") or ""]


def test_the_look_alike_pair_has_the_most_unlike_marks() -> None:
    root = parse(board_svg(six_seats(), viewer=None))
    rows = {r.get("data-colour"): r.get("data-glyph") for r in find(root, "legend-player")}
    assert rows[SEAT_COLOURS["red"]] == "dot"
    assert rows[SEAT_COLOURS["orange"]] == "cross"
