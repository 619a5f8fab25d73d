"""The naval map pages: the SVG map as it stands and a published turn's, as the member sees it
(fog of war when the campaign has it on; the moderator sees everything). Every view fetches
through `membership_get` (404 for non-members)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from campaign.models import Turn
from engine.naval import suggest_pirate_orders
from fleets.mapping import orders_document, world_document
from fleets.models import Faction, Port, Province
from fleets.report_views import published_turn
from fleets.selectors import campaign_drawing, membership_get
from fleets.world_cache import kept_world
from maps.layout import layout_from_rows
from maps.map_cache import SharedScenes, map_cached, map_layout_key, world_layout_key
from maps.svg import map_svg


@login_required
@require_GET
def campaign_map(request: HttpRequest, slug: str) -> HttpResponse:
    """The map as it stands, as the member sees it, with the faction's orders as arrows."""
    membership = membership_get(request.user, slug)
    campaign = membership.campaign
    turn = campaign.current_turn
    viewer = membership.faction.key if membership.faction else None
    # The world and its layout as kept for this version of the world (fleets/world_cache.py):
    # read, and the map cache's key for them hashed, once per version, not per request.
    kept = kept_world(campaign, world_document)
    world = kept.document
    fog = kept.computed("fog", lambda: campaign.naval_settings.fog_of_war)  # the settings'
    layout = kept.computed("layout", lambda: _layout(campaign))
    orders = orders_document(turn) if turn else []
    if viewer is not None:  # map_svg draws only the viewer's own; the others must not change
        own = kept.computed(
            ("own", viewer),
            lambda: frozenset(f["id"] for f in world["fleets"] if f["owner"] == viewer),
        )  # the cache key
        orders = [o for o in orders if o.get("fleet") in own]
    elif turn is not None and turn.status == Turn.Status.OPEN:
        orders = [*orders, *_suggested(kept, orders)]  # the moderator's map: U3's suggestions
    world_key = kept.computed("map-key", lambda: world_layout_key(world, layout))
    # What the drawing works out from the world, layout, viewer and fog alone, kept with them
    # (maps/svg.py): a map drawn again for other orders redoes only the orders' part.
    parts = kept.computed(("map-parts", viewer, fog), dict)
    # The geometry, the labels' plan and the land and sea drawn, every viewer's: kept while the
    # map and layout stay the same, through versions of the world whose fleets moved.
    shared = kept.computed("map-shared", lambda: _shared_for(campaign, world, layout))
    # A crowded map's scene, in the shared cache: every worker draws a viewer's scene once.
    scenes = kept.computed(
        ("map-scenes", viewer, fog), lambda: SharedScenes(f"{world_key}|{viewer}|{fog}")
    )
    return _map_response(
        world,
        layout,
        viewer,
        fog,
        orders=orders,
        world_key=world_key,
        kept=parts,
        shared=shared,
        scenes=scenes,
    )


@login_required
@require_GET
def turn_map(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A published turn's map: the world after it, with its battles marked."""
    membership = membership_get(request.user, slug)
    turn = published_turn(membership, number)
    assert turn.result is not None
    assert turn.scenario is not None
    viewer = membership.faction.key if membership.faction else None
    after = {**turn.scenario, **turn.result["state"], "orders": []}
    after["map"] = {**turn.scenario["map"], "ports": turn.result["state"]["ports"]}
    campaign = membership.campaign
    events = turn.result["events"]
    fog = campaign.naval_settings.fog_of_war
    return _map_response(after, _layout(campaign), viewer, fog, events=events)


# The map's parts drawn from its shape alone (maps/svg.py `shared`), by campaign and the hash of
# its map and layout: a turn published moves fleets, not provinces, and the next map redoes
# only the fleets, arrows and names. A few maps' worth per process (some megabytes each).
_shapes: OrderedDict[tuple[Any, ...], dict[Any, Any]] = OrderedDict()
KEPT_SHAPES = 4
_shapes_lock = threading.Lock()


def _shared_for(campaign: Any, world: Mapping[str, Any], layout: Any) -> dict[Any, Any]:
    key = (
        connection.settings_dict["NAME"],
        campaign.pk,
        campaign.created_at,
        map_layout_key(world, layout),
    )
    with _shapes_lock:
        found = _shapes.get(key)
        if found is None:
            found = _shapes[key] = {}
            while len(_shapes) > KEPT_SHAPES:
                _shapes.popitem(last=False)
        _shapes.move_to_end(key)
        return found


def _suggested(kept: Any, orders: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The pirates' suggested orders (U3) for the pirate fleets that have none given yet,
    marked to be drawn dotted; worked out once per version of the world."""
    given = {o.get("fleet") for o in orders}
    suggestions = kept.computed("pirate-suggestions", lambda: suggest_pirate_orders(kept.world))
    return [{**o, "suggested": True} for o in suggestions if o["fleet"] not in given]


def _map_response(
    world: dict[str, Any],
    layout: Any,
    viewer: str | None,
    fog: bool,
    *,
    orders: Sequence[Mapping[str, Any]] = (),
    events: Sequence[Mapping[str, Any]] = (),
    world_key: str | None = None,
    kept: dict[str, Any] | None = None,
    shared: dict[Any, Any] | None = None,
    scenes: dict[Any, Any] | None = None,
) -> HttpResponse:
    """The map drawn from these inputs (or kept from an earlier drawing of the same), as SVG."""
    inputs: dict[str, Any] = {"viewer": viewer, "fog": fog, "orders": orders, "events": events}
    svg = map_cached(
        lambda: map_svg(world, layout, kept=kept, shared=shared, scenes=scenes, **inputs),
        world=world,
        layout=layout,
        world_key=world_key,
        **inputs,
    )
    return HttpResponse(svg, content_type="image/svg+xml")


def _layout(campaign: Any) -> Any:
    return layout_from_rows(
        Province.objects.filter(campaign=campaign).values_list("key", "name", "x", "y"),
        Port.objects.filter(campaign=campaign).values_list("key", "name"),
        Faction.objects.filter(campaign=campaign).values_list("key", "name", "colour"),
        drawing=campaign_drawing(campaign),
        fill=campaign.naval_settings.map_fill,  # the campaign file's map.fill
    )
