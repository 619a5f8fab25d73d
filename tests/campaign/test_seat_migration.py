"""Issue 10's migrations (campaign 0007, seafarers 0004) on a database that holds a played naval
campaign and a played seafaring game, taken back to before them and forward again: a human seat's
user becomes a player Membership of the game's campaign (and back), every other row is the same
row, the seat's API key still works, and the game goes on. A moderator who held a seat before
(which the pages no longer allow) keeps it through their moderator membership (S-41). Both
databases: run with DATABASE_URL set for PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from campaign.models import Membership
from seafarers.keys import seat_key_issue, seat_key_seat
from seafarers.models import Game, Seat
from seafarers.positions import waiting_for
from seafarers.selectors import game_get_for_user
from seafarers.services import game_create, game_start
from tests.campaign.test_migrations import every_row, latest, migrate, played
from tests.seafarers.helpers import play_one, position

BEFORE_SEATS = [("seafarers", "0003_outbox"), ("campaign", "0006_naval_settings_to_fleets")]
MOVED = ("campaign_membership", "seafarers_seat")  # the tables whose rows the migration moves


def as_back_then(rows: list[dict], back: list[dict]) -> list[dict]:
    """`rows` with only the columns the older schema has (a later migration's columns, such as
    fleets 0011's `resolve_early`, are not there to compare)."""
    if not back:
        return rows
    columns = back[0].keys()
    return [{c: r[c] for c in columns if c in r} for r in rows]


HUMANS = ("red", "blue")


def played_at_sea(people: dict[str, Any]) -> Game:
    """Small Isles: the Danes' player red, the Swedes' blue, a bot white; setup under way."""
    game = game_create(
        name="Sea",
        slug="sea",
        moderator=people["mod"],
        board="small-isles",
        seats=["danes", "swedes", None],
    )
    game_start(game=game, user=people["mod"])
    while game.log_length < 6 and waiting_for(position(game))[0] in HUMANS:
        play_one(game)
    assert game.log_length >= 2
    return game


def memberships() -> set[tuple[Any, ...]]:
    return set(
        Membership.objects.values_list("user__username", "campaign__slug", "role", "faction")
    )


def seat_holders() -> list[tuple[Any, ...]]:
    return list(Seat.objects.order_by("pk").values_list("pk", "player", "bot"))


@pytest.mark.django_db(transaction=True)
def test_seats_become_memberships_and_back_keeping_every_row(open_skirmish, people) -> None:
    played(open_skirmish)
    game = played_at_sea(people)
    red = game.seats.get(player="red")
    key = seat_key_issue(seat=red)
    before = every_row()
    members = memberships()
    holders = {s.pk: s.user.username for s in Seat.objects.filter(bot=False)}
    naval = {r["id"]: r for r in before["campaign_membership"] if r["faction_id"] is not None}

    migrate(*BEFORE_SEATS)
    old = MigrationExecutor(connection).loader.project_state(BEFORE_SEATS).apps
    OldSeat, OldMembership = (
        old.get_model("seafarers", "Seat"),
        old.get_model("campaign", "Membership"),
    )
    assert {s.pk: s.user.username for s in OldSeat.objects.filter(bot=False)} == holders
    assert set(
        OldMembership.objects.filter(campaign__slug="sea").values_list("user__username", "role")
    ) == {("mod", "moderator")}  # the players' memberships were the seats'
    back = every_row()
    for table, rows in before.items():
        if table not in back:  # made by a later migration: nothing of it to lose here
            assert rows == [], table
        elif table not in MOVED:
            assert back[table] == as_back_then(rows, back[table]), table
    assert {r["id"]: r for r in back["campaign_membership"] if r["faction_id"]} == naval

    # A seat its moderator held, as the pages allowed before (S-41).
    mod = OldMembership.objects.get(campaign__slug="sea", role="moderator").user_id
    OldSeat.objects.filter(game__campaign__slug="sea", player="white").update(
        user_id=mod, bot=False
    )

    migrate(*latest())
    after = every_row()
    for table, rows in before.items():
        if table not in MOVED:
            assert after[table] == rows, table
    assert {r["id"]: r for r in after["campaign_membership"] if r["faction_id"]} == naval
    assert memberships() == members  # the same people in the same places
    assert [(pk, player) for pk, player, _ in seat_holders()] == [
        (r["id"], r["player"]) for r in before["seafarers_seat"]
    ]
    assert {s.pk: s.user.username for s in Seat.objects.filter(player__in=HUMANS)} == holders
    white = Seat.objects.get(player="white")
    assert (white.bot, white.user.username, white.membership.role) == (False, "mod", "moderator")
    red = Seat.objects.get(pk=red.pk)
    assert (red.membership.role, red.membership.faction) == ("player", None)
    assert seat_key_seat(key) == red  # the key still opens the seat
    game = Game.objects.get(pk=game.pk)
    assert game_get_for_user(people["danes"], "sea") == game
    length = game.log_length
    while waiting_for(position(game))[0] not in HUMANS:  # white is held: the moderator plays it
        play_one(game)
    play_one(game)  # and the game goes on
    assert game.log_length > length
