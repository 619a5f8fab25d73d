"""Domestic trade offers (seafarers.md B18, X24) through seafarers/offers.py on the database:
made between the current player and another, either way; accepted, the trade is the current
player's `domestic_trade` in the log; an offer that can no longer be met is refused plainly
and changes nothing; offers of a past turn become void."""

from __future__ import annotations

import pytest
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from seafarers.models import TradeOffer
from seafarers.offers import (
    MAX_OPEN,
    offer_accept,
    offer_decline,
    offer_propose,
    offer_withdraw,
    offers_for_seat,
)
from seafarers.positions import waiting_for
from seafarers.services import (
    GameRefused,
    act_for,
    action_submit,
    bot_play,
    game_pause,
)
from tests.seafarers.helpers import play_one, position
from tests.seafarers.offer_helpers import hand, seeded_isles, trade_turn

pytestmark = pytest.mark.django_db
SEED = 5


@pytest.fixture
def isles(people):
    """Small Isles with a fixed seed (ann red, bob blue, cid white), started."""
    game = seeded_isles(people["mod"], seed=SEED)
    return game


def user_of(game, player):
    return game.seats.get(player=player).user


def refused(call, **kwargs) -> GameRefused:
    with pytest.raises(GameRefused) as caught:
        call(**kwargs)
    return caught.value


def rows(game):
    game.refresh_from_db()
    return (
        game.log_length,
        game.state,
        sorted(TradeOffer.objects.filter(game=game).values_list("id", "status")),
    )


def test_an_offer_of_the_current_player_accepted_is_the_trade_in_the_log(isles):
    t = trade_turn(isles)
    current, other = user_of(isles, t["current"]), user_of(isles, t["other"])
    before = {p: hand(isles, p) for p in (t["current"], t["other"])}
    offer = offer_propose(game=isles, user=current, to=t["other"], give=t["give"], get=t["get"])
    assert (offer.status, offer.turn_number) == ("open", isles.state["turn"]["number"])
    index = isles.log_length
    accepted = offer_accept(game=isles, user=other, offer_id=offer.pk)
    assert (accepted.status, accepted.action_index) == ("accepted", index)
    row = isles.actions.get(index=index)
    assert row.action == {
        "type": "domestic_trade",
        "player": t["current"],
        "with": t["other"],
        "give": t["give"],
        "get": t["get"],
    }
    assert row.user == current  # the current player's action (X24), with the other's consent
    [(g, n)], [(r, m)] = t["give"].items(), t["get"].items()
    after = {p: hand(isles, p) for p in (t["current"], t["other"])}
    assert after[t["current"]][g] == before[t["current"]][g] - n
    assert after[t["current"]][r] == before[t["current"]][r] + m
    assert after[t["other"]][g] == before[t["other"]][g] + n
    # Accepted once: a second accept (a double click) is refused and changes nothing.
    snapshot = rows(isles)
    again = refused(offer_accept, game=isles, user=other, offer_id=offer.pk)
    assert again.code == "offer_closed"
    assert rows(isles) == snapshot


def test_an_offer_to_the_current_player_is_their_trade_when_they_accept(isles):
    t = trade_turn(isles)
    current, other = user_of(isles, t["current"]), user_of(isles, t["other"])
    # The other player offers what they hold for what the current player holds.
    offer = offer_propose(game=isles, user=other, to=t["current"], give=t["get"], get=t["give"])
    accepted = offer_accept(game=isles, user=current, offer_id=offer.pk)
    row = isles.actions.get(index=accepted.action_index)
    assert row.action["player"] == t["current"]
    assert (row.action["give"], row.action["get"]) == (t["give"], t["get"])


def test_who_may_offer_what(isles, people):
    t = trade_turn(isles)
    current, other = user_of(isles, t["current"]), user_of(isles, t["other"])
    third = next(s.player for s in isles.seats.all() if s.player not in (t["current"], t["other"]))
    snapshot = rows(isles)
    cases = [
        (other, third, t["get"], t["give"], "not_current_player"),  # B18
        (people["mod"], t["other"], t["give"], t["get"], "not_a_player"),
        (people["dee"], t["other"], t["give"], t["get"], "not_a_player"),
        (current, t["current"], t["give"], t["get"], "bad_trade"),  # with oneself
        (current, t["other"], {}, t["get"], "bad_trade"),  # a gift (X24)
        (current, t["other"], t["give"], t["give"], "bad_trade"),  # like for like
        (current, t["other"], {"gold": 1}, t["get"], "invalid_action"),  # not a resource
        (current, t["other"], {"ore": -1}, t["get"], "invalid_action"),
        (current, t["other"], {"ore": True}, t["get"], "invalid_action"),
        (current, t["other"], {"ore": 10**9}, t["get"], "invalid_action"),
        (current, t["other"], "ore", t["get"], "invalid_action"),
        (current, "green", t["give"], t["get"], "unknown_player"),
        (current, t["other"], {next(iter(t["give"])): 96}, t["get"], "invalid_action"),
        (current, t["other"], {next(iter(t["give"])): 40}, t["get"], "insufficient_resources"),
    ]
    for user, to, give, get, code in cases:
        got = refused(offer_propose, game=isles, user=user, to=to, give=give, get=get)
        assert got.code == code, (to, give, get, got.message)
    assert rows(isles) == snapshot


