"""S-50 (issue 20 §4): after an offer is answered, both of its sides see it within seconds. The
desk's poll compares the game's offers as well as the log's length (a declined or withdrawn offer
leaves the log as it was), and a desk with an open offer of the viewer's looks every 3 s, not 15."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from seafarers.models import TradeOffer
from seafarers.offers import offers_version
from tests.seafarers.offer_helpers import seeded_isles, trade_turn

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
OFFERS = "/g/isles/offers/"
DESK = "/g/isles/"
POLL = "/g/isles/poll/"


@pytest.fixture
def isles(people):
    return seeded_isles(people["mod"], seed=5)


@pytest.fixture
def turn(isles):
    return trade_turn(isles)


def client_of(game, player):
    client = Client()
    client.force_login(game.seats.get(player=player).user)
    return client


def propose(client, turn):
    data = {"offer-to": turn["other"]}
    for side in ("give", "get"):
        for resource, count in turn[side].items():
            data[f"offer-{side}_{resource}"] = count
    assert client.post(OFFERS + "new/", data).status_code == 302


def poll_of(desk_html: str) -> tuple[str, str]:
    """The poll's URL and its period, as the desk wrote them."""
    found = re.search(r'hx-get="(/g/isles/poll/[^"]*)" hx-trigger="every (\d+)s"', desk_html)
    assert found, "the desk polls"
    return found.group(1).replace("&amp;", "&"), found.group(2)


def test_a_desk_with_an_open_offer_looks_every_3_seconds_else_every_15(isles, turn):
    proposer, other = client_of(isles, turn["current"]), client_of(isles, turn["other"])
    page = proposer.get(DESK).content.decode()
    assert poll_of(page)[1] == "15"
    assert "{#" not in page  # no template comment shown as text
    propose(proposer, turn)
    assert poll_of(proposer.get(DESK).content.decode())[1] == "3"  # the offer's maker
    assert poll_of(other.get(DESK).content.decode())[1] == "3"  # and its receiver
    offer = TradeOffer.objects.get(game=isles)
    assert other.post(f"{OFFERS}{offer.pk}/decline/").status_code == 302
    assert poll_of(proposer.get(DESK).content.decode())[1] == "15"


def test_the_poll_answers_204_until_an_offer_is_answered(isles, turn):
    proposer, other = client_of(isles, turn["current"]), client_of(isles, turn["other"])
    propose(proposer, turn)
    url, _ = poll_of(proposer.get(DESK).content.decode())
    assert proposer.get(url, headers=HTMX).status_code == 204  # nothing moved
    offer = TradeOffer.objects.get(game=isles)
    # A decline adds nothing to the log: the log's length alone would answer 204 here.
    assert other.post(f"{OFFERS}{offer.pk}/decline/").status_code == 302
    isles.refresh_from_db()
    assert f"index={isles.log_length}&" in url
    answer = proposer.get(url, headers=HTMX)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert "declined" in html
    assert poll_of(html)[1] == "15"
    assert proposer.get(poll_of(html)[0], headers=HTMX).status_code == 204


def test_an_accepted_offer_reaches_the_proposers_desk_with_its_trade(isles, turn):
    proposer, other = client_of(isles, turn["current"]), client_of(isles, turn["other"])
    propose(proposer, turn)
    url, _ = poll_of(proposer.get(DESK).content.decode())
    offer = TradeOffer.objects.get(game=isles)
    assert other.post(f"{OFFERS}{offer.pk}/accept/").status_code == 302
    answer = proposer.get(url, headers=HTMX)
    assert answer.status_code == 200
    isles.refresh_from_db()
    assert f'data-index="{isles.log_length}"' in answer.content.decode()
    assert "accepted" in answer.content.decode()


def test_the_offers_mark_changes_with_each_offer_made_and_closed(isles, turn):
    before = offers_version(isles)
    proposer = client_of(isles, turn["current"])
    propose(proposer, turn)
    made = offers_version(isles)
    offer = TradeOffer.objects.get(game=isles)
    assert proposer.post(f"{OFFERS}{offer.pk}/withdraw/").status_code == 302
    withdrawn = offers_version(isles)
    assert len({before, made, withdrawn}) == 3
    assert offers_version(isles) == withdrawn  # a read changes nothing
