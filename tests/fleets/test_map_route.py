"""The route a player builds by clicking the map (issue 20 §2), as the server takes it: the
`path` the map's script sends with a move goes to the engine as given (M2), a route through
seas the fleet cannot reach is refused with words and records nothing, the engine refuses a
route whose steps do not border each other, and a destination chosen again in the form wins
over an older route. What the map is offered: only the desk's own fleets (F1).

The skirmish, 2 movement points (M1): s1 in the Arkona Basin; Arkona → Kattegat is
belt_sea, kattegat by the shortest route and oresund, kattegat by the player's own."""

from __future__ import annotations

import json

import pytest

from fleets.models import Order
from tests.fleets.test_desk import desk, form, order_url

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def sail(client, **fields: str):
    return client.post(order_url("s1"), form("s1", type="move", **fields), headers=HTMX)


def test_the_route_clicked_is_the_order_given(client, people) -> None:
    client.force_login(people["swedes"])
    response = sail(client, destination="kattegat", path="oresund,kattegat")
    assert Order.objects.get(slot="fleet:s1").payload["path"] == ["oresund", "kattegat"]
    assert response.headers["HX-Trigger"] == "naval-orders-changed"  # the map draws it again
    sail(client, destination="kattegat")  # from the form: the shortest route
    assert Order.objects.filter(slot="fleet:s1").latest("id").payload["path"] == [
        "belt_sea",
        "kattegat",
    ]


def test_a_route_out_of_reach_is_refused_in_words_and_records_nothing(client, people) -> None:
    client.force_login(people["swedes"])
    response = sail(client, destination="kattegat", path="oresund,skagerrak,kattegat")
    text = response.content.decode()
    assert "That route leaves the seas this fleet can reach." in text
    assert "HX-Trigger" not in response.headers
    assert not Order.objects.filter(slot="fleet:s1").exists()


def test_the_engine_refuses_steps_that_do_not_border_each_other(client, people) -> None:
    client.force_login(people["swedes"])
    response = sail(client, destination="kattegat", path="bornholm_basin,kattegat")
    text = response.content.decode()
    assert "(not_adjacent)" in text  # M2, the engine's words beside the destination
    assert not Order.objects.filter(slot="fleet:s1").exists()


def test_a_destination_chosen_again_in_the_form_wins_over_the_old_route(client, people) -> None:
    client.force_login(people["swedes"])
    sail(client, destination="kattegat", path="oresund,kattegat")
    sail(client, destination="oresund", path="oresund,kattegat")  # the form's older route
    assert Order.objects.filter(slot="fleet:s1").latest("id").payload["path"] == ["oresund"]


def map_document(client) -> dict:
    page = client.get(desk()).content.decode()
    start = page.index('<script id="map-choices" type="application/json">') + 49
    return json.loads(page[start : page.index("</script>", start)])


def test_the_map_offers_only_the_players_own_fleets(client, people) -> None:
    client.force_login(people["swedes"])
    choices = map_document(client)
    assert sorted(choices["fleets"]) == ["s1", "s2", "s3"]
    s1 = choices["fleets"]["s1"]
    assert s1["points"] == 2
    assert s1["moves"]["kattegat"] == ["belt_sea", "kattegat"]  # as legal_orders says
    assert "skagerrak" not in s1["moves"]
    assert choices["fleets"]["s2"]["blockade"] == {"copenhagen": ["belt_sea"]}  # B1, ids in order
    assert choices["seas"]["oresund"] == ["arkona_basin", "kattegat"]
    assert choices["moderating"] is False


def test_the_moderators_map_offers_every_fleet(client, people) -> None:
    client.force_login(people["mod"])
    choices = map_document(client)
    assert sorted(choices["fleets"]) == ["d1", "d2", "h1", "p1", "s1", "s2", "s3"]
    assert choices["moderating"] is True
