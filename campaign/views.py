"""The players' home page: the list of one's campaigns (each game's own pages are its app's: the
naval turn reports in fleets/report_views.py, the maps in fleets/map_views.py)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaign.rulesets import ruleset_all


@login_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The user's games of every ruleset, each listed by its ruleset (the seam: the platform
    does not know what a seafaring seat or a naval faction is)."""
    games = [(r, r.games_of(request.user)) for r in ruleset_all()]
    return render(
        request, "campaign/home.html", {"games": [(r, found) for r, found in games if found]}
    )
