"""A map drawn with what it works out from the world kept (maps/svg.py `kept`, issue 11): the
same bytes as a fresh drawing, whatever orders and battles the drawings in between had, and
the kept parts are not changed by a drawing."""

from __future__ import annotations

import copy
import math
import pickle
import re
from typing import Any

from maps import Layout
from maps.legend import ROW
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
    shared: dict[Any, Any] = {}  # one for every viewer
    for viewer, fog in ((None, False), ("denmark", True), ("sweden", True), ("sweden", False)):
        kept: dict[str, Any] = {}
        map_svg(doc, layout, viewer=viewer, fog=fog, kept=kept, shared=shared)  # keeps them
        snapshot = pickle.dumps({k: kept[k] for k in ("links", "provinces", "ports")})
        for orders in ORDERS:
            for events in EVENTS:
                fresh = map_svg(doc, layout, viewer=viewer, fog=fog, orders=orders, events=events)
                again = map_svg(
                    doc,
                    layout,
                    viewer=viewer,
                    fog=fog,
                    orders=orders,
                    events=events,
                    kept=kept,
                    shared=shared,
                )
                assert again == fresh, (viewer, fog, orders, events)
        assert pickle.dumps({k: kept[k] for k in ("links", "provinces", "ports")}) == snapshot
    assert len(shared) == 1  # the geometry and labels' plan, worked out once for all viewers


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


def _crowded() -> tuple[dict[str, Any], Layout]:
    """A ring of 450 seas (more labels than labels.CROWDED), a fleet on every tenth."""
    n = 450
    seas = [f"s{i:03d}" for i in range(n)]
    doc: dict[str, Any] = {
        "format": "naval-scenario/1",
        "map": {
            "provinces": [{"id": s, "kind": "sea"} for s in seas],
            "adjacent": [[seas[i], seas[(i + 1) % n]] for i in range(n)],
            "ports": [],
        },
        "factions": [{"id": "danes"}],
        "relations": [],
        "ship_types": [{"id": "frigate", "cost": 100, "attack": 4, "health": 10}],
        "fleets": [
            {
                "id": f"f{i}",
                "owner": "danes",
                "at": seas[i],
                "ships": [{"id": f"x{i}", "type": "frigate"}],
            }
            for i in range(0, n, 10)
        ],
    }
    positions = {
        s: (
            2000 + 1800 * math.cos(2 * math.pi * i / n),
            2000 + 1800 * math.sin(2 * math.pi * i / n),
        )
        for i, s in enumerate(seas)
    }
    return doc, Layout(positions=positions)


def test_a_crowded_maps_scene_is_kept_and_only_the_arrows_drawn_again() -> None:
    """On a crowded map the labels are placed without keeping off the arrows: everything but
    the arrows is the same whatever the orders, kept once, and the bytes are a fresh drawing's."""
    doc, layout = _crowded()
    orders = [
        [{"fleet": "f0", "type": "move", "path": ["s001", "s002"]}],
        [{"fleet": "f10", "type": "move", "path": ["s011"]}, {"fleet": "f20", "type": "hold"}],
        [{"fleet": "f0", "type": "move", "path": ["s449"]}],
    ]
    kept: dict[str, Any] = {}
    drawn = []
    for given in [*orders, orders[0]]:
        again = map_svg(doc, layout, viewer=None, fog=False, orders=given, kept=kept)
        assert again == map_svg(doc, layout, viewer=None, fog=False, orders=given)
        drawn.append(again)
    assert sum(1 for k in kept if isinstance(k, tuple) and k[0] == "scene") == 1
    labels = {d[d.index('<g class="labels">') : d.index('<g class="battles"')] for d in drawn}
    assert len(labels) == 1  # the same labels whatever the arrows
    assert drawn[0] == drawn[-1]


def test_a_scene_drawn_in_one_process_serves_another() -> None:
    """The map view keeps a crowded map's scenes in the shared cache (`SharedScenes`): another
    process, with nothing kept of its own, takes the scene from there and gives the same bytes."""
    from django.core.cache import cache

    from maps.map_cache import SharedScenes, world_layout_key

    doc, layout = _crowded()
    cache.clear()
    prefix = f"{world_layout_key(doc, layout)}|None|False"
    given = [{"fleet": "f0", "type": "move", "path": ["s001", "s002"]}]
    first = SharedScenes(prefix)
    drawn = map_svg(doc, layout, viewer=None, fog=False, orders=given, kept={}, scenes=first)
    assert set(first) == {("scene", ()), ("viewer-parts",)}
    other = SharedScenes(prefix)  # another process: its own (empty) dict, the same cache
    assert not other
    assert other.get(("scene", ())) is not None  # found in the cache
    other_orders = [{"fleet": "f10", "type": "move", "path": ["s011"]}]
    again = map_svg(doc, layout, viewer=None, fog=False, orders=other_orders, kept={}, scenes=other)
    assert again == map_svg(doc, layout, viewer=None, fog=False, orders=other_orders)
    assert set(other) == {("scene", ()), ("viewer-parts",)}  # taken from the cache, not drawn
    assert drawn != again  # other arrows
    cache.clear()


