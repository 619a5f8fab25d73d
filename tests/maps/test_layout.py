"""Layouts: from rows, with defaults for what the rows leave out."""

from __future__ import annotations

import dataclasses

import pytest

from maps import Layout, layout_from_rows
from maps.layout import PALETTE, PIRATE_COLOUR


def test_layout_from_rows() -> None:
    layout = layout_from_rows(
        [("kattegat", "Kattegat", 412, 318), ("zealand", "", 440.5, 360)],
        [("copenhagen", "Copenhagen"), ("malmo", "")],
        [("danes", "Denmark–Norway", "#C8102E"), ("swedes", "", "blue")],
        title="Baltic",
    )
    assert layout.positions == {"kattegat": (412.0, 318.0), "zealand": (440.5, 360.0)}
    assert layout.province_name("kattegat") == "Kattegat"
    assert layout.province_name("zealand") == "zealand"
    assert layout.port_name("copenhagen") == "Copenhagen"
    assert layout.port_name("malmo") == "malmo"
    assert layout.faction_name("danes") == "Denmark–Norway"
    assert layout.faction_name("swedes") == "swedes"
    assert layout.colour("danes") == "#c8102e"
    assert layout.colour("swedes") in PALETTE  # "blue" is not #rrggbb
    assert layout.colour("swedes") == layout_from_rows([], [], []).colour("swedes")
    assert layout.colour("pirates") == PIRATE_COLOUR
    assert layout.faction_name("pirates") == "Pirates"
    assert layout.title == "Baltic"


def test_a_layout_is_frozen() -> None:
    layout = Layout(positions={"a": (1, 2)}, faction_colours={"x": "#000000"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        layout.title = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        layout.positions["b"] = (3, 4)  # type: ignore[index]


def test_fill_points_are_read_from_the_stored_form_and_anything_else_left_out() -> None:
    stored = {"land": [[10, 20], [10, 20], [5, "x"], [1]], "sea": [[30.5, 40]], "lava": [[1, 2]]}
    layout = layout_from_rows([], fill=stored)
    assert layout.fill == (("land", 10.0, 20.0), ("sea", 30.5, 40.0))
    assert layout_from_rows([], fill=None).fill == ()
    assert Layout(fill=(("sea", 1, 2), ("land", float("nan"), 0))).fill == (("sea", 1.0, 2.0),)
