"""The moderator's dashboard names every place in the players' words (issue 20 §4): the last
actions, the actions offered to send for a player (G4) and the buildings to award special
points under (X19) read as the desk reads them ("build a road at the south side of hills 4"),
never as coordinates ("-1,3,S")."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from engine.seafarers import legal_actions
from seafarers.action_words import action_words
from seafarers.board_places import Places
from seafarers.board_targets import targets_of
from seafarers.services import action_submit, award_svp
from tests.seafarers.helpers import position
from tests.seafarers.play_helpers import game_at_roll

pytestmark = pytest.mark.django_db
# A node or an edge as the engine writes it: "q,r,corner" or "q,r,side".
RAW = re.compile(r"-?\d+,\s*-?\d+,\s*(N|S|NE|NW|SE|SW|E|W)\b")
RICH = {"brick": 6, "wood": 6, "wool": 6, "grain": 6, "ore": 6}


class Text(HTMLParser):
    """What a reader sees of a page: its text and its options' labels, not its attributes (which
    carry the actions posted, coordinates and all) nor its scripts and styles."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        self.skip += tag in ("script", "style")

    def handle_endtag(self, tag):
        self.skip -= tag in ("script", "style")

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def seen(html: str) -> str:
    parser = Text()
    parser.feed(html)
    return " ".join(parser.parts)


def send(game, user, action):
    game.refresh_from_db()
    action_submit(game=game, user=user, action=action, expected_index=game.log_length)


def first(state, player, kind):
    return next(a for a in legal_actions(state, player) if a["type"] == kind)


@pytest.fixture
def played(people):
    """Red has rolled, built a road and a settlement, moved a ship, and holds a special point;
    red may build and move more."""
    game = game_at_roll(people, hands={"red": RICH}, dice=[[6, 6]])
    ann = people["ann"]
    send(game, ann, {"type": "roll", "player": "red"})
    send(game, ann, first(position(game), "red", "build_road"))
    send(game, ann, first(position(game), "red", "move_ship"))
    state = position(game)
    node = state.board.node_names[sorted(state.player_nodes[0])[0]]
    game.refresh_from_db()
    award_svp(
        game=game,
        user=people["mod"],
        player="red",
        node=node,
        points=1,
        expected_index=game.log_length,
        reason="the lighthouse",
    )
    return game


def test_the_dashboard_says_places_in_words_never_coordinates(client, people, played):
    client.force_login(people["mod"])
    html = client.get(reverse("seafarers_moderate", args=[played.campaign.slug])).content.decode()
    text = seen(html)
    assert RAW.findall(text) == [], RAW.findall(text)[:5]
    # The last actions.
    assert "build a road at the " in text
    assert "move the ship at the " in text
    assert " to the north-east side of " in text
    assert "award 1 special point under the building at the " in text
    # The actions to send for red, and the buildings to award under.
    assert "red's settlement at the " in text
    assert "trade 4 wool with the bank for 1 ore" in text
    # Attributes still carry what is posted (the form's values, the board's actions).
    assert RAW.search(html)


def test_every_action_the_engine_lists_has_words_without_coordinates(people, played):
    state = position(played)
    places = Places(state)
    listed = legal_actions(state, "red")
    assert {"build_road", "build_ship", "build_city", "maritime_trade"} <= {
        a["type"] for a in listed
    }
    for action in listed:
        words = action_words(action, places)
        assert not RAW.search(words), (action, words)
        assert "_" not in words, words
    # A place action reads as the desk's list reads it: the same words in both.
    for target in targets_of(listed, "red", places):
        assert action_words(json.loads(target.action_json), places) == target.label


@pytest.mark.parametrize(
    ("action", "words"),
    [
        (
            {"type": "discard", "player": "red", "cards": {"ore": 2, "brick": 1}},
            "discard 1 brick, 2 ore",
        ),
        ({"type": "pick_gold", "player": "red", "take": {"wool": 1}}, "take 1 wool for gold"),
        (
            {"type": "play_year_of_plenty", "player": "red", "take": {"grain": 2}},
            "play Year of Plenty: take 2 grain",
        ),
        (
            {"type": "play_monopoly", "player": "red", "resource": "ore"},
            "play Monopoly: take every ore",
        ),
        (
            {
                "type": "domestic_trade",
                "player": "red",
                "with": "blue",
                "give": {"ore": 1},
                "get": {"wool": 2},
            },
            "trade 1 ore to blue for 2 wool",
        ),
        ({"type": "roll", "player": "red"}, "roll the dice"),
        ({"type": "end_turn", "player": "red"}, "end the turn"),
        ({"type": "build_road", "player": "red"}, "build road"),  # malformed: the verb, no 500
    ],
)
def test_the_other_actions_in_words(people, played, action, words):
    assert action_words(action, Places(position(played))) == words
