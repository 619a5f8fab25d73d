"""Issue 10: every person in a seafaring game is a platform Membership of its campaign — the
moderator's, and a player's for each human seat, which points at it (a bot's seat at none). The
new-game page and "Replace a player" give, move and end them, audited as the admin's membership
changes are (R-49); access is the platform's check and the seat found through the membership;
a replaced player's key dies with the seat passing on (docs/rulings.md S-41, S-42)."""

from __future__ import annotations

import pytest
from django.http import Http404

from campaign.models import AuditEntry, Campaign, Membership
from campaign.rulesets import ruleset_of
from campaign.selectors import membership_find, moderates
from seafarers.keys import seat_key_issue, seat_key_seat
from seafarers.models import Seat, SeatKey
from seafarers.selectors import game_get_for_user, seat_of
from seafarers.services import NEW_GAME, GameRefused, game_create, seat_replace

pytestmark = pytest.mark.django_db


def members(game) -> dict[str, tuple[str, str | None]]:
    """user name -> (role, the seat its membership holds)."""
    seats = {s.membership_id: s.player for s in game.seats.all()}
    return {
        m.user.username: (m.role, seats.get(m.pk))
        for m in Membership.objects.filter(campaign=game.campaign).select_related("user")
    }


def test_every_human_seat_is_a_player_membership_made_and_audited(game, people):
    assert members(game) == {
        "mod": ("moderator", None),
        "ann": ("player", "red"),
        "bob": ("player", "blue"),
        "cid": ("player", "white"),
    }
    assert not Membership.objects.filter(campaign=game.campaign, faction__isnull=False).exists()
    red = game.seats.get(player="red")
    assert (red.user, red.user_id) == (people["ann"], people["ann"].pk)  # the membership's
    assert red.membership.seafaring_seat == red
    ruleset = ruleset_of(game.campaign)
    assert [ruleset.seat_name(m) for m in Membership.objects.filter(campaign=game.campaign)] == [
        "",
        "red",
        "blue",
        "white",
    ]
    added = AuditEntry.objects.filter(campaign=game.campaign, action="add membership")
    assert [(e.user, e.reason, e.detail["seat"], e.detail["changes"]) for e in added] == [
        (
            people["mod"],
            NEW_GAME,
            colour,
            {"user": ["", name], "campaign": ["", "isles"], "role": ["", "player"]},
        )
        for name, colour in (("cid", "white"), ("bob", "blue"), ("ann", "red"))
    ]


def test_a_bot_seat_has_no_membership(people):
    game = game_create(
        name="B", slug="b", moderator=people["mod"], board="small-isles", seats=["ann", None, "bob"]
    )
    blue = game.seats.get(player="blue")
    assert (blue.bot, blue.membership, blue.user, blue.user_id) == (True, None, None, None)
    assert set(members(game)) == {"mod", "ann", "bob"}


def test_the_moderator_holds_no_seat(game, people):
    """S-41: a user is a game's moderator or one of its players, never both."""
    campaigns = Campaign.objects.count()
    with pytest.raises(GameRefused) as refused:
        game_create(
            name="M", slug="m", moderator=people["mod"], board="small-isles", seats=["mod", "ann"]
        )
    assert (refused.value.code, refused.value.message) == (
        "bad_seats",
        "mod moderates the game, and a moderator holds no seat",
    )
    assert Campaign.objects.count() == campaigns  # nothing made
    with pytest.raises(GameRefused) as refused:
        seat_replace(game=game, user=people["mod"], player="red", username="mod")
    assert refused.value.code == "bad_seats"
    assert members(game)["mod"] == ("moderator", None)
    assert members(game)["ann"] == ("player", "red")


def test_replacing_a_player_moves_ends_and_makes_the_membership_audited(game, people):
    red = game.seats.get(player="red")
    held = red.membership_id
    seat_replace(game=game, user=people["mod"], player="red", username="dee", reason="ann left")
    red.refresh_from_db()
    assert red.membership_id == held  # the same membership, changed hands
    assert members(game) == {
        "mod": ("moderator", None),
        "dee": ("player", "red"),
        "bob": ("player", "blue"),
        "cid": ("player", "white"),
    }
    edit = AuditEntry.objects.get(action="edit membership")
    assert (edit.user, edit.reason, edit.detail["seat"], edit.detail["changes"]) == (
        people["mod"],
        "ann left",
        "red",
        {"user": ["ann", "dee"]},
    )

    seat_replace(game=game, user=people["mod"], player="red", username=None, reason="to the bot")
    red.refresh_from_db()
    assert (red.bot, red.membership) == (True, None)
    assert "dee" not in members(game)
    gone = AuditEntry.objects.get(action="delete membership")
    assert (gone.reason, gone.detail["seat"], gone.detail["changes"]) == (
        "to the bot",
        "red",
        {"user": ["dee", ""], "campaign": ["isles", ""], "role": ["player", ""]},
    )

    seat_replace(game=game, user=people["mod"], player="red", username="ann", reason="back")
    red.refresh_from_db()
    assert (red.bot, red.user) == (False, people["ann"])
    assert members(game)["ann"] == ("player", "red")
    back = AuditEntry.objects.filter(action="add membership", reason="back").get()
    assert back.detail["changes"]["user"] == ["", "ann"]
    assert game_get_for_user(people["ann"], "isles") == game


def test_a_replaced_players_key_dies_and_stays_dead(game, people):
    red = seat_of(game, people["ann"])
    key = seat_key_issue(seat=red)
    assert seat_key_seat(key) == red
    seat_replace(game=game, user=people["mod"], player="red", username="dee")
    assert seat_key_seat(key) is None
    assert not SeatKey.objects.filter(seat=red).exists()  # the row went with the seat
    seat_replace(game=game, user=people["mod"], player="red", username="ann")
    assert seat_key_seat(key) is None  # given back, the old key does not come back
    assert seat_key_seat(seat_key_issue(seat=seat_of(game, people["ann"]))) is not None


def test_access_is_the_platforms_check_then_the_seat(game, people):
    campaign = game.campaign
    assert moderates(people["mod"], campaign.pk)
    assert not moderates(people["ann"], campaign.pk)
    assert membership_find(people["ann"], campaign.pk).role == "player"
    assert membership_find(people["dee"], campaign.pk) is None
    assert seat_of(game, people["ann"]).player == "red"
    assert seat_of(game, people["mod"]) is None
    # A player's membership without a seat (which no page makes) opens nothing.
    Membership.objects.create(user=people["dee"], campaign=campaign, role="player")
    with pytest.raises(Http404):
        game_get_for_user(people["dee"], "isles")


def test_a_seat_holders_membership_is_not_deleted_under_the_seat(game, people):
    """PROTECT, as the seat's user was: deleting the account of a player who holds a seat is
    refused until the seat is passed on."""
    from django.db.models import ProtectedError

    with pytest.raises(ProtectedError):
        people["ann"].delete()
    assert Seat.objects.get(game=game, player="red").user == people["ann"]
