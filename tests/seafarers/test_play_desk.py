"""A seat's desk (issue 13, "Playing"; seafarers.md G1, G5): what each seat sees and may do,
htmx and plain forms, refusals beside their control, a stale page, the moderator looking."""

from __future__ import annotations

import json
import re

import pytest

from engine.seafarers import legal_actions
from seafarers.models import Game
from seafarers.offers import offers_version
from seafarers.positions import waiting_for
from tests.seafarers.helpers import position
from tests.seafarers.play_helpers import act_url, desk_url, form, game_at_roll

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def as_user(client, people, name):
    client.force_login(people[name])
    return client


def board_actions(html: str) -> list[dict]:
    """The actions the board offers, from its targets' data-action (HTML-escaped JSON)."""
    found = re.findall(r'<a class="target [a-z]+" href="#" data-action="([^"]*)"', html)
    return [json.loads(a.replace("&quot;", '"').replace("&amp;", "&")) for a in found]


def listed(html: str) -> list[dict]:
    """The actions of the board's plain list (the fallback without JavaScript)."""
    found = re.findall(r'<option value="(\{[^"]*\})"', html)
    return [json.loads(a.replace("&quot;", '"').replace("&amp;", "&")) for a in found]


def snapshot(game: Game):
    game.refresh_from_db()
    return game.log_length, game.state, list(game.actions.values_list("action", flat=True))


def refusal_in(html: str, control: str) -> str | None:
    """The code of the refusal shown in the section of `control`, if any."""
    section = re.search(rf'id="control-{control}".*?</(section|div)>', html, re.S)
    if section is None:
        return None
    code = re.search(r'class="refusal"[^>]*data-code="([a-z_]+)"', section.group(0))
    return code.group(1) if code else None


# -- setup (B20) ------------------------------------------------------------------------------
def test_the_setup_desk_offers_exactly_the_legal_settlements(client, people, game):
    html = as_user(client, people, "ann").get(desk_url(game)).content.decode()
    legal = legal_actions(position(game), "red")
    key = lambda a: json.dumps(a, sort_keys=True)  # noqa: E731
    assert sorted(map(key, board_actions(html))) == sorted(map(key, legal))
    assert sorted(map(key, listed(html))) == sorted(map(key, legal))  # the plain twin: the same
    assert "Your move" in html
    assert "<svg" in html
    assert 'class="seafarers-board"' in html


def test_others_see_whose_turn_it_is_and_are_offered_nothing(client, people, game):
    html = as_user(client, people, "bob").get(desk_url(game)).content.decode()
    assert "waiting for <strong>red</strong> (ann)" in html
    assert board_actions(html) == []
    assert listed(html) == []
    assert 'id="board-form"' not in html
    assert "End the turn" not in html
    assert "Roll the dice" not in html


def test_setup_through_plain_forms_redirects_and_htmx_returns_the_desk(client, people, game):
    as_user(client, people, "ann")
    settle = legal_actions(position(game), "red")[0]
    response = client.post(act_url(game), form(game, "place", action=json.dumps(settle)))
    assert response.status_code == 302
    assert response.url == desk_url(game)
    game.refresh_from_db()
    assert game.log_length == 1
    assert game.actions.get().action == settle
    route = legal_actions(position(game), "red")[0]
    assert route["type"] in ("build_road", "build_ship")
    response = client.post(act_url(game), form(game, "place", action=json.dumps(route)), headers=HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="desk"')
    assert "<html" not in html
    assert "waiting for <strong>blue</strong> (bob)" in html  # B20: blue places next
    assert game.actions.count() == 2


# -- refusals: inline, with their code, changing nothing --------------------------------------
@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"type": "place", "action": '{"type":"build_settlement","node":"9,9,N"}'}, "unknown_node"),
        ({"type": "place", "action": "{not json"}, "invalid_action"),
        ({"type": "place", "action": '["build_city"]'}, "invalid_action"),
        (
            {"type": "place", "action": '{"type":"build_settlement","node":{"a":1}}'},
            "invalid_action",
        ),
        ({"type": "award_svp"}, "invalid_action"),
        ({"type": "roll"}, "wrong_phase"),  # not listed in setup: the engine says why
        ({"type": "end_turn"}, "wrong_phase"),
        ({"type": "\x00"}, "invalid_action"),
    ],
)
def test_wrong_input_is_refused_beside_the_board_and_changes_nothing(
    client, people, game, fields, code
):
    as_user(client, people, "ann")
    before = snapshot(game)
    data = {"expected": str(game.log_length), "control": "board", **fields}
    for headers in ({}, HX):
        response = client.post(act_url(game), data, headers=headers)
        assert response.status_code == 200
        assert refusal_in(response.content.decode(), "board") == code
    assert snapshot(game) == before


