"""The desk's trade with the bank (seafarers.md X11): the form offers only trades that can be
made — never the resource given as the one to get, never more cards than the hand holds at the
player's rate (nor than the bank holds)."""

from __future__ import annotations

import re

import pytest

from engine.seafarers.rules import RESOURCES
from tests.seafarers.helpers import position
from tests.seafarers.play_helpers import act_url, desk_url, form, game_at_roll

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def trade_form(html: str) -> str:
    found = re.search(
        r'<input type="hidden" name="type" value="maritime_trade">.*?</form>', html, re.S
    )
    assert found, "no trade form"
    return found.group(0)


def options(html: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert select, name
    return re.findall(r'<option value="(\w+)"', select.group(1))


def count_max(html: str) -> int:
    found = re.search(r'<input type="number" name="count"[^>]* max="(\d+)"', html)
    assert found
    return int(found.group(1))


def rolled(client, people, hand):
    """Red in the action phase with `hand` (a 12 rolled: the south islet, nobody's)."""
    game = game_at_roll(people, hands={"red": hand}, dice=[[6, 6]])
    client.force_login(people["ann"])
    client.post(act_url(game), form(game, "roll", control="dice"), headers=HX)
    assert position(game).phase == "action"
    return game


def test_one_resource_to_give_is_not_offered_to_get_and_the_count_is_the_hands(client, people):
    game = rolled(client, people, {"ore": 9, "wood": 1})
    rate = position(game).rates(0)[RESOURCES.index("ore")]  # red's (X11): 2, a 2:1 harbour
    trade = trade_form(client.get(desk_url(game)).content.decode())
    assert options(trade, "give") == ["ore"]
    got = options(trade, "get")
    assert "ore" not in got  # X11: "any resource not given in the same trade"
    assert set(got) == {"brick", "wood", "wool", "grain"}
    assert count_max(trade) == 9 // rate  # not the 19 of a bank's stock


def test_several_to_give_each_say_what_they_may_get_and_how_many(client, people):
    game = rolled(client, people, {"ore": 9, "wood": 5})
    rates = position(game).rates(0)
    trade = trade_form(client.get(desk_url(game)).content.decode())
    assert options(trade, "give") == ["wood", "ore"]
    # The page cannot know which will be given: each give option names its gets and its most,
    # which the page's script applies to the get list and the count (the engine decides).
    for resource in ("wood", "ore"):
        option = re.search(rf'<option value="{resource}"([^>]*)>', trade).group(1)
        most = int(re.search(r'data-most="(\d+)"', option).group(1))
        gets = re.search(r'data-gets="([\w ]*)"', option).group(1).split()
        assert most == {"wood": 5, "ore": 9}[resource] // rates[RESOURCES.index(resource)]
        assert resource not in gets
        assert len(gets) == 4
    assert count_max(trade) == 5 // rates[RESOURCES.index("wood")]  # the first give's
    assert 'data-bank="' in trade  # the bank's stock of each to get (X11)
