"""Drawn maps kept in the cache by a hash of what they are drawn from (campaign/map_cache.py):
a kept map is the same bytes as a fresh drawing, anything the picture shows changes the key, and
what it does not show (another faction's orders) does not."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from fleets.models import Order
from maps import Layout
from maps.map_cache import map_cached, world_layout_key

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"
WORLD = {"fleets": [{"id": "d1", "owner": "danes"}]}


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def drawn(calls: list[str], svg: str = "<svg/>"):
    def draw() -> str:
        calls.append(svg)
        return svg

    return draw


def test_the_same_inputs_are_drawn_once() -> None:
    calls: list[str] = []
    for _ in range(3):
        got = map_cached(drawn(calls), world=WORLD, layout=Layout(), viewer="danes", fog=True)
        assert got == "<svg/>"
    assert len(calls) == 1


@pytest.mark.parametrize(
    "change",
    [
        {"world": {"fleets": [{"id": "d1", "owner": "swedes"}]}},
        {"layout": Layout(faction_colours={"danes": "#112233"})},
        {"viewer": "swedes"},
        {"fog": False},
        {"orders": [{"fleet": "d1", "type": "hold"}]},
        {"events": [{"type": "battle", "province": "oresund"}]},
    ],
    ids=["world", "layout", "viewer", "fog", "orders", "battles"],
)
def test_anything_the_map_shows_is_a_new_drawing(change) -> None:
    calls: list[str] = []
    inputs = {"world": WORLD, "layout": Layout(), "viewer": "danes", "fog": True, **change}
    map_cached(drawn(calls), world=WORLD, layout=Layout(), viewer="danes", fog=True)
    map_cached(drawn(calls), **inputs)
    assert len(calls) == 2


def test_with_the_cache_down_the_map_is_drawn(settings) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # a closed port
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    calls: list[str] = []
    got = map_cached(drawn(calls), world=WORLD, layout=Layout(), viewer="danes", fog=True)
    assert (got, len(calls)) == ("<svg/>", 1)


def test_the_desk_map_follows_the_players_own_orders_not_others(client, people) -> None:
    """Through the view: the Danes' map is kept while the Swedes change their orders, and drawn
    again (with the arrow) when the Danes give one; the kept bytes equal a fresh drawing."""
    client.force_login(people["danes"])
    url = reverse("campaign_map", args=[SLUG])
    first = client.get(url).content
    assert b'class="orders"/>' in first  # no arrows yet
    turn = people["danes"].memberships.get().campaign.current_turn
    factions = {f.key: f for f in turn.campaign.factions.all()}
    move = {"fleet": "s1", "type": "move", "path": ["oresund"]}
    Order.objects.create(turn=turn, faction=factions["swedes"], slot="fleet:s1", payload=move)
    assert client.get(url).content == first
    cache.clear()
    assert client.get(url).content == first  # drawn afresh: the same bytes
    move = {"fleet": "d1", "type": "move", "path": ["kattegat"]}
    Order.objects.create(turn=turn, faction=factions["danes"], slot="fleet:d1", payload=move)
    arrowed = client.get(url).content
    assert arrowed != first
    assert b'class="orders"><' in arrowed  # the arrow is drawn


def test_the_fill_points_are_part_of_the_maps_key() -> None:
    world = {"map": {"provinces": [{"id": "a", "kind": "sea"}]}}
    plain = world_layout_key(world, Layout(positions={"a": (1, 2)}))
    filled = world_layout_key(world, Layout(positions={"a": (1, 2)}, fill=(("land", 5, 5),)))
    assert plain != filled  # a file read again with other fill is drawn again, never kept stale