def test_a_forged_player_is_the_seat_own_and_another_seat_is_refused(client, people, game):
    """A posted `player` is never trusted: the action is the seat's own (here red's, legal);
    and bob, whose turn it is not, is refused `not_your_turn`."""
    settle = legal_actions(position(game), "red")[0]
    as_user(client, people, "bob")
    before = snapshot(game)
    response = client.post(act_url(game), form(game, "place", action=json.dumps(settle)))
    assert refusal_in(response.content.decode(), "board") == "not_your_turn"
    assert snapshot(game) == before
    as_user(client, people, "ann")
    forged = {**settle, "player": "blue", "by_moderator": True}
    client.post(act_url(game), form(game, "place", action=json.dumps(forged)))
    assert game.actions.get().action == settle  # red's, and no by_moderator (G4)


def test_a_stale_page_is_told_the_game_moved_on(client, people, game):
    as_user(client, people, "ann")
    settle = legal_actions(position(game), "red")[0]
    stale = form(game, "place", action=json.dumps(settle))
    client.post(act_url(game), stale)
    before = snapshot(game)
    again = legal_actions(position(game), "red")[0]
    response = client.post(act_url(game), {**stale, "action": json.dumps(again)}, headers=HX)
    html = response.content.decode()
    assert refusal_in(html, "board") == "game_moved_on"
    assert "the game moved on" in html
    assert f'data-index="{before[0]}"' in html  # the desk as it is now
    assert snapshot(game) == before


@pytest.mark.parametrize("expected", ["", "abc", "-1", "１", "9" * 20])
def test_a_missing_or_garbled_index_is_refused(client, people, game, expected):
    as_user(client, people, "ann")
    settle = legal_actions(position(game), "red")[0]
    before = snapshot(game)
    data = {"expected": expected, "control": "board", "type": "place", "action": json.dumps(settle)}
    response = client.post(act_url(game), data)
    assert refusal_in(response.content.decode(), "board") == "invalid_action"
    assert snapshot(game) == before


# -- who may look, who may act ----------------------------------------------------------------
def test_outsiders_get_404_and_the_moderator_looks_but_does_not_act(client, people, game):
    as_user(client, people, "dee")
    assert client.get(desk_url(game)).status_code == 404
    assert client.post(act_url(game), form(game, "roll")).status_code == 404
    client.logout()
    assert client.get(desk_url(game)).status_code == 302  # to the login page
    as_user(client, people, "mod")
    html = client.get(desk_url(game)).content.decode()
    assert "the moderator&#x27;s view" in html or "the moderator's view" in html
    assert board_actions(html) == []
    assert 'id="board-form"' not in html
    before = snapshot(game)
    settle = legal_actions(position(game), "red")[0]
    response = client.post(act_url(game), form(game, "place", action=json.dumps(settle)))
    assert refusal_in(response.content.decode(), "status") == "not_your_seat"
    assert snapshot(game) == before


def test_get_only_pages_refuse_posts_and_acting_refuses_gets(client, people, game):
    as_user(client, people, "ann")
    assert client.post(desk_url(game)).status_code == 405
    assert client.get(act_url(game)).status_code == 405


def test_the_poll_answers_204_until_the_game_moves(client, people, game):
    as_user(client, people, "bob")
    poll = desk_url(game) + "poll/"
    offers = offers_version(game)
    assert client.get(poll, {"index": "0", "offers": offers}, headers=HX).status_code == 204
    # Without the offers' mark (an old page): drawn anew, never a wrong 204 (S-50).
    assert client.get(poll, {"index": "0"}, headers=HX).status_code == 200
    as_user(client, people, "ann")
    settle = legal_actions(position(game), "red")[0]
    client.post(act_url(game), form(game, "place", action=json.dumps(settle)))
    as_user(client, people, "bob")
    response = client.get(poll, {"index": "0", "offers": offers}, headers=HX)
    assert response.status_code == 200
    assert 'data-index="1"' in response.content.decode()
    assert client.get(poll, {"index": "x"}, headers=HX).status_code == 200


# -- what each seat sees (G5) -----------------------------------------------------------------
HANDS = {"red": {"ore": 5, "wood": 2, "wool": 2}, "blue": {"grain": 3}, "white": {"brick": 1}}


