"""Reading a seafaring game: the one permission-checked fetch, and the position as a seat may
see it (seafarers.md G5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404

from campaign.models import Membership
from campaign.selectors import membership_find, moderates
from engine.seafarers import State, parse_scenario
from seafarers.models import Game, Seat
from seafarers.positions import seat_view


def game_get_for_user(user: Any, slug: str) -> Game:
    """The game of campaign `slug` for its members — the moderator, and each player through
    the seat their membership holds (issue 10: the platform's one access check, then the
    seat); 404 for anyone else, so a game's existence is not given away (a replaced player's
    access ends with the membership's seat)."""
    if user is None or not user.is_authenticated or "\x00" in slug:
        raise Http404("No such game.")
    game = Game.objects.select_related("campaign").filter(campaign__slug=slug).first()
    if game is None:
        raise Http404("No such game.")
    if user.is_superuser:  # runs any game as its moderator would (campaign.selectors.moderates)
        return game
    membership = membership_find(user, game.campaign_id)
    if membership is not None and (
        membership.role == Membership.Role.MODERATOR
        or game.seats.filter(membership_id=membership.pk).exists()
    ):
        return game
    raise Http404("No such game.")


def game_state_for(game: Game, user: Any) -> dict[str, Any]:
    """The current position as the user may see it: the moderator sees it whole; a seat's user
    sees their own hand and cards, the others' as counts (G5)."""
    if is_moderator(game, user):
        return dict(game.state)
    seat = seat_of(game, user)
    return seat_view(game.state, seat.player if seat else None)


# -- for the pages (issue 13) ---------------------------------------------------------------
def seat_of(game: Game, user: Any) -> Seat | None:
    """The user's seat in the game, found through their membership, or None (the moderator,
    who holds none)."""
    if user is None or not user.is_authenticated:
        return None
    return game.seats.select_related("membership__user").filter(membership__user_id=user.pk).first()


def game_position(game: Game) -> State:
    """The current position as an engine state, read from the stored document, for drawing and
    for `legal_actions` only: the chance counters are not in the document (positions.py), so a
    page never *applies* an action to it — the services replay the log for that."""
    return parse_scenario(game.state).state


@dataclass(frozen=True, slots=True)
class News:
    """What the desk tells of the log's last actions, read in one query."""

    last_events: list[dict[str, Any]]  # the last applied action's (the board rings its place)
    roll: dict[str, Any] | None  # the last `rolled` event: the dice the desk shows
    steals: list[dict[str, Any]]  # this turn's `stolen` events, oldest first (B11, PI4, B13)


def recent_news(game: Game, *, back: int = 80) -> News:
    """The desk's news from the log's last `back` actions (a turn is rarely longer): the last
    action's events, the last roll, and the steals since the current turn started."""
    rows = list(game.actions.order_by("-index").values_list("events", flat=True)[:back])
    roll: dict[str, Any] | None = None
    steals: list[dict[str, Any]] = []
    this_turn = True
    for events in rows:
        for event in reversed(events or []):
            kind = event.get("type")
            if kind == "turn_started":
                this_turn = False
            elif kind == "stolen" and this_turn:
                steals.append(dict(event))
            elif kind == "rolled" and roll is None:
                roll = dict(event)
        if roll is not None and not this_turn:
            break
    return News(list(rows[0] or []) if rows else [], roll, steals[::-1])


def is_moderator(game: Game, user: Any) -> bool:
    return moderates(user, game.campaign_id)
