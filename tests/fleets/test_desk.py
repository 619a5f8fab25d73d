"""The order desk: a player orders their fleets, sees the engine's refusals inline, and only
their own faction."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign import lifecycle
from fleets.models import Order

pytestmark = pytest.mark.django_db


def desk(slug: str = "skirmish-in-the-sound") -> str:
    return reverse("desk", args=[slug])


def order_url(fleet: str) -> str:
    return reverse("fleet_order", args=["skirmish-in-the-sound", fleet])


def form(fleet: str, **fields: str) -> dict[str, str]:
    base = {
        "type": "hold",
        "stance": "engage",
        "retreat": "never",
        "prefer": "sink",
        "if_cornered": "surrender",
    }
    return {f"{fleet}-{k}": v for k, v in {**base, **fields}.items()}


def test_a_player_sees_their_fleets_and_not_the_others_orders(client, people) -> None:
    client.force_login(people["danes"])
    page = client.get(desk())
    assert page.status_code == 200
    text = page.content.decode()
    assert 'id="d1"' in text  # the Danish fleets, each with a form
    assert 'id="d2"' in text
    assert 'id="s1"' not in text  # no order form for a Swedish fleet
    assert "Treasury <strong>600</strong>" in text
    assert "<title>Skirmish in the Sound · orders · Admiralty</title>" in text
    assert text.count("form[data-order]") == 1  # the progressive-enhancement script, once


def test_an_order_given_through_htmx_comes_back_as_the_card(client, people) -> None:
    client.force_login(people["swedes"])
    response = client.post(
        order_url("s1"),
        form("s1", type="move", destination="oresund", retreat="below:0.5"),
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert text.lstrip().startswith('<section class="card" id="s1"')  # only the card
    assert "Order: <strong>Sail to oresund</strong>" in text  # the file gives no names
    assert "Odds against d1" in text  # it will meet the Danes at Øresund
    order = Order.objects.get(slot="fleet:s1")
    assert order.payload["path"] == ["oresund"]
    assert order.payload["retreat"] == {"below": 0.5}
    assert order.submitted_by == people["swedes"]


def test_without_javascript_the_form_posts_and_the_page_comes_back(client, people) -> None:
    client.force_login(people["danes"])
    response = client.post(order_url("d1"), form("d1", type="move", destination="kattegat"))
    assert response.status_code == 302
    assert response["Location"].endswith("#d1")
    assert Order.objects.get(slot="fleet:d1").payload["path"] == ["kattegat"]


def test_the_engines_refusal_is_shown_beside_the_order(client, people) -> None:
    client.force_login(people["swedes"])
    response = client.post(
        order_url("s3"),
        form("s3", type="split", split_ships=["hjorten", "falken", "ornen"], new_fleet="s9"),
        headers={"HX-Request": "true"},
    )
    text = response.content.decode()
    assert "a split must leave at least one ship in s3 (invalid_order)" in text
    assert not Order.objects.exists()
    response = client.post(
        order_url("s3"),
        form("s3", type="move", destination="atlantis"),
        headers={"HX-Request": "true"},
    )
    assert "Select a valid choice" in response.content.decode()


def test_an_order_can_be_changed_and_withdrawn(client, people) -> None:
    client.force_login(people["danes"])
    client.post(order_url("d1"), form("d1", type="move", destination="kattegat"))
    client.post(order_url("d1"), form("d1", type="hold", stance="evade"))
    client.post(reverse("fleet_withdraw", args=["skirmish-in-the-sound", "d1"]))
    rows = list(Order.objects.filter(slot="fleet:d1").order_by("id"))
    assert [r.payload["type"] if r.payload else "withdrawn" for r in rows] == [
        "move",
        "hold",
        "withdrawn",
    ]
    turn = people["danes"].memberships.get().campaign.current_turn
    from fleets.mapping import orders_document

    assert orders_document(turn) == []


def test_orders_close_when_the_turn_locks(client, people, open_skirmish) -> None:
    lifecycle.turn_lock(open_skirmish.current_turn, user=None)
    client.force_login(people["danes"])
    page = client.get(desk()).content.decode()
    assert "orders are closed" in page
    assert "Give the order" not in page
    response = client.post(order_url("d1"), form("d1", type="hold"), headers={"HX-Request": "true"})
    assert "orders are closed" in response.content.decode()
    assert "(turn_closed)" in response.content.decode()
    assert not Order.objects.exists()


def test_an_order_given_while_the_turn_locks_is_refused_not_lost(people, open_skirmish) -> None:
    """Found under load (bench/load.py's deadline rush): a request reads the turn open, the
    moderator locks it (the orders stored with the turn), then the request writes its order. It
    was accepted and missing from the locked turn; now it is refused, and no row is written."""
    from campaign.models import Turn
    from fleets.services import order_submit, order_withdraw

    seen = Turn.objects.get(pk=open_skirmish.current_turn.pk)  # read as the request began: open
    lifecycle.turn_lock(Turn.objects.get(pk=seen.pk), user=None)
    danes = open_skirmish.factions.get(key="danes")
    result = order_submit(turn=seen, faction=danes, order={"fleet": "d1", "type": "hold"})
    assert getattr(result, "code", None) == "turn_closed"
    withdrawal = order_withdraw(turn=seen, faction=danes, slot="fleet:d1")
    assert getattr(withdrawal, "code", None) == "turn_closed"
    assert "closed" in getattr(withdrawal, "message", "")
    assert not Order.objects.exists()


def test_a_withdrawal_after_the_lock_leaves_the_order_shown(client, people, open_skirmish) -> None:
    client.force_login(people["danes"])
    client.post(order_url("d1"), form("d1", type="move", destination="kattegat"))
    lifecycle.turn_lock(open_skirmish.current_turn, user=None)
    url = reverse("fleet_withdraw", args=["skirmish-in-the-sound", "d1"])
    card = client.post(url, headers={"HX-Request": "true"}).content.decode()
    assert "No order" not in card
    assert Order.objects.filter(withdrawn=True).count() == 0


def test_hiring_goes_through_the_engines_checks(client, people) -> None:
    client.force_login(people["danes"])
    url = reverse("economy_order", args=["skirmish-in-the-sound", "hire"])
    client.post(url, {"hire-port": "copenhagen", "hire-ship_type": "frigate", "hire-count": 2})
    order = Order.objects.get()
    assert order.payload == {
        "type": "hire",
        "faction": "danes",
        "port": "copenhagen",
        "ship_type": "frigate",
        "count": 2,
    }
    response = client.post(
        url, {"hire-port": "malmo", "hire-ship_type": "frigate", "hire-count": 1}, follow=True
    )
    assert "Choose a port" in response.content.decode()  # a Swedish port is not offered


def test_the_desk_needs_few_queries_whatever_the_fleets(
    client, people, django_assert_max_num_queries
) -> None:
    client.force_login(people["danes"])
    with django_assert_max_num_queries(20):
        assert client.get(desk()).status_code == 200


def test_paying_off_and_upkeep_priority(client, people) -> None:
    client.force_login(people["danes"])
    client.post(
        reverse("economy_order", args=["skirmish-in-the-sound", "disband"]), {"fleet": "d2"}
    )
    assert Order.objects.get().payload == {"type": "disband", "fleet": "d2"}
    url = reverse("economy_order", args=["skirmish-in-the-sound", "priority"])
    client.post(url, {"priority": "d2, d1"})
    danes = people["danes"].memberships.get().faction
    danes.refresh_from_db()
    assert danes.upkeep_priority == ["d2", "d1"]
    response = client.post(url, {"priority": "s1"}, follow=True)
    assert "Not your fleets: s1" in response.content.decode()
    danes.refresh_from_db()
    assert danes.upkeep_priority == ["d2", "d1"]


def test_the_desk_stays_under_20_queries_on_a_big_campaign(
    client, django_user_model, django_assert_max_num_queries
) -> None:
    from bench.database import imported_campaign
    from bench.generate import Spec
    from campaign.models import Membership

    campaign, _ = imported_campaign(Spec(fleets=400, sea=200, land=30, factions=4), "big")
    lifecycle.turn_open(campaign.current_turn, user=None)
    faction = campaign.factions.get(key="f00")
    user = django_user_model.objects.create_user("admiral", "a@example.org", "pw")
    Membership.objects.create(
        user=user, campaign=campaign, role=Membership.Role.PLAYER, faction=faction
    )
    client.force_login(user)
    with django_assert_max_num_queries(20):
        page = client.get(desk("big"))
    assert page.status_code == 200
    assert page.content.decode().count('class="card" id="F') > 50  # about 100 fleets of its own


def test_a_route_of_ones_own_through_a_first_step(client, people) -> None:
    client.force_login(people["danes"])
    # d1 at Øresund: to the Belt Sea the shortest way is through the Kattegat; via Arkona is 2 too.
    client.post(
        order_url("d1"), form("d1", type="move", destination="belt_sea", via="arkona_basin")
    )
    assert Order.objects.get().payload["path"] == ["arkona_basin", "belt_sea"]
    response = client.post(
        order_url("d1"),
        form("d1", type="move", destination="skagerrak", via="arkona_basin"),
        headers={"HX-Request": "true"},
    )
    assert "skagerrak is not adjacent to arkona_basin (not_adjacent)" in response.content.decode()


def test_the_fast_select_writes_what_djangos_select_writes() -> None:
    """fleets.forms.FastSelect renders without a template per option (the desk's time): the same
    HTML as Django's own Select, escaping and the selected option included."""
    from django import forms

    from fleets.forms import FastSelect

    choices = [("", "—"), ("a&b", "Ø <x>"), ("kattegat", 'Kattegat "2"')]
    for value in ("kattegat", "a&b", None):
        attrs = {"id": "id_d1-destination", "required": True, "data-x": "1"}
        ours = FastSelect(choices=choices).render("d1-destination", value, attrs)
        django = forms.Select(choices=choices).render("d1-destination", value, attrs)
        assert ours == django.replace("\n", "").replace("  ", "")