def test_a_hand_and_hidden_points_are_their_owner_only(client, people):
    game = game_at_roll(
        people, hands=HANDS, dev_cards={"red": ["victory_point", "knight"]}, dice=[[2, 3]]
    )
    state = position(game)
    red_points = state.vp(0)
    mine = as_user(client, people, "ann").get(desk_url(game)).content.decode()
    assert "Your hand" in mine
    assert "ore <strong>5</strong>" in mine
    assert "Victory Point" in mine
    assert "Knight" in mine
    assert re.search(rf'data-player="red">.*?<td class="n">{red_points} <span', mine, re.S)
    assert "(1 hidden)" in mine
    theirs = as_user(client, people, "bob").get(desk_url(game)).content.decode()
    assert "ore <strong>5</strong>" not in theirs
    assert "Victory Point" not in theirs
    assert "Knight</li>" not in theirs
    assert "hidden)" not in theirs.split('data-player="red"')[1][:300]
    red_row = re.search(r'data-player="red">(.*?)</tr>', theirs, re.S).group(1)
    cells = re.findall(r'<td class="n">(\d+)', red_row)
    # points (less the hidden card), route, knights, hand and card counts
    assert cells == [str(red_points - 1), str(state.routes[0]), "0", "9", "2"]
    assert "grain <strong>3</strong>" in theirs  # bob's own hand
    moderator = as_user(client, people, "mod").get(desk_url(game)).content.decode()
    assert "Every hand" in moderator
    assert "ore 5" in moderator
    assert "(1 hidden)" in moderator


# -- a turn: roll, build, trade, a 7 with its discard and the pirate ---------------------------
def test_roll_build_trade_and_end_the_turn(client, people):
    game = game_at_roll(people, hands=HANDS, dice=[[6, 6]])  # 12: the south islet, nobody's
    as_user(client, people, "ann")
    desk = client.get(desk_url(game)).content.decode()
    assert "Roll the dice" in desk
    assert "End the turn" not in desk
    client.post(act_url(game), form(game, "roll", control="dice"), headers=HX)
    state = position(game)
    assert state.phase == "action"
    html = client.get(desk_url(game)).content.decode()
    assert "6 + 6 = <strong>12</strong>" in html
    assert "End the turn" in html
    ship = next(a for a in board_actions(html) if a["type"] == "build_ship")
    client.post(act_url(game), form(game, "place", action=json.dumps(ship)), headers=HX)
    assert game.actions.last().action == ship
    # X11: 4 ore for 1 grain (no ore harbour at red's buildings: 4:1 — the desk's rates say).
    rate = position(game).rates(0)[4]
    response = client.post(
        act_url(game),
        form(game, "maritime_trade", control="trade", give="ore", get="grain", count="1"),
        headers=HX,
    )
    assert refusal_in(response.content.decode(), "trade") is None
    hand = position(game).hands[0]
    assert hand[4] == 5 - rate
    assert hand[3] == 1
    before = snapshot(game)
    for bad, code in (
        ({"count": "abc"}, "invalid_action"),
        ({"count": "3"}, "insufficient_resources"),
        ({"give": "gold"}, "invalid_action"),
        ({"get": "ore", "give": "ore"}, "same_resource"),
    ):
        fields = {"give": "ore", "get": "wool", "count": "1", **bad}
        response = client.post(
            act_url(game), form(game, "maritime_trade", control="trade", **fields), headers=HX
        )
        assert refusal_in(response.content.decode(), "trade") == code, bad
    assert snapshot(game) == before
    client.post(act_url(game), form(game, "end_turn", control="turn"))
    assert position(game).player == 1