def test_a_short_hand_is_refused_without_showing_it(isles):
    """G5: the accepter learns the proposer lacks the cards, never the proposer's hand."""
    t = trade_turn(isles)
    current, other = user_of(isles, t["current"]), user_of(isles, t["other"])
    # The other player offers all the cards they hold of one resource; then the current
    # player trades some of theirs away and can no longer meet it… simplest: the other makes
    # two offers of the same card, the first is accepted, the second cannot be met.
    first = offer_propose(game=isles, user=other, to=t["current"], give=t["get"], get=t["give"])
    [(r, _)] = t["get"].items()
    held = hand(isles, t["other"])[r]
    second = offer_propose(game=isles, user=other, to=t["current"], give={r: held}, get=t["give"])
    offer_accept(game=isles, user=current, offer_id=first.pk)
    snapshot = rows(isles)
    got = refused(offer_accept, game=isles, user=current, offer_id=second.pk)
    assert got.code == "offer_unmet"
    assert "hold" in got.message
    assert str(held - 1) not in got.message.replace(t["other"], "")
    assert rows(isles) == snapshot  # unapplied, still open
    assert TradeOffer.objects.get(pk=second.pk).status == "open"


def test_decline_and_withdraw_are_each_sides_own(isles):
    t = trade_turn(isles)
    current, other = user_of(isles, t["current"]), user_of(isles, t["other"])
    a = offer_propose(game=isles, user=current, to=t["other"], give=t["give"], get=t["get"])
    b = offer_propose(game=isles, user=current, to=t["other"], give=t["give"], get=t["get"])
    assert refused(offer_decline, game=isles, user=current, offer_id=a.pk).code == "not_your_offer"
    assert refused(offer_withdraw, game=isles, user=other, offer_id=a.pk).code == "not_your_offer"
    assert refused(offer_accept, game=isles, user=current, offer_id=a.pk).code == "not_your_offer"
    assert offer_decline(game=isles, user=other, offer_id=a.pk).status == "declined"
    assert offer_withdraw(game=isles, user=current, offer_id=b.pk).status == "withdrawn"
    for offer in (a, b):
        got = refused(offer_accept, game=isles, user=other, offer_id=offer.pk)
        assert got.code == "offer_closed"
    assert isles.actions.filter(action__type="domestic_trade").count() == 0


def test_another_pairs_offer_is_no_such_offer(isles):
    t = trade_turn(isles)
    current = user_of(isles, t["current"])
    offer = offer_propose(game=isles, user=current, to=t["other"], give=t["give"], get=t["get"])
    third = next(s for s in isles.seats.all() if s.player not in (t["current"], t["other"]))
    for call in (offer_accept, offer_decline, offer_withdraw):
        got = refused(call, game=isles, user=third.user, offer_id=offer.pk)
        assert got.code == "no_such_offer"
    assert refused(offer_accept, game=isles, user=current, offer_id=10**6).code == "no_such_offer"
    seen = offers_for_seat(isles, third)
    assert (seen.for_me, seen.mine) == ([], [])


def test_offers_of_a_past_turn_are_void(isles):
    t = trade_turn(isles)
    current, other = user_of(isles, t["current"]), user_of(isles, t["other"])
    offer = offer_propose(game=isles, user=current, to=t["other"], give=t["give"], get=t["get"])
    turn = isles.state["turn"]["number"]
    action_submit(
        game=isles,
        user=current,
        action={"type": "end_turn", "player": t["current"]},
        expected_index=isles.log_length,
    )
    isles.refresh_from_db()
    assert isles.state["turn"]["number"] == turn + 1
    offer.refresh_from_db()
    assert offer.status == TradeOffer.Status.VOID  # by the end of the turn itself (S-26)
    snapshot = rows(isles)
    got = refused(offer_accept, game=isles, user=other, offer_id=offer.pk)
    assert got.code == "offer_void"
    assert rows(isles) == snapshot
    seen = offers_for_seat(isles, isles.seats.get(player=t["other"]))
    assert seen.for_me == []
    assert [o.status for o in seen.closed] == ["void"]
    assert refused(offer_decline, game=isles, user=other, offer_id=offer.pk).code == "offer_void"


