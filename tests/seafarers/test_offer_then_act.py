"""S-43 (issue 20 §4): a page drawn before an offer was accepted still acts. The accepted offer
is the current player's trade (X24) made by the other side's click, so the current player's
next click, sent with the log's length their page was drawn at, is checked by the engine on the
position as it is now instead of refused `game_moved_on`. Anything else in between (their own
action sent twice, a roll) still refuses it, and a refused action changes nothing (X25)."""

from __future__ import annotations

import pytest

from seafarers.offers import offer_accept, offer_propose
from seafarers.services import GameRefused, action_submit
from tests.seafarers.helpers import position
from tests.seafarers.offer_helpers import seeded_isles, trade_turn

pytestmark = pytest.mark.django_db


def test_the_current_players_click_after_an_accepted_offer_is_not_lost(people) -> None:
    game = seeded_isles(people["mod"], seed=5)
    t = trade_turn(game)
    current = game.seats.get(player=t["current"]).user
    other = game.seats.get(player=t["other"]).user
    drawn_at = game.log_length  # the current player's page
    offer = offer_propose(game=game, user=current, to=t["other"], give=t["give"], get=t["get"])
    offer_accept(game=game, user=other, offer_id=offer.pk)  # the log moves on by the trade
    game.refresh_from_db()
    assert game.log_length == drawn_at + 1
    end = {"type": "end_turn", "player": t["current"]}
    row = action_submit(game=game, user=current, action=end, expected_index=drawn_at)
    assert row.index == drawn_at + 1  # after the trade, not instead of it
    assert [a["type"] for a in game.actions.order_by("index").values_list("action", flat=True)][
        -2:
    ] == ["domestic_trade", "end_turn"]
    assert position(game).player != position(game).pindex[t["current"]]  # the turn ended

    # The same click sent again: an end of turn came since, not only trades.
    game.refresh_from_db()
    length = game.log_length
    with pytest.raises(GameRefused) as caught:
        action_submit(game=game, user=current, action=end, expected_index=drawn_at)
    assert caught.value.code == "game_moved_on"
    game.refresh_from_db()
    assert game.log_length == length  # nothing changed


def test_a_page_older_than_a_non_trade_action_is_still_refused(people) -> None:
    game = seeded_isles(people["mod"], seed=5)
    t = trade_turn(game)
    current = game.seats.get(player=t["current"]).user
    drawn_at = game.log_length - 1  # drawn before the last action (the roll), not a trade
    end = {"type": "end_turn", "player": t["current"]}
    with pytest.raises(GameRefused) as caught:
        action_submit(game=game, user=current, action=end, expected_index=drawn_at)
    assert caught.value.code == "game_moved_on"
