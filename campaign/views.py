"""The players' home page: the list of one's campaigns; the moderator's desk: the list of the
games one moderates (each game's own pages are its app's: the naval turn reports in
fleets/report_views.py, the maps in fleets/map_views.py)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from campaign.models import Campaign
from campaign.rulesets import Link, Ruleset, ruleset_all
from campaign.selectors import campaign_moderated, campaign_others


@login_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The user's games of every ruleset, each listed by its ruleset (the seam: the platform
    does not know what a seafaring seat or a naval faction is)."""
    games = [(r, r.games_of(request.user)) for r in ruleset_all()]
    found = [(r, listings) for r, listings in games if listings]
    waiting = sum(g.your_turn for _, listings in found for g in listings)
    return render(request, "campaign/home.html", {"games": found, "waiting": waiting})


@dataclass(frozen=True)
class Moderated:
    """One game on the moderator's desk: where it is run, and where its seats play."""

    campaign: Campaign
    dashboard: Link
    desk: str


@dataclass(frozen=True)
class ModeratedOfRuleset:
    """A ruleset's part of the moderator's desk: the user's games of it, and where to make one."""

    ruleset: Ruleset
    games: list[Moderated]
    new_game: Link
    others: list[Moderated]  # a superuser's: the games of others, which a superuser may run too


@require_GET
def moderating(request: HttpRequest) -> HttpResponse:
    """The moderator's desk (the header's link): the games the user moderates, under their
    ruleset, each with its dashboard and its desk; where to make a new one of each ruleset; the
    admin's index (every table) for a superuser only. Staff only: for anyone else logged in
    there is no such page (404), as the other staff pages (world_campaign_new)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not request.user.is_staff:
        raise Http404("No such page.")
    moderated = campaign_moderated(request.user)
    # A superuser may open every game's dashboard (campaign.dashboard.moderated_campaign) but
    # moderates only their own: the others are listed apart, so that none is out of reach.
    others = campaign_others(request.user, moderated) if request.user.is_superuser else []

    def rows(ruleset: Ruleset, campaigns: list[Campaign]) -> list[Moderated]:
        return [
            Moderated(c, ruleset.moderator_page(c), reverse(ruleset.pages.desk, args=[c.slug]))
            for c in campaigns
            if c.ruleset == ruleset.key
        ]

    sections = [
        ModeratedOfRuleset(
            ruleset=ruleset,
            games=rows(ruleset, moderated),
            new_game=ruleset.new_game_page(),
            others=rows(ruleset, others),
        )
        for ruleset in ruleset_all()
    ]
    return render(
        request,
        "campaign/moderating.html",
        {
            "sections": sections,
            "moderates_any": bool(moderated),
            "admin_index": reverse("admin:index") if request.user.is_superuser else None,
        },
    )
