"""A seat's API key (/g/<slug>/api-key/): the page says what the key is for; posting makes one
and shows it once (an older key of the seat stops working)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from seafarers.keys import seat_key_issue
from seafarers.selectors import game_get_for_user, seat_of


@login_required
@require_http_methods(["GET", "POST"])
def api_key(request: HttpRequest, slug: str) -> HttpResponse:
    game = game_get_for_user(request.user, slug)
    seat = seat_of(game, request.user)
    if seat is None:  # the moderator: keys are a seat's
        raise Http404("Only a player of the game has an API key.")
    key = seat_key_issue(seat=seat) if request.method == "POST" else None
    base = request.build_absolute_uri("/api/games/")
    return render(
        request,
        "seafarers/api_key.html",
        {"campaign": game.campaign, "seat": seat, "key": key, "base": base},
    )