def test_offers_only_in_the_action_phase_and_not_paused(isles, people):
    t = trade_turn(isles)
    current = user_of(isles, t["current"])
    offer = offer_propose(game=isles, user=current, to=t["other"], give=t["give"], get=t["get"])
    game_pause(game=isles, user=people["mod"])
    got = refused(
        offer_propose, game=isles, user=current, to=t["other"], give=t["give"], get=t["get"]
    )
    assert got.code == "game_paused"
    other = user_of(isles, t["other"])
    assert refused(offer_accept, game=isles, user=other, offer_id=offer.pk).code == "game_paused"


def test_a_domestic_trade_is_never_a_bare_action(isles, people):
    """X24: the other player has accepted — so neither the seat nor the moderator sends one."""
    t = trade_turn(isles)
    trade = {"type": "domestic_trade", "player": t["current"], "with": t["other"]}
    trade.update(give=t["give"], get=t["get"])
    snapshot = rows(isles)
    got = refused(
        action_submit,
        game=isles,
        user=user_of(isles, t["current"]),
        action=trade,
        expected_index=isles.log_length,
    )
    assert got.code == "offer_required"
    got = refused(
        act_for,
        game=isles,
        user=people["mod"],
        action=trade,
        expected_index=isles.log_length,
        reason="r",
    )
    assert got.code == "offer_required"
    assert rows(isles) == snapshot


def test_one_seat_has_a_bounded_number_of_open_offers(isles):
    t = trade_turn(isles)
    current = user_of(isles, t["current"])
    for _ in range(MAX_OPEN):
        offer_propose(game=isles, user=current, to=t["other"], give=t["give"], get=t["get"])
    got = refused(
        offer_propose, game=isles, user=current, to=t["other"], give=t["give"], get=t["get"]
    )
    assert got.code == "too_many_offers"


def test_a_bot_seat_makes_and_answers_no_offers(people):
    game = seeded_isles(people["mod"], seed=SEED, seats=["ann", None, "bob"], slug="bots")
    # Play (the bot seat, blue, by its own service) until ann's action phase.
    for _ in range(400):
        game.refresh_from_db()
        if game.state["turn"]["phase"] == "action" and game.state["turn"]["player"] == "red":
            break
        if waiting_for(position(game)) == ["blue"]:
            bot_play(game_id=game.pk, expected_index=game.log_length)
        else:
            play_one(game)
    got = refused(
        offer_propose, game=game, user=people["ann"], to="blue", give={"ore": 1}, get={"wool": 1}
    )
    assert got.code == "bot_seat"


def test_an_offer_for_you_is_told_by_email(isles, django_capture_on_commit_callbacks):
    t = trade_turn(isles)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        offer_propose(
            game=isles, user=user_of(isles, t["current"]), to=t["other"], give=t["give"],
            get=t["get"],
        )  # fmt: skip
    [message] = mail.outbox
    assert message.subject == "Isles: an offer for you"
    assert message.to == [user_of(isles, t["other"]).email]
    assert t["current"] in message.body


def test_reading_the_offers_writes_nothing(isles, people):
    """The desks and the moderator's dashboard are reads: an offer left open from a past turn
    (say, from before the end of turns voided them) is not shown as open, and no page view
    marks it or takes the game's row lock; the next action does (S-26)."""
    t = trade_turn(isles)
    current, other = user_of(isles, t["current"]), user_of(isles, t["other"])
    offer = offer_propose(game=isles, user=current, to=t["other"], give=t["give"], get=t["get"])
    TradeOffer.objects.filter(pk=offer.pk).update(turn_number=0)  # a past turn's, left open
    pages = []
    for user, page in ((other, "seafarers_desk"), (people["mod"], "seafarers_moderate")):
        browser = Client()
        browser.force_login(user)
        pages.append((browser, reverse(page, args=[isles.campaign.slug])))
    with CaptureQueriesContext(connection) as seen:
        for seat in isles.seats.all():
            found = offers_for_seat(isles, seat)
            assert (found.for_me, found.mine) == ([], [])
        for browser, address in pages:
            assert browser.get(address).status_code == 200
    sql = [q["sql"] for q in seen.captured_queries]
    assert [q for q in sql if q.startswith("UPDATE") or "FOR UPDATE" in q] == []
    offer.refresh_from_db()
    assert offer.status == TradeOffer.Status.OPEN  # untouched by the reads
    action_submit(
        game=isles,
        user=current,
        action={"type": "end_turn", "player": t["current"]},
        expected_index=isles.log_length,
    )
    offer.refresh_from_db()
    assert offer.status == TradeOffer.Status.VOID
