"""Reading a seafaring game: the one permission-checked fetch, and the position as a seat may
see it (seafarers.md G5)."""

from __future__ import annotations

from typing import Any

from django.http import Http404

from campaign.models import Membership
from seafarers.models import Game
from seafarers.positions import seat_view


def game_get_for_user(user: Any, slug: str) -> Game:
    """The game of campaign `slug` for its moderator or a seat's user; 404 for anyone else, so a
    game's existence is not given away (a replaced player's access ends with the seat)."""
    if user is None or not user.is_authenticated or "\x00" in slug:
        raise Http404("No such game.")
    game = Game.objects.select_related("campaign").filter(campaign__slug=slug).first()
    if game is None:
        raise Http404("No such game.")
    if (
        game.seats.filter(user_id=user.pk).exists()
        or Membership.objects.filter(
            campaign_id=game.campaign_id, user_id=user.pk, role="moderator"
        ).exists()
    ):
        return game
    raise Http404("No such game.")


def game_state_for(game: Game, user: Any) -> dict[str, Any]:
    """The current position as the user may see it: the moderator sees it whole; a seat's user
    sees their own hand and cards, the others' as counts (G5)."""
    if Membership.objects.filter(
        campaign_id=game.campaign_id, user_id=user.pk, role="moderator"
    ).exists():
        return dict(game.state)
    seat = game.seats.filter(user_id=user.pk).first()
    return seat_view(game.state, seat.player if seat else None)
