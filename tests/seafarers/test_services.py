"""The seafaring services (issue 13; seafarers.md G1–G5) on the database."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from campaign.models import AuditEntry
from seafarers.models import Game
from seafarers.positions import waiting_for
from seafarers.selectors import game_get_for_user, game_state_for
from seafarers.services import (
    GameRefused,
    act_for,
    action_submit,
    award_svp,
    game_create,
    game_pause,
    game_resume,
    game_start,
    game_undo,
    seat_replace,
)
from tests.seafarers.helpers import play_one, play_until, position

pytestmark = pytest.mark.django_db
CASES = Path(__file__).resolve().parents[1] / "scenarios" / "seafarers"


def snapshot_rows(game):
    game.refresh_from_db()
    return (game.log_length, game.status, game.state, list(game.actions.values_list("action")))


def test_create_gives_seats_in_order_and_start_draws_a_seed(people):
    game = game_create(
        name="G",
        slug="g",
        moderator=people["mod"],
        board="four-islands",
        seats=["ann", None, "bob"],
    )
    assert game.status == Game.Status.NEW
    assert "seed" in game.first_position
    seats = list(game.seats.values_list("order", "player", "membership__user__username", "bot"))
    assert seats == [(0, "red", "ann", False), (1, "blue", None, True), (2, "white", "bob", False)]
    started = game_start(game=game, user=people["mod"])
    assert started.status == Game.Status.SETUP
    other = game_start(
        game=game_create(
            name="H", slug="h", moderator=people["mod"], board="four-islands", seats=["ann", "bob"]
        ),
        user=people["mod"],
    )
    # G2: a seed drawn with `secrets` for each game, kept in the first position.
    assert started.first_position["seed"] != other.first_position["seed"]
    with pytest.raises(GameRefused) as refused:
        game_start(game=started, user=people["mod"])
    assert refused.value.code == "already_started"


def test_create_refuses_unknown_users_and_boards(people):
    with pytest.raises(GameRefused) as refused:
        game_create(
            name="G",
            slug="g",
            moderator=people["mod"],
            board="small-isles",
            seats=["ann", "nobody", "bob"],
        )
    assert refused.value.code == "unknown_user"
    with pytest.raises(GameRefused) as refused:
        game_create(name="G", slug="g", moderator=people["mod"], board="atlantis", seats=["ann"])
    assert refused.value.code == "unknown_board"
    assert not Game.objects.exists()


def test_create_from_the_generator_is_seeded(people):
    a = game_create(
        name="A", slug="a", moderator=people["mod"], generator_seed=7, seats=["ann", "bob", None]
    )
    b = game_create(
        name="B", slug="b", moderator=people["mod"], generator_seed=7, seats=["cid", "dee", None]
    )
    assert a.first_position["board"] == b.first_position["board"]
    assert a.state["players"][2]["id"] == "white"


def test_an_action_is_applied_and_logged_with_its_sender(game, people):
    action = play_one(game)
    row = game.actions.get()
    assert (row.index, row.action, row.sender, row.user) == (0, action, "player", people["ann"])
    assert row.events
    assert game.log_length == 1
    assert game.state["players"][0]["settlements"] == [action["node"]]


@pytest.mark.parametrize(
    ("who", "change", "code"),
    [
        ("bob", {}, "not_your_seat"),  # G1: only the seat's user
        ("mod", {}, "not_your_seat"),  # the moderator only through act_for (G4)
        ("ann", {"expected_index": 5}, "game_moved_on"),
        ("ann", {"node": "nowhere"}, "unknown_node"),  # the engine's check (X25)
        ("ann", {"type": "end_turn"}, "wrong_phase"),
        ("ann", {"by_moderator": True}, "invalid_action"),
        ("ann", {"type": "award_svp", "points": 1}, "moderator_only"),
    ],
)
def test_refusals_change_nothing(game, people, who, change, code):
    state = position(game)
    from engine.seafarers import bot_action

    action = bot_action(state, "red", 1)
    expected = change.pop("expected_index", 0)
    action = (
        {"player": "red", **change} if change.get("type") == "end_turn" else {**action, **change}
    )
    before = snapshot_rows(game)
    with pytest.raises(GameRefused) as refused:
        action_submit(game=game, user=people[who], action=action, expected_index=expected)
    assert refused.value.code == code
    assert refused.value.message
    assert snapshot_rows(game) == before


def test_players_cannot_choose_their_dice(game, people):
    play_until(game, lambda s: s.phase == "roll")
    player = waiting_for(position(game))[0]
    seat = game.seats.get(player=player)
    before = snapshot_rows(game)
    with pytest.raises(GameRefused) as refused:
        action_submit(
            game=game,
            user=seat.user,
            expected_index=game.log_length,
            action={"type": "roll", "player": player, "dice": [6, 6]},
        )
    assert refused.value.code == "invalid_action"  # G2: the server rolls
    assert snapshot_rows(game) == before


def test_undo_again_and_again_and_the_same_dice(game, people):
    """G3: undo rebuilds from the log; a roll undone and made again shows the same dice."""
    play_until(game, lambda s: s.phase == "roll")
    states = []
    for _ in range(3):
        states.append(snapshot_rows(game))
        play_one(game)
    roll_index = states[0][0]
    roll = game.actions.get(index=roll_index)
    assert roll.action["type"] == "roll"
    dice = [e for e in roll.events if e["type"] == "rolled"] or roll.events[:1]
    for expected in reversed(states):
        game_undo(game=game, user=people["mod"], reason="test")
        assert snapshot_rows(game) == expected
    play_one(game)  # the same roll again
    again = game.actions.get(index=roll_index)
    assert again.events[: len(dice)] == dice
    assert again.events == roll.events
    assert AuditEntry.objects.filter(action="game_undo").count() == 3


def test_undo_reopens_a_closed_route(people):
    """G3, X5: a closed route reopens when the ship that closed it is undone (JSettlers2)."""
    case = yaml.safe_load((CASES / "sr" / "SR4-closed-route-cannot-move.yaml").read_text())
    document = {k: v for k, v in case["scenario"].items() if k != "actions"}
    game = game_create(
        name="SR4", slug="sr4", moderator=people["mod"], document=document, seats=["ann", "bob"]
    )
    game = game_start(game=game, user=people["mod"])

    def closed():
        game.refresh_from_db()
        return [s["closed"] for s in game.state["players"][0]["ships"]]

    assert closed() == [False, False]
    action_submit(
        game=game,
        user=people["ann"],
        expected_index=0,
        action={"type": "build_ship", "player": "red", "edge": ["s2", "b"]},
    )
    assert closed() == [True, True, True]
    game_undo(game=game, user=people["mod"], reason="appeal")
    assert closed() == [False, False]


def test_undo_is_the_moderators_and_needs_a_log(game, people):
    with pytest.raises(GameRefused) as refused:
        game_undo(game=game, user=people["mod"], reason="appeal")
    assert refused.value.code == "nothing_to_undo"
    play_one(game)
    with pytest.raises(GameRefused) as refused:
        game_undo(game=game, user=people["ann"], reason="appeal")
    assert refused.value.code == "moderator_only"
    assert game.actions.count() == 1


def test_act_for_is_marked_and_audited(game, people):
    from engine.seafarers import bot_action

    action = bot_action(position(game), "red", 3)
    with pytest.raises(GameRefused) as refused:
        act_for(game=game, user=people["mod"], action=action, expected_index=0, reason=" ")
    assert refused.value.code == "reason_required"
    with pytest.raises(GameRefused) as refused:
        act_for(game=game, user=people["ann"], action=action, expected_index=0, reason="x")
    assert refused.value.code == "moderator_only"
    row = act_for(
        game=game, user=people["mod"], action=action, expected_index=0, reason="ann is away"
    )
    assert row.action["by_moderator"] is True
    assert row.sender == "moderator"
    assert all(event.get("by_moderator") for event in row.events)
    entry = AuditEntry.objects.get(action="act_for:build_settlement")
    assert (entry.reason, entry.user, entry.detail["player"]) == (
        "ann is away",
        people["mod"],
        "red",
    )


def test_award_svp(game, people):
    action = play_one(game)
    row = award_svp(
        game=game,
        user=people["mod"],
        player="red",
        node=action["node"],
        points=1,
        expected_index=1,
        reason="first to the islet",
    )
    game.refresh_from_db()
    assert row.action["type"] == "award_svp"  # X19
    assert game.state["players"][0]["svp"][0]["points"] == 1


def test_pause_refuses_actions_until_resumed(game, people):
    game_pause(game=game, user=people["mod"], reason="holiday")
    from engine.seafarers import bot_action

    action = bot_action(position(game), "red", 1)
    before = snapshot_rows(game)
    with pytest.raises(GameRefused) as refused:
        action_submit(game=game, user=people["ann"], action=action, expected_index=0)
    assert refused.value.code == "game_paused"
    assert snapshot_rows(game) == before
    game_resume(game=game, user=people["mod"])
    game.refresh_from_db()
    assert game.status == Game.Status.SETUP
    action_submit(game=game, user=people["ann"], action=action, expected_index=0)


def test_replace_passes_the_seat_and_ends_the_old_access(game, people):
    assert game_get_for_user(people["ann"], "isles") == game
    seat_replace(game=game, user=people["mod"], player="red", username="dee", reason="left")
    from django.http import Http404

    with pytest.raises(Http404):
        game_get_for_user(people["ann"], "isles")
    assert game_get_for_user(people["dee"], "isles") == game
    from engine.seafarers import bot_action

    action = bot_action(position(game), "red", 1)
    with pytest.raises(GameRefused):
        action_submit(game=game, user=people["ann"], action=action, expected_index=0)
    action_submit(game=game, user=people["dee"], action=action, expected_index=0)
    with pytest.raises(GameRefused) as refused:
        seat_replace(game=game, user=people["mod"], player="blue", username="dee")
    assert refused.value.code == "bad_seats"


def test_the_one_fetch_and_what_a_seat_sees(game, people):
    from django.http import Http404

    outsider = people["dee"]
    with pytest.raises(Http404):
        game_get_for_user(outsider, "isles")
    play_until(game, lambda s: s.phase == "action")
    mine = game_state_for(game, people["ann"])
    assert "seed" not in mine
    assert isinstance(mine["dev_deck"], int)
    red, blue = mine["players"][0], mine["players"][1]
    assert "hand" in red
    assert "hand" not in blue
    assert "dev_cards" not in blue
    assert blue["hand_count"] == sum(game.state["players"][1]["hand"].values())
    assert game_state_for(game, people["mod"]) == game.state


def test_undo_without_a_reason_is_refused_and_changes_nothing(game, people):
    """G3: the undo is an audited moderator's change; without a reason it is refused."""
    play_one(game)
    before = snapshot_rows(game)
    for reason in ("", " \t"):
        with pytest.raises(GameRefused) as refused:
            game_undo(game=game, user=people["mod"], reason=reason)
        assert refused.value.code == "reason_required"
        assert "say why" in refused.value.message
    assert snapshot_rows(game) == before
    assert not AuditEntry.objects.filter(action="game_undo").exists()
