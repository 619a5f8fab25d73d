"""The offers' and the moderator's forms under garbage (issue 14, "Bad input"; the desk's own
posts are tests/seafarers/test_play_forms.py, the API's test_api_fuzz.py): whatever a seat or
the moderator posts, the answer is a page, a redirect or a 404 — never a 500 — and the game
stays whole: its state is the replay of its log (G3), and an offer applied is in the log."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from engine.seafarers import state_to_dict
from seafarers.models import Game, TradeOffer
from seafarers.positions import replay
from tests.fuzz.profile import FUZZ
from tests.seafarers.offer_helpers import seeded_isles, trade_turn

pytestmark = pytest.mark.django_db
RESOURCES = ["brick", "wood", "wool", "grain", "ore"]
VALUE = st.one_of(
    st.text(max_size=12),
    st.integers(min_value=-(2**40), max_value=2**40).map(str),
    st.sampled_from(
        ["", "0", "1", "2", "-1", "red", "blue", "white", "bot", "ann", "\x00", "x" * 3000]
    ),
)
OFFER_KEYS = ["offer-to", *(f"offer-{side}_{r}" for side in ("give", "get") for r in RESOURCES)]
MODERATOR_KEYS = ["index", "reason", "do", "player", "username", "building", "points"]
MODERATOR_KEYS += ["act-red-index", "act-red-action", "act-red-reason", "act-blue-action"]


@pytest.fixture
def table(people):
    game = seeded_isles(people["mod"])
    turn = trade_turn(game)
    clients = {}
    for name in ("ann", "bob", "cid", "mod"):
        clients[name] = Client()
        clients[name].force_login(people[name])
    return game, turn, clients


def whole(game: Game) -> None:
    game.refresh_from_db()
    actions = list(game.actions.order_by("index").values_list("action", flat=True))
    assert game.log_length == len(actions)
    assert game.state == state_to_dict(replay(game.first_position, actions))
    for offer in TradeOffer.objects.filter(status=TradeOffer.Status.ACCEPTED):
        assert actions[offer.action_index]["type"] == "domestic_trade"


def post(client: Client, url: str, data: dict[str, str], htmx: bool) -> int:
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(url, data, headers=headers).status_code


@FUZZ
@given(
    who=st.sampled_from(["ann", "bob", "cid", "mod"]),
    data=st.dictionaries(st.sampled_from(OFFER_KEYS), VALUE, max_size=8),
    reply=st.sampled_from(["accept", "decline", "withdraw", "steal", "ACCEPT"]),
    offer=st.sampled_from(["own", "other", "999999"]),
    htmx=st.booleans(),
)
def test_offers_forms_answer_and_keep_the_game_whole(table, who, data, reply, offer, htmx):
    game, turn, clients = table
    slug = game.campaign.slug
    with transaction.atomic():
        made = clients[who].post(f"/g/{slug}/offers/new/", data)
        assert made.status_code in (200, 302, 404)
        # An offer of the current player's to the other, then a reply to it, to another's, or to
        # none, by whoever is drawn.
        current = {"red": "ann", "blue": "bob", "white": "cid"}[turn["current"]]
        give = {f"offer-give_{turn['give']}": "1", f"offer-get_{turn['get']}": "1"}
        clients[current].post(f"/g/{slug}/offers/new/", {"offer-to": turn["other"], **give})
        mine = TradeOffer.objects.order_by("-pk").first()
        target = {"own": mine.pk if mine else 1, "other": (mine.pk + 1) if mine else 2}.get(
            offer, 999999
        )
        status = post(clients[who], f"/g/{slug}/offers/{target}/{reply}/", {}, htmx)
        assert status in (200, 302, 404)
        whole(game)
        transaction.set_rollback(True)


@FUZZ
@given(
    who=st.sampled_from(["ann", "mod"]),
    where=st.sampled_from(["award", "replace", "act-for/red", "act-for/nobody", "undo", "pause"]),
    data=st.dictionaries(st.sampled_from(MODERATOR_KEYS), VALUE, max_size=6),
    htmx=st.booleans(),
)
def test_the_moderator_s_forms_answer_and_keep_the_game_whole(table, who, where, data, htmx):
    game, _, clients = table
    slug = game.campaign.slug
    with transaction.atomic():
        status = post(clients[who], f"/g/{slug}/moderate/{where}/", data, htmx)
        assert status in (200, 302, 404)
        if who == "ann":
            assert status == 404  # a seat's player is not the moderator: the page is not there
        whole(game)
        transaction.set_rollback(True)
