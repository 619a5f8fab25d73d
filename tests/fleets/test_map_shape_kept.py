"""The map's geometry, labels' plan and land and sea kept through versions of the world
(fleets/map_views.py `_shared_for`, issue 20 §1): a turn moves fleets, not provinces, so the
map drawn after a fleet moved reuses what was worked out from the map's shape — and its bytes
are a fresh drawing's of the new world; a province renamed or moved is another shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.db import transaction
from django.urls import reverse

from fleets import map_views, world_cache
from fleets.map_views import _layout
from fleets.mapping import world_document
from fleets.models import Fleet, Province
from maps.svg import map_svg

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"


@pytest.fixture(autouse=True)
def kept(settings) -> Iterator[None]:
    """The world cache on (the tests' LocMemCache is private to the process), nothing kept
    before or after."""
    settings.WORLD_CACHE = True
    cache.clear()
    world_cache._kept.clear()
    map_views._shapes.clear()
    yield
    cache.clear()
    world_cache._kept.clear()
    map_views._shapes.clear()


def drawn(client) -> str:
    response = client.get(reverse("campaign_map", args=[SLUG]))
    assert response.status_code == 200
    return response.content.decode()


def fresh(campaign) -> str:
    """The Danes' map drawn with nothing kept (their orders: none given here)."""
    fog = campaign.naval_settings.fog_of_war
    return map_svg(world_document(campaign), _layout(campaign), viewer="danes", fog=fog)


def test_a_fleet_moved_keeps_the_maps_shape_and_draws_the_new_world(
    client, people, django_capture_on_commit_callbacks
) -> None:
    client.force_login(people["danes"])
    before = drawn(client)
    [(key, shared)] = map_views._shapes.items()
    [geometry] = [v["geo"] for v in shared.values() if isinstance(v, dict) and "geo" in v]
    fleet = Fleet.objects.get(campaign__slug=SLUG, key="d1")
    campaign = fleet.campaign
    fleet.province = Province.objects.get(campaign=campaign, key="kattegat")
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        fleet.save()  # a new version of the world
    after = drawn(client)
    assert after != before  # the fleet is drawn where it went
    assert after == fresh(campaign)
    assert list(map_views._shapes) == [key]  # the same shape: nothing worked out again
    assert [v["geo"] for v in shared.values() if isinstance(v, dict) and "geo" in v] == [geometry]


def test_a_province_renamed_is_another_shape(
    client, people, django_capture_on_commit_callbacks
) -> None:
    client.force_login(people["danes"])
    drawn(client)
    province = Province.objects.get(campaign__slug=SLUG, key="kattegat")
    province.name = "The Cat's Throat"
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        province.save()
    after = drawn(client)
    assert "The Cat&#x27;s Throat" in after or "The Cat's Throat" in after
    assert after == fresh(province.campaign)
    assert len(map_views._shapes) == 2
