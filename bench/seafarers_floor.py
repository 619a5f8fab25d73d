"""The floor view of the seafaring load bench (bench/seafarers_load.py): the same stack as the
seat's desk — every middleware, the session, `login_required`, the game looked up for the user
(`game_get_for_user`: the game, its seats, the membership) — rendering an empty page. What a
desk request costs above it is the desk's own work; the bench's target is the board page and an
action each at most 5× the floor's server time in the same run (issue 14, as issue 11's target
for the naval desk).

Served only by the bench's gunicorn: `DJANGO_SETTINGS_MODULE=bench.seafarers_floor_settings` is
the site's settings with this module's URLs in front of the site's own; a real host never routes
it.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, URLResolver, include, path
from django.views.decorators.http import require_GET

from seafarers.selectors import game_get_for_user

FLOOR_PAGE = "<!doctype html><title>floor</title>"


@login_required
@require_GET
def floor(request: HttpRequest, slug: str) -> HttpResponse:
    game_get_for_user(request.user, slug)  # the desk's lookup (a 404 for a stranger)
    return HttpResponse(FLOOR_PAGE)


urlpatterns: list[URLPattern | URLResolver] = [
    path("bench/floor/<slug:slug>/", floor, name="bench_floor"),
    path("", include("config.urls")),
]
