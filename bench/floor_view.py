"""The floor views of the load benches (bench/load.py, bench/seafarers_load.py): the same stack as
a player's desk — every middleware, the session, `login_required`, the campaign looked up for
the user as the desk looks it up — rendering an empty page. What a desk request costs above it
is the desk's own work; the benches' targets are the desk's (the board page's), the map's and an
order's (an action's) server time each at most 5× the floor's in the same run, so the figure
holds on a busy machine too (issue 11 for the naval desk, issue 14 for seafaring games).

- `/bench/floor/<slug>/`: a seafaring game's, `game_get_for_user` (the game, its seats, the
  membership), as the board page;
- `/bench/floor/campaign/<slug>/`: a naval campaign's, `membership_get` (the membership with its
  campaign and faction), as the order desk and the map.

Served only by the benches' gunicorn: `DJANGO_SETTINGS_MODULE=bench.floor_view_settings` is the
site's settings with these URLs in front of the site's own; a real host never routes them.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, URLResolver, include, path
from django.views.decorators.http import require_GET

from campaign.selectors import membership_get
from seafarers.selectors import game_get_for_user

FLOOR_PAGE = "<!doctype html><title>floor</title>"


@login_required
@require_GET
def floor(request: HttpRequest, slug: str) -> HttpResponse:
    """A seafaring game's floor."""
    game_get_for_user(request.user, slug)  # the board page's lookup (a 404 for a stranger)
    return HttpResponse(FLOOR_PAGE)


@login_required
@require_GET
def campaign_floor(request: HttpRequest, slug: str) -> HttpResponse:
    """A naval campaign's floor."""
    membership_get(request.user, slug)  # the desk's and the map's lookup (a 404 for a stranger)
    return HttpResponse(FLOOR_PAGE)


urlpatterns: list[URLPattern | URLResolver] = [
    path("bench/floor/campaign/<slug:slug>/", campaign_floor, name="bench_campaign_floor"),
    path("bench/floor/<slug:slug>/", floor, name="bench_floor"),
    path("", include("config.urls")),
]
