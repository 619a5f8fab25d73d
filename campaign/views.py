"""The players' home page: the list of one's campaigns (each game's own pages are its app's: the
naval turn reports in fleets/report_views.py, the maps in fleets/map_views.py)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaign.models import Membership


@login_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    memberships = Membership.objects.filter(user=request.user).select_related("campaign", "faction")
    return render(request, "campaign/home.html", {"memberships": memberships})
