"""The world kept per version (fleets/world_cache.py, issue 11): the desk, its order posts and
the map read and parse the world once per version, and a kept world is never shown after the
rows changed — whatever wrote them (a model's save, the turn's state written back in bulk, the
upkeep priority's update), or when the cache lost the version."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.urls import reverse

from engine.naval import World, parse_scenario
from fleets import world_cache
from fleets.mapping import apply_state, world_document
from fleets.models import Faction, NavalSettings, Province, Ship
from fleets.services import faction_set_upkeep_priority

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"


@pytest.fixture(autouse=True)
def kept(settings) -> Iterator[None]:
    """The world cache on (the tests' LocMemCache is private to the process, the default turns
    it off there), nothing kept before or after."""
    settings.WORLD_CACHE = True
    cache.clear()
    world_cache._kept.clear()
    yield
    cache.clear()
    world_cache._kept.clear()


def desk() -> str:
    return reverse("desk", args=[SLUG])


def test_a_second_desk_reads_no_world(
    client, people, django_assert_num_queries, django_capture_on_commit_callbacks
) -> None:
    client.force_login(people["danes"])
    with django_capture_on_commit_callbacks() as writes, django_assert_num_queries(19):
        assert client.get(desk()).status_code == 200
    # The world's 9 queries (world_document) and the names' 3 are gone from the second; the
    # world's version is read from the cache, not the database. (The faction's orders and its
    # economy orders are one query since issue 20: 20 and 8 before.)
    with django_assert_num_queries(7):
        assert client.get(desk()).status_code == 200
    assert not writes  # reading changed nothing


def test_a_ship_saved_shows_on_the_next_desk(
    client, people, django_capture_on_commit_callbacks
) -> None:
    client.force_login(people["danes"])
    assert "norske-love (Ship of the line) health 14 of 20" in client.get(desk()).content.decode()
    ship = Ship.objects.get(key="norske-love", campaign__slug=SLUG)
    ship.health = 9
    with django_capture_on_commit_callbacks(execute=True):
        ship.save()  # as the admin does
    text = client.get(desk()).content.decode()
    assert "norske-love (Ship of the line) health 9 of 20" in text


def test_a_write_not_committed_does_not_change_the_version(
    client, people, django_capture_on_commit_callbacks
) -> None:
    """The version is renewed after the commit, never before: a reader between the two would
    keep the old rows under the new version."""
    campaign = people["danes"].memberships.get().campaign
    before = world_cache.world_version(campaign.pk)
    with django_capture_on_commit_callbacks(execute=False) as pending:
        Ship.objects.filter(key="norske-love").first().save()  # type: ignore[union-attr]
    assert world_cache.world_version(campaign.pk) == before
    assert len(pending) == 1
    pending[0]()
    assert world_cache.world_version(campaign.pk) != before


def test_the_state_written_back_in_bulk_shows_on_the_next_desk(
    client, people, django_capture_on_commit_callbacks
) -> None:
    client.force_login(people["danes"])
    client.get(desk())
    campaign = people["danes"].memberships.get().campaign
    state = world_document(campaign)
    d1 = next(f for f in state["fleets"] if f["id"] == "d1")
    d1["ships"][1]["health"] = 3
    with django_capture_on_commit_callbacks(execute=True):
        apply_state(campaign, state)  # a publication or rollback: bulk statements, no signal
    assert "norske-love (Ship of the line) health 3 of 20" in client.get(desk()).content.decode()


def test_the_upkeep_priority_updated_is_in_the_next_world(
    people, django_capture_on_commit_callbacks
) -> None:
    membership = people["danes"].memberships.get()
    campaign, faction = membership.campaign, membership.faction
    assert world_cache.kept_world(campaign, world_document).world.factions["danes"]
    with django_capture_on_commit_callbacks(execute=True):
        refused = faction_set_upkeep_priority(
            faction=faction, fleets=["d2", "d1"], turn=campaign.current_turn, user=people["danes"]
        )
    assert refused is None
    kept = world_cache.kept_world(campaign, world_document)
    assert kept.world.factions["danes"].upkeep_priority == ("d2", "d1")


def test_a_lost_version_never_addresses_an_old_copy(people) -> None:
    """The cache flushed (or the token evicted): a new random token, the world read again —
    even after a write that passed no signal while the token was missing."""
    campaign = people["danes"].memberships.get().campaign
    first = world_cache.kept_world(campaign, world_document)
    cache.clear()
    Ship.objects.filter(key="norske-love").update(health=5)  # no signal, no renewal
    again = world_cache.kept_world(campaign, world_document)
    assert again is not first
    assert again.version != first.version
    assert again.world.fleets["d1"].ships[1].health == 5


def test_a_process_private_cache_keeps_no_world(settings, people) -> None:
    """A LocMemCache behind several processes would not see another's renewal: no world kept."""
    settings.WORLD_CACHE = None  # the default: on only for a cache the processes share
    campaign = people["danes"].memberships.get().campaign
    first = world_cache.kept_world(campaign, world_document)
    assert first.version == ""
    assert world_cache.kept_world(campaign, world_document) is not first
    assert not world_cache._kept


