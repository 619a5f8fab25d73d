"""The desk says what the robber or the pirate took this turn (issue 20 §4; B11, PI4): the thief
reads "You took 1 grain from blue", the victim "red took 1 grain from you", anyone else only
that a card was taken (G5: the card only to the thief and the victim)."""

from __future__ import annotations

import pytest

from engine.seafarers import legal_actions
from seafarers.services import action_submit
from tests.seafarers.helpers import position
from tests.seafarers.play_helpers import desk_url, game_at_roll

pytestmark = pytest.mark.django_db


def test_the_desk_says_what_was_stolen_to_whom_it_may(client, people) -> None:
    game = game_at_roll(
        people, hands={"blue": {"grain": 1}, "white": {"grain": 1}}, dice=[[3, 4]]
    )  # red rolls 7: nobody holds more than 7 cards, so red moves the robber at once
    red = game.seats.get(player="red").user
    action_submit(game=game, user=red, action={"type": "roll", "player": "red"}, expected_index=0)
    game.refresh_from_db()
    moves = [a for a in legal_actions(position(game), "red") if a.get("steal_from")]
    move = moves[0]
    action_submit(game=game, user=red, action=move, expected_index=game.log_length)
    victim = move["steal_from"]
    other = ({"blue", "white"} - {victim}).pop()
    seen = {}
    for player in ("red", victim, other):
        client.force_login(game.seats.get(player=player).user)
        seen[player] = client.get(desk_url(game)).content.decode()
    assert f"You took 1 grain from {victim}." in seen["red"]
    assert "red took 1 grain from you." in seen[victim]
    assert f"red took a card from {victim}." in seen[other]
    assert "took 1 grain" not in seen[other]


def test_before_any_steal_the_desk_says_nothing_of_one(client, people) -> None:
    game = game_at_roll(people, dice=[[3, 4]])
    client.force_login(game.seats.get(player="red").user)
    assert 'class="stolen"' not in client.get(desk_url(game)).content.decode()