def test_a_seven_asks_the_discard_of_whoever_owes_it_then_the_pirate(client, people):
    hands = {"red": {"ore": 4, "wood": 3, "wool": 2}, "blue": {"grain": 9}, "white": {"brick": 1}}
    game = game_at_roll(people, hands=hands, dice=[[3, 4]])
    as_user(client, people, "ann")
    client.post(act_url(game), form(game, "roll", control="dice"))
    state = position(game)
    assert state.phase == "discard"
    assert state.discard == [4, 4, 0]
    red = client.get(desk_url(game)).content.decode()
    assert "Discard 4 cards" in red
    assert "Also waiting for blue (bob)" in red
    white = as_user(client, people, "cid").get(desk_url(game)).content.decode()
    assert "Discard" not in white
    assert "waiting for <strong>red</strong> (ann) and <strong>blue" in white
    assert "to discard half of their cards" in white
    # a wrong count, beside the discard form (plain: the whole page), nothing changed
    as_user(client, people, "ann")
    before = snapshot(game)
    response = client.post(act_url(game), form(game, "discard", control="discard", ore="1"))
    assert refusal_in(response.content.decode(), "discard") == "wrong_count"
    response = client.post(act_url(game), form(game, "discard", control="discard", ore="-1"))
    assert refusal_in(response.content.decode(), "discard") == "invalid_action"
    assert snapshot(game) == before
    client.post(act_url(game), form(game, "discard", control="discard", ore="3", wood="1"))
    as_user(client, people, "bob")
    client.post(act_url(game), form(game, "discard", control="discard", grain="4"))
    assert position(game).phase == "robber"
    as_user(client, people, "ann")
    html = client.get(desk_url(game)).content.decode()
    thieves = board_actions(html)
    assert {a["type"] for a in thieves} == {"move_robber", "move_pirate"}  # PI4: either
    assert "Roll the dice" not in html
    assert "End the turn" not in html
    pirate = next(a for a in thieves if a["type"] == "move_pirate")
    client.post(act_url(game), form(game, "place", action=json.dumps(pirate)), headers=HX)
    state = position(game)
    assert state.phase == "action"
    assert state.board.hexes[state.pirate].id == pirate["hex"]


def test_development_cards_are_bought_and_played_with_their_choices(client, people):
    game = game_at_roll(
        people,
        hands={"red": {"wool": 1, "grain": 1, "ore": 1}},
        dev_cards={"red": ["year_of_plenty", "monopoly"]},
        dice=[[6, 6]],
    )
    as_user(client, people, "ann")
    client.post(act_url(game), form(game, "roll", control="dice"))
    html = client.get(desk_url(game)).content.decode()
    assert "Buy a development card" in html
    assert "Play Year of Plenty" in html
    assert "Play Monopoly" in html
    before = snapshot(game)
    response = client.post(
        act_url(game),
        form(game, "play_year_of_plenty", control="cards", first="ore", second="gold"),
    )
    assert refusal_in(response.content.decode(), "cards") == "invalid_action"
    assert snapshot(game) == before
    client.post(
        act_url(game),
        form(game, "play_year_of_plenty", control="cards", first="ore", second="ore"),
    )
    assert position(game).hands[0][4] == 3
    response = client.post(
        act_url(game), form(game, "play_monopoly", control="cards", resource="grain"), headers=HX
    )
    assert refusal_in(response.content.decode(), "cards") == "dev_card_already_played"  # B12
    client.post(act_url(game), form(game, "buy_dev_card", control="cards"))
    assert len(position(game).dev_cards[0]) == 2  # monopoly kept, one bought


def test_a_refused_discard_keeps_what_was_written(client, people):
    hands = {"red": {"ore": 4, "wood": 3, "wool": 2}}
    game = game_at_roll(people, hands=hands, dice=[[3, 4]], slug="isles-kept")
    as_user(client, people, "ann")
    client.post(act_url(game), form(game, "roll", control="dice"))
    response = client.post(
        act_url(game), form(game, "discard", control="discard", ore="2", wool="<b>")
    )
    html = response.content.decode()
    assert refusal_in(html, "discard") == "invalid_action"
    assert 'name="ore" min="0" max="4" value="2"' in html
    assert 'name="wool" min="0" max="2" value="0"' in html  # garbage is not written back


def test_the_winner_s_hidden_points_show_to_all_once_the_game_is_won(client, people):
    """docs/rulings.md S-19, S-36: the `won` event gives the winner's points whole, so the table
    does too; another player's Victory Point cards stay hidden after the game."""
    cards = {"red": ["victory_point"], "white": ["victory_point"]}
    game = game_at_roll(people, dev_cards=cards, slug="isles-over")
    state = position(game)

    def shown(player: str) -> str:
        html = as_user(client, people, "bob").get(desk_url(game)).content.decode()
        row = re.search(rf'data-player="{player}">(.*?)</tr>', html, re.S).group(1)
        return re.findall(r'<td class="n">(\d+)', row)[0]

    assert shown("red") == str(state.vp(0) - 1)
    won = dict(game.state, turn={**game.state["turn"], "winner": "red"})
    Game.objects.filter(pk=game.pk).update(status=Game.Status.OVER, state=won)
    assert shown("red") == str(state.vp(0))
    assert shown("white") == str(state.vp(2) - 1)


