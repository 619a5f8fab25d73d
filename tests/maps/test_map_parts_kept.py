"""A map drawn with what it works out from the world kept (maps/svg.py `kept`, issue 11): the
same bytes as a fresh drawing, whatever orders and battles the drawings in between had, and
the kept parts are not changed by a drawing."""

from __future__ import annotations

import copy
import pickle
from typing import Any

from maps import Layout
from maps.svg import map_svg

Baltic = tuple[dict[str, Any], Layout]
ORDERS: list[list[dict[str, Any]]] = [
    [],
    [{"fleet": "dk-1", "type": "move", "path": ["oresund", "arkona_basin"]}],
    [
        {"fleet": "dk-1", "type": "move", "path": ["oresund"]},
        {"fleet": "se-1", "type": "blockade", "port": "stralsund", "path": ["bornholm_basin"]},
    ],
    [{"fleet": "se-1", "type": "move", "path": ["bornholm_basin", "arkona_basin"]}],
]
EVENTS: list[list[dict[str, Any]]] = [[], [{"type": "battle", "province": "skagerrak"}]]


def test_kept_parts_give_the_same_bytes_as_a_fresh_drawing(baltic: Baltic) -> None:
    doc, layout = baltic
    for viewer, fog in ((None, False), ("denmark", True), ("sweden", True), ("sweden", False)):
        kept: dict[str, Any] = {}
        map_svg(doc, layout, viewer=viewer, fog=fog, kept=kept)  # the first drawing keeps them
        snapshot = pickle.dumps({k: kept[k] for k in ("links", "provinces", "ports")})
        for orders in ORDERS:
            for events in EVENTS:
                fresh = map_svg(doc, layout, viewer=viewer, fog=fog, orders=orders, events=events)
                again = map_svg(
                    doc, layout, viewer=viewer, fog=fog, orders=orders, events=events, kept=kept
                )
                assert again == fresh, (viewer, fog, orders, events)
        assert pickle.dumps({k: kept[k] for k in ("links", "provinces", "ports")}) == snapshot


def test_the_kept_model_and_geometry_are_not_changed_by_a_drawing(baltic: Baltic) -> None:
    doc, layout = baltic
    kept: dict[str, Any] = {}
    map_svg(doc, layout, viewer="denmark", kept=kept)
    model, geo, plan = (copy.deepcopy(kept[k]) for k in ("model", "geo", "labels"))
    for orders in ORDERS:
        map_svg(doc, layout, viewer="denmark", orders=orders, events=EVENTS[1], kept=kept)
    assert kept["model"] == model
    assert kept["geo"] == geo
    assert kept["labels"] == plan
