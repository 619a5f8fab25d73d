"""A refusal on the desk reads as words first, its code after them as a small hint (the
moderator's, to look up); the engine's messages count cards in good English ("1 card"). The
codes are the format's contract (seafarers-format.md "Result": `refused[].code`); the message
is only said to be plain words, so its wording may change."""

from __future__ import annotations

import re

import pytest

from engine.seafarers import Refused, check
from tests.seafarers.helpers import position
from tests.seafarers.play_helpers import act_url, desk_url, form, game_at_roll

pytestmark = pytest.mark.django_db


def refusal(html: str) -> str:
    found = re.search(r'<p class="refusal"[^>]*>(.*?)</p>', html, re.S)
    assert found, "no refusal shown"
    return found.group(1)


def test_one_gold_pick_owed_is_one_card_and_the_code_is_a_hint(client, people):
    """GD4: red's settlement by the gold field owes 1 pick; 2 are refused `wrong_count`."""
    game = game_at_roll(people, settlements={"red": ["2,-3,S"]}, dice=[[5, 6]], slug="gold")
    client.force_login(people["ann"])
    client.post(act_url(game), form(game, "roll", control="dice"))
    assert position(game).gold_picks[0] == 1
    response = client.post(act_url(game), form(game, "pick_gold", control="gold", ore="2"))
    shown = refusal(response.content.decode())
    assert shown.startswith("Refused: red picks 1 card for gold, not 2.")
    assert shown.endswith(
        '<small class="hint" title="the refusal\'s code"><code>wrong_count</code></small>'
    )
    assert "cards" not in shown
    assert client.get(desk_url(game)).status_code == 200


@pytest.mark.parametrize(("owed", "words"), [(1, "1 card"), (2, "2 cards")])
def test_the_engines_counts_of_cards_agree_with_their_number(people, owed, words):
    """B11, GD4: "must discard 1 card", "picks 1 card"; the code stays `wrong_count`."""
    game = game_at_roll(people, settlements={"red": ["2,-3,S"]}, dice=[[5, 6]], slug="count")
    state = position(game)
    state.phase, state.gold_picks[0] = "gold", owed
    with pytest.raises(Refused) as picked:
        check(state, {"type": "pick_gold", "player": "red", "take": {"ore": owed + 1}})
    assert picked.value.code == "wrong_count"
    assert f"red picks {words} for gold, not {owed + 1}" in picked.value.message
    state.phase, state.gold_picks[0], state.discard[0] = "discard", 0, owed
    with pytest.raises(Refused) as discarded:
        check(state, {"type": "discard", "player": "red", "cards": {"ore": owed + 1}})
    assert discarded.value.code == "wrong_count"
    assert f"red must discard {words}, not {owed + 1}" in discarded.value.message