def test_a_crowded_maps_scene_serves_a_map_without_orders_and_with() -> None:
    """Issue 11: a crowded map's key is placed with the orders' row whether or not there are
    arrows, so the first map (no orders yet) and the next (with) are drawn from one scene; the
    row is drawn only with arrows, the box then one row shorter in the same corner (R-73: no
    empty line), and the bytes are a fresh drawing's either way."""
    doc, layout = _crowded()
    kept: dict[str, Any] = {}
    given = [{"fleet": "f0", "type": "move", "path": ["s001", "s002"]}]
    bare = map_svg(doc, layout, viewer=None, fog=False, orders=[], kept=kept)
    with_orders = map_svg(doc, layout, viewer=None, fog=False, orders=given, kept=kept)
    assert bare == map_svg(doc, layout, viewer=None, fog=False, orders=[])
    assert with_orders == map_svg(doc, layout, viewer=None, fog=False, orders=given)
    assert sum(1 for k in kept if isinstance(k, tuple) and k[0] == "scene") == 1
    assert "Orders: movement" not in bare
    assert "Orders: movement" in with_orders

    def legend_box(svg: str) -> dict[str, float]:
        start = svg.index('<g class="legend"')
        rect = svg[start : svg.index("/>", start)]
        return {k: float(v) for k, v in re.findall(r' (x|y|width|height)="([-\d.]+)"', rect)}

    bare_box, box = legend_box(bare), legend_box(with_orders)
    assert {k: bare_box[k] for k in ("x", "y", "width")} == {k: box[k] for k in ("x", "y", "width")}
    assert bare_box["height"] == box["height"] - ROW  # the same corner, no empty line


def test_a_viewers_parts_drawn_in_one_process_serve_another(baltic: Baltic) -> None:
    """Issue 11: the viewer's model, links, provinces and ports are kept in the scenes' store
    (the shared cache in the map view), on a small map too: another process with nothing kept
    of its own takes them from there, reads no model, and gives a fresh drawing's bytes."""
    from django.core.cache import cache

    from maps.map_cache import SharedScenes, world_layout_key

    doc, layout = baltic
    cache.clear()
    prefix = f"{world_layout_key(doc, layout)}|dk|True"
    map_svg(doc, layout, viewer="dk", fog=True, kept={}, scenes=SharedScenes(prefix))
    other = SharedScenes(prefix)
    kept: dict[str, Any] = {}
    for orders in ORDERS:
        for events in EVENTS:
            given = {"viewer": "dk", "fog": True, "orders": orders, "events": events}
            again = map_svg(doc, layout, kept=kept, scenes=other, **given)
            assert again == map_svg(doc, layout, **given)
    assert kept["model"] is other[("viewer-parts",)]["model"]  # the cache's, not read again
    cache.clear()


def test_one_shared_dict_serves_every_viewer_of_a_large_world_with_the_same_bytes() -> None:
    """Issue 20 §1: the land, seas, borders and ports are drawn once per set of seas looked
    over and kept with the geometry (`shared`), with what the fleets' badges cover there; a
    drawing through it, for any viewer with fog or without, and for the fleets moved, is the
    same bytes as a fresh drawing. Without fog every viewer shares one drawing of them."""
    from bench.generate import Spec, generate

    doc = generate(Spec(fleets=60, sea=300, land=40, factions=5, seed=4))
    layout = Layout()
    shared: dict[Any, Any] = {}
    factions = [f["id"] for f in doc["factions"]][:3]
    for viewer, fog in [(None, False), *((f, True) for f in factions), (factions[0], False)]:
        kept: dict[str, Any] = {}
        again = map_svg(doc, layout, viewer=viewer, fog=fog, kept=kept, shared=shared)
        assert again == map_svg(doc, layout, viewer=viewer, fog=fog), (viewer, fog)
    [common] = shared.values()
    looked_over = [k for k in common if isinstance(k, tuple) and k[0] == "static"]
    assert len(looked_over) == 1 + len(factions)  # no fog (None), and each faction's seas
    assert common["badge-places"]  # what the badges' places cover of the base, kept
    moved = copy.deepcopy(doc)
    steps = {o["fleet"]: o["path"][0] for o in doc["orders"] if o.get("type") == "move"}
    for fleet in moved["fleets"]:
        fleet["at"] = steps.get(fleet["id"], fleet["at"])
    assert moved["fleets"] != doc["fleets"]
    for viewer, fog in ((None, False), (factions[1], True)):
        again = map_svg(moved, layout, viewer=viewer, fog=fog, kept={}, shared=shared)
        assert again == map_svg(moved, layout, viewer=viewer, fog=fog), (viewer, fog)
    assert len(shared) == 1  # the fleets moved, the shape is the same
