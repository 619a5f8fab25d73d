"""The offers panel (seafarers/views/offers.py) and the API key page: htmx and plain forms,
CSRF, refusals beside their control with their code, what each seat sees, who may open what."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from seafarers.keys import seat_key_seat
from seafarers.models import SeatKey, TradeOffer
from tests.seafarers.offer_helpers import seeded_isles, trade_turn

pytestmark = pytest.mark.django_db
SEED = 5
HTMX = {"HX-Request": "true"}


@pytest.fixture
def isles(people):
    game = seeded_isles(people["mod"], seed=SEED)
    return game


@pytest.fixture
def turn(isles):
    return trade_turn(isles)


def client_of(game, player):
    client = Client()
    client.force_login(game.seats.get(player=player).user)
    return client


def form_data(to, give, get):
    data = {"offer-to": to}
    for side, terms in (("give", give), ("get", get)):
        for resource, count in terms.items():
            data[f"offer-{side}_{resource}"] = count
    return data


URL = "/g/isles/offers/"


def answer_response(client, offer):
    return client.post(f"{URL}{offer.pk}/accept/", headers=HTMX)


def test_propose_and_accept_with_plain_forms(isles, turn):
    proposer = client_of(isles, turn["current"])
    page = proposer.get(URL)
    assert page.status_code == 200
    assert b'id="offer-form"' in page.content
    sent = proposer.post(URL + "new/", form_data(turn["other"], turn["give"], turn["get"]))
    assert sent.status_code == 302
    assert sent["Location"] == URL
    offer = TradeOffer.objects.get(game=isles)
    accepter = client_of(isles, turn["other"])
    shown = accepter.get(URL).content.decode()
    assert f'data-offer="{offer.pk}"' in shown
    assert "Accept" in shown
    done = accepter.post(f"{URL}{offer.pk}/accept/")
    assert done.status_code == 302
    offer.refresh_from_db()
    assert offer.status == "accepted"
    isles.refresh_from_db()
    assert isles.actions.get(index=offer.action_index).action["type"] == "domestic_trade"


def test_with_htmx_the_panel_comes_back_with_the_refusal_beside_its_control(isles, turn):
    proposer = client_of(isles, turn["current"])
    # A like-for-like offer: refused beside the form, with its code, nothing made.
    answer = proposer.post(
        URL + "new/", form_data(turn["other"], turn["give"], turn["give"]), headers=HTMX
    )
    html = answer.content.decode()
    assert answer.status_code == 200
    assert "<html" not in html
    assert 'data-code="bad_trade"' in html
    assert "(bad_trade)" in html
    assert html.index('data-code="bad_trade"') > html.index('id="offer-form"')
    assert not TradeOffer.objects.exists()
    made = proposer.post(
        URL + "new/", form_data(turn["other"], turn["give"], turn["get"]), headers=HTMX
    )
    offer = TradeOffer.objects.get()
    assert made["HX-Trigger"] == "seafarers:offers-changed"  # for the desk around the panel
    assert f'data-offer="{offer.pk}"' in made.content.decode()
    assert "Withdraw" in made.content.decode()
    # Accepting one's own offer: refused beside that offer's buttons.
    answer = proposer.post(f"{URL}{offer.pk}/accept/", headers=HTMX).content.decode()
    block = answer[answer.index(f'id="offer-{offer.pk}"') :]
    assert block.index('data-code="not_your_offer"') < block.index("Withdraw")
    assert "HX-Trigger" not in answer_response(proposer, offer)
    accepted = client_of(isles, turn["other"]).post(f"{URL}{offer.pk}/accept/", headers=HTMX)
    assert accepted["HX-Trigger"] == "seafarers:offers-changed, seafarers:traded"
    # Without JavaScript the same refusal is the whole page, with the refusal in it.
    plain = proposer.post(f"{URL}{offer.pk}/accept/")
    assert plain.status_code == 200
    assert b"<html" in plain.content
    assert b'data-code="not_your_offer"' in plain.content
    # A form that is not a form (a count that is no number): refused plainly, not a 500.
    broken = proposer.post(URL + "new/", {"offer-to": turn["other"], "offer-give_ore": "lots"})
    assert broken.status_code == 200
    assert b'data-code="invalid_action"' in broken.content


def test_each_seat_sees_only_its_own_offers(isles, turn, people):
    proposer = client_of(isles, turn["current"])
    proposer.post(URL + "new/", form_data(turn["other"], turn["give"], turn["get"]))
    offer = TradeOffer.objects.get()
    third = next(
        s.player for s in isles.seats.all() if s.player not in (turn["current"], turn["other"])
    )
    theirs = client_of(isles, third).get(URL).content.decode()
    assert f'data-offer="{offer.pk}"' not in theirs
    # Their reply to it is refused as for an offer that does not exist (nothing given away).
    got = client_of(isles, third).post(f"{URL}{offer.pk}/accept/").content.decode()
    assert 'data-code="no_such_offer"' in got
    moderator = Client()
    moderator.force_login(people["mod"])
    assert f'data-offer="{offer.pk}"' in moderator.get(URL).content.decode()  # read only
    assert b"Accept" not in moderator.get(URL).content


def test_access_and_csrf(isles, people):
    anonymous = Client()
    assert anonymous.get(URL).status_code == 302  # to the login page
    stranger = Client()
    stranger.force_login(people["dee"])
    assert stranger.get(URL).status_code == 404
    assert stranger.post(URL + "new/", {}).status_code == 404
    assert stranger.get("/g/isles/api-key/").status_code == 404
    moderator = Client()
    moderator.force_login(people["mod"])
    assert moderator.get("/g/isles/api-key/").status_code == 404  # keys are a seat's
    assert moderator.post(URL + "1/haggle/").status_code == 404
    assert client_of(isles, "red").get(URL + "new/").status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(isles.seats.get(player="red").user)
    assert strict.post(URL + "new/", {"offer-to": "blue"}).status_code == 403
    assert strict.post("/g/isles/api-key/").status_code == 403
    assert not SeatKey.objects.exists()


def test_the_api_key_page_makes_a_key_shown_once(isles):
    red = client_of(isles, "red")
    page = red.get(reverse("seafarers_api_key", args=["isles"]))
    assert page.status_code == 200
    assert b"data-key" not in page.content
    made = red.post("/g/isles/api-key/").content.decode()
    key = made.split("data-key>", 1)[1].split("<", 1)[0]
    assert seat_key_seat(key) == isles.seats.get(player="red")
    red.post("/g/isles/api-key/")  # a new key: the old one stops working
    assert seat_key_seat(key) is None


def test_after_a_refused_offer_the_form_offers_only_who_may_be_chosen(isles, turn):
    """B18: a player whose turn it is not offers to the current player only; refused, the form
    comes back with the same "Offer to" list as before (panel_context's), not every seat."""
    players = list(isles.seats.order_by("order").values_list("player", flat=True))
    other = turn["other"]
    third = next(p for p in players if p not in (turn["current"], other))
    client = client_of(isles, other)

    def offered_to(html):
        select = re.search(r'<select name="offer-to"[^>]*>(.*?)</select>', html, re.S)
        assert select, "no offer form"
        return re.findall(r'<option value="(\w+)"', select.group(1))

    assert offered_to(client.get(URL).content.decode()) == [turn["current"]]
    answer = client.post(URL + "new/", form_data(third, turn["get"], turn["give"]), headers=HTMX)
    html = answer.content.decode()
    assert 'data-code="' in html  # refused: not to a player whose turn it is not
    assert not TradeOffer.objects.exists()
    assert offered_to(html) == [turn["current"]]