def test_the_demo_board_with_a_bot_seat_draws_for_everyone(client, people):
    """`make run`'s game (Four Islands, a bot in the fourth seat): every desk draws, the bot's
    seat is named as a bot, and the moderator's desk draws too."""
    from seafarers.services import game_create, game_start

    game = game_start(
        game=game_create(
            name="Four Islands",
            slug="four",
            moderator=people["mod"],
            board="four-islands",
            seats=["ann", "bob", "cid", None],
        ),
        user=people["mod"],
    )
    for name in ("ann", "bob", "cid", "mod"):
        response = as_user(client, people, name).get(desk_url(game))
        assert response.status_code == 200
        assert "(bot)" in response.content.decode()


def test_a_gold_pick_is_asked_of_its_owner_and_checked(client, people):
    """GD4, X13: red's settlement by the north islet's gold field (11) picks one resource."""
    game = game_at_roll(people, settlements={"red": ["2,-3,S"]}, dice=[[5, 6]], slug="gold")
    as_user(client, people, "ann")
    client.post(act_url(game), form(game, "roll", control="dice"))
    assert position(game).phase == "gold"
    html = client.get(desk_url(game)).content.decode()
    assert "Gold: pick 1 resource" in html
    other = as_user(client, people, "bob").get(desk_url(game)).content.decode()
    assert "Gold: pick" not in other
    assert "to pick resources for gold" in other
    as_user(client, people, "ann")
    before = snapshot(game)
    response = client.post(act_url(game), form(game, "pick_gold", control="gold", ore="2"))
    assert refusal_in(response.content.decode(), "gold") == "wrong_count"
    assert snapshot(game) == before
    client.post(act_url(game), form(game, "pick_gold", control="gold", ore="1"))
    state = position(game)
    assert state.phase == "action"
    assert state.hands[0][4] == 1


def test_road_building_places_free_pieces_on_the_board_and_may_stop(client, people):
    """B14, RB1, X15: played before the roll; its pieces are the board's, then Stop."""
    game = game_at_roll(people, dev_cards={"red": ["road_building"]}, slug="roads")
    as_user(client, people, "ann")
    html = client.get(desk_url(game)).content.decode()
    assert "Play Road Building" in html
    client.post(act_url(game), form(game, "play_road_building", control="cards"))
    assert position(game).phase == "road_building"
    html = client.get(desk_url(game)).content.decode()
    pieces = board_actions(html)
    assert pieces
    assert {a["type"] for a in pieces} <= {"build_road", "build_ship"}
    assert "Stop building" in html
    client.post(act_url(game), form(game, "place", action=json.dumps(pieces[0])))
    client.post(act_url(game), form(game, "end_road_building", control="cards"))
    state = position(game)
    assert state.phase == "roll"  # X15: the phase it was played in resumes
    assert game.actions.count() == 3


def test_a_knight_before_the_roll_moves_a_thief_then_the_roll_comes(client, people):
    """B13, PI6, X17: the Knight's player chooses the robber or the pirate; the roll resumes."""
    game = game_at_roll(people, dev_cards={"red": ["knight"]}, slug="knight")
    as_user(client, people, "ann")
    client.post(act_url(game), form(game, "play_knight", control="cards"))
    html = client.get(desk_url(game)).content.decode()
    assert {a["type"] for a in board_actions(html)} == {"move_robber", "move_pirate"}
    robber = next(a for a in board_actions(html) if a["type"] == "move_robber")
    client.post(act_url(game), form(game, "place", action=json.dumps(robber)))
    state = position(game)
    assert state.phase == "roll"
    assert state.knights[0] == 1
    assert "Roll the dice" in client.get(desk_url(game)).content.decode()


def test_the_desk_reads_a_fixed_number_of_queries(client, people, game):
    """Whatever the log's length: the desk reads the stored position, not the log (S-2)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.seafarers.helpers import play_one

    def queries() -> int:
        player = waiting_for(position(game))[0]
        seat = game.seats.get(player=player)
        as_user(client, people, seat.user.username)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(desk_url(game)).status_code == 200
        return len(captured)

    for _ in range(30):  # past the setup: the turns, with the offers' panel on the desk
        play_one(game)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    at_start = queries()
    for _ in range(60):
        play_one(game)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    later = queries()
    assert later == at_start, (later, at_start)
    assert at_start <= 15
