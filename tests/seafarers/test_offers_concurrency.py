"""An offer's reply is one action at a time too (G1, X24): two threads, two connections, real
commits — a double click on *Accept* trades once; an accept racing the end of the turn either
trades first (and the end of the turn, sent on the page before the trade, is applied after it:
S-43) or finds the turn over (`offer_void`), never neither. On PostgreSQL the game's row is
held FOR UPDATE; on SQLite the IMMEDIATE transactions take turns."""

from __future__ import annotations

import pytest

from seafarers.models import TradeOffer
from seafarers.offers import offer_accept, offer_propose
from seafarers.services import GameRefused, action_submit
from tests.concurrent import at_once
from tests.seafarers.offer_helpers import seeded_isles, trade_turn

pytestmark = pytest.mark.django_db(transaction=True)
SEED = 5


@pytest.fixture
def isles(people):
    game = seeded_isles(people["mod"], seed=SEED)
    return game


def codes(outcomes: list[object]) -> list[str]:
    return sorted(o.code for o in outcomes if isinstance(o, GameRefused))


def test_a_double_click_on_accept_trades_once(isles):
    t = trade_turn(isles)
    other = isles.seats.get(player=t["other"]).user
    current = isles.seats.get(player=t["current"]).user
    offer = offer_propose(game=isles, user=current, to=t["other"], give=t["give"], get=t["get"])
    length = isles.log_length
    outcomes = at_once(
        lambda: offer_accept(game=isles, user=other, offer_id=offer.pk),
        lambda: offer_accept(game=isles, user=other, offer_id=offer.pk),
    )
    assert codes(outcomes) == ["offer_closed"]
    isles.refresh_from_db()
    assert isles.log_length == length + 1
    assert isles.actions.filter(action__type="domestic_trade").count() == 1


def test_an_accept_racing_the_end_of_the_turn(isles):
    t = trade_turn(isles)
    other = isles.seats.get(player=t["other"]).user
    current = isles.seats.get(player=t["current"]).user
    offer = offer_propose(game=isles, user=current, to=t["other"], give=t["give"], get=t["get"])
    length = isles.log_length
    end = {"type": "end_turn", "player": t["current"]}
    outcomes = at_once(
        lambda: offer_accept(game=isles, user=other, offer_id=offer.pk),
        lambda: action_submit(game=isles, user=current, action=end, expected_index=length),
    )
    isles.refresh_from_db()
    offer.refresh_from_db()
    traded = isles.actions.filter(action__type="domestic_trade").exists()
    if traded:  # S-43: the trade, then the end of the turn the player clicked: neither lost
        assert codes(outcomes) == []
        assert isles.log_length == length + 2
        kinds = isles.actions.filter(index__gte=length).order_by("index")
        assert [a["type"] for a in kinds.values_list("action", flat=True)] == [
            "domestic_trade",
            "end_turn",
        ]
        assert offer.status == TradeOffer.Status.ACCEPTED
    else:
        assert isles.log_length == length + 1  # the end of the turn voids the offer
        assert codes(outcomes) == ["offer_void"]
        assert offer.status == TradeOffer.Status.VOID  # by the end of the turn, in its transaction