def test_an_order_post_leaves_the_kept_world_as_the_rows_are(client, people) -> None:
    """The desk's users only read what is kept: after a desk and an order post it is still
    equal to the world read and parsed afresh."""
    client.force_login(people["swedes"])
    client.get(desk())
    fields = {
        "s1-type": "move",
        "s1-destination": "oresund",
        "s1-stance": "engage",
        "s1-retreat": "never",
        "s1-prefer": "sink",
        "s1-if_cornered": "surrender",
    }
    response = client.post(
        reverse("fleet_order", args=[SLUG, "s1"]), fields, headers={"HX-Request": "true"}
    )
    assert "Sail to" in response.content.decode()
    campaign = people["swedes"].memberships.get().campaign
    kept = world_cache.kept_world(campaign, world_document)
    assert kept.version  # the same kept copy the requests used
    fresh = world_document(campaign)
    assert kept.document == fresh
    assert _plain(kept.world) == _plain(parse_scenario(fresh).world)


def _plain(world: World) -> tuple[object, ...]:
    """What the engine's mutable parts hold (fleets and ships have no equality of their own)."""
    fleets = {
        key: (
            f.owner,
            f.at,
            f.docked,
            f.mp_penalty,
            f.blockading,
            f.adrift,
            [(s.id, s.type.id, s.health, s.owner) for s in f.ships],
        )
        for key, f in world.fleets.items()
    }
    return world.rules, world.map, world.factions, world.relations.pairs, world.ship_types, fleets


def test_a_faction_renamed_shows_on_the_next_desk(
    client, people, django_capture_on_commit_callbacks
) -> None:
    """The display names are kept with the world; a name saved is a new version."""
    client.force_login(people["danes"])
    assert "Kalmar Union" not in client.get(desk()).content.decode()
    swedes = Faction.objects.get(key="swedes", campaign__slug=SLUG)
    swedes.name = "Kalmar Union"
    with django_capture_on_commit_callbacks(execute=True):
        swedes.save()
    assert "Kalmar Union" in client.get(desk()).content.decode()


def test_a_province_renamed_shows_on_the_next_map(
    client, people, django_capture_on_commit_callbacks
) -> None:
    """The map's layout is kept with the world; a name changed is a new version, a new map."""
    client.force_login(people["danes"])
    url = reverse("campaign_map", args=[SLUG])
    assert "The Cattegat" not in client.get(url).content.decode()
    province = Province.objects.get(key="kattegat", campaign__slug=SLUG)
    province.name = "The Cattegat"
    with django_capture_on_commit_callbacks(execute=True):
        province.save()
    assert "The Cattegat" in client.get(url).content.decode()


def test_the_rules_edited_are_in_the_next_world(people, django_capture_on_commit_callbacks) -> None:
    """The naval settings' `rules` are part of the world document (fleets 0008): saving them, as
    their admin page does, renews the version."""
    campaign = people["danes"].memberships.get().campaign
    assert world_cache.kept_world(campaign, world_document).document["rules"].get("max_rounds") != 2
    settings = NavalSettings.objects.get(campaign=campaign)
    settings.rules = {**settings.rules, "max_rounds": 2}
    with django_capture_on_commit_callbacks(execute=True):
        settings.save()
    assert world_cache.kept_world(campaign, world_document).document["rules"]["max_rounds"] == 2
