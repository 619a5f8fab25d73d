"""Reading a desk's post (seafarers/play_forms.py; docs/rulings.md S-22): whatever is posted,
the answer is one action for the seat's own player or a refusal `invalid_action`, never an
exception of another kind; and the CSRF check guards the desk's posts."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from seafarers.play_forms import PLACE_KEYS, expected_index, read_action
from seafarers.services import GameRefused
from tests.seafarers.play_helpers import act_url, desk_url

RATES = [4, 4, 3, 2, 4]
KEYS = ["type", "action", "brick", "wood", "wool", "grain", "ore", "give", "get", "count"]
KEYS += ["first", "second", "resource", "player", "by_moderator", "expected"]
TEXT = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["place", "roll", "discard", "pick_gold", "maritime_trade", "ore", "1"]),
    st.sampled_from(["play_monopoly", "play_year_of_plenty", "award_svp", "-1", "99", "100"]),
    st.builds(
        json.dumps,
        st.dictionaries(
            st.sampled_from(["type", "edge", "node", "hex", "from", "to", "steal_from", "player"]),
            st.one_of(
                st.text(max_size=8),
                st.integers(),
                st.lists(st.text(max_size=4), max_size=3),
                st.sampled_from(list(PLACE_KEYS)),
            ),
        ),
    ),
)


def outcome(read, *args, **kwargs):
    """What a reader returns, or the GameRefused it raises (any other exception escapes)."""
    try:
        return read(*args, **kwargs)
    except GameRefused as refused:
        return refused


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS), TEXT, max_size=8))
def test_any_post_is_an_action_of_the_seat_or_invalid_action(data):
    action = outcome(read_action, data, player="red", rates=RATES)
    if isinstance(action, GameRefused):
        assert action.code == "invalid_action"
        assert action.message
        return
    assert action["player"] == "red"  # never a posted player (S-20)
    assert "by_moderator" not in action  # G4: the server's to set
    assert isinstance(action["type"], str)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=25))
def test_any_index_is_a_number_or_invalid_action(raw):
    index = outcome(expected_index, {"expected": raw})
    if isinstance(index, GameRefused):
        assert index.code == "invalid_action"
    else:
        assert index == int(raw)


JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=6)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
PLACED = st.dictionaries(
    st.sampled_from(["type", "edge", "node", "hex", "from", "to", "steal_from", "player"]),
    st.one_of(JSON, st.sampled_from(list(PLACE_KEYS))),
    max_size=5,
)


@settings(max_examples=400, deadline=None)
@given(st.one_of(PLACED, JSON))
def test_any_json_from_the_board_is_an_action_or_invalid_action(sent):
    """Found by this test: a `type` that is a list or an object once raised TypeError."""
    data = {"type": "place", "action": json.dumps(sent)}
    action = outcome(read_action, data, player="red", rates=RATES)
    if isinstance(action, GameRefused):
        assert action.code == "invalid_action"
    else:
        assert action["type"] in PLACE_KEYS
        assert set(action) <= {"type", "player", *PLACE_KEYS[action["type"]]}


def test_a_trade_gives_the_players_rate_for_each_card_asked():
    data = {"type": "maritime_trade", "give": "grain", "get": "ore", "count": "2"}
    action = read_action(data, player="red", rates=RATES)
    assert action == {
        "type": "maritime_trade",
        "player": "red",
        "give": {"grain": 4},
        "get": {"ore": 2},
    }  # X11: a 2:1 grain rate, two cards


@pytest.mark.django_db
def test_the_desk_posts_need_the_csrf_token(people, game):
    client = Client(enforce_csrf_checks=True)
    client.force_login(people["ann"])
    page = client.get(desk_url(game))
    token = page.cookies["csrftoken"].value
    data = {"expected": "0", "control": "dice", "type": "roll"}
    assert client.post(act_url(game), data).status_code == 403
    answer = client.post(act_url(game), data, headers={"X-CSRFToken": token, "HX-Request": "true"})
    assert answer.status_code == 200
    assert 'data-code="wrong_phase"' in answer.content.decode()  # reached the engine
