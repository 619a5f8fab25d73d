"""A naval campaign's turn reports and history (the URLs /c/<slug>/turns/…). Every view fetches
through `membership_get` (404 for non-members); a player reads their faction's report (fog of
war when the campaign has it on), the moderator any."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from campaign.models import Membership, Turn
from fleets.models import Faction
from fleets.names import campaign_names
from fleets.selectors import membership_get
from reports.bbcode import to_bbcode
from reports.build import faction_report, public_bulletin
from reports.markdown import to_markdown


@login_required
@require_GET
def turns(request: HttpRequest, slug: str) -> HttpResponse:
    """The campaign's history: every published turn, with its reports and maps."""
    membership = membership_get(request.user, slug)
    published = Turn.objects.filter(
        campaign=membership.campaign, archived=False, status=Turn.Status.PUBLISHED
    ).order_by("-number")
    return render(
        request,
        "reports/turns.html",
        {
            "campaign": membership.campaign,
            "membership": membership,
            "turns": published,
        },
    )


@login_required
@require_GET
def turn_report(request: HttpRequest, slug: str, number: int, fmt: str = "html") -> HttpResponse:
    """A published turn's reports: the faction's own (the moderator picks one with ?faction=)
    and the public bulletin; as a page, or as Markdown or BBCode to paste into a forum."""
    membership = membership_get(request.user, slug)
    map_url = request.build_absolute_uri(reverse("turn_map", args=[slug, number]))
    if fmt in ("md", "bbcode"):
        private, bulletin = report_texts(
            membership, number, fmt, request.GET.get("faction"), map_url=map_url
        )
        text = "\n\n".join(t for t in (private, bulletin) if t)
        return HttpResponse(text, content_type="text/plain; charset=utf-8")
    turn = published_turn(membership, number)
    faction = _report_faction(membership, request.GET.get("faction"))
    private_report, bulletin_report = _reports(turn, faction)
    texts = {
        fmt: report_texts(membership, number, fmt, faction, map_url=map_url)
        for fmt in ("md", "bbcode")
    }
    return render(
        request,
        "reports/turn_report.html",
        {
            "campaign": membership.campaign,
            "membership": membership,
            "turn": turn,
            "faction": faction,
            "private": private_report,
            "bulletin": bulletin_report,
            "texts": {fmt: "\n\n".join(t for t in pair if t) for fmt, pair in texts.items()},
            "factions": membership.campaign.factions.exclude(key=Faction.PIRATES).order_by("key"),
        },
    )


def report_texts(
    membership: Membership,
    number: int,
    fmt: str,
    chosen: str | None = None,
    *,
    map_url: str | None = None,
) -> tuple[str | None, str]:
    """The faction's report (None for a moderator who chose none) and the bulletin, as Markdown
    ("md") or BBCode; the map linked at the top of the first."""
    turn = published_turn(membership, number)
    private, bulletin = _reports(turn, _report_faction(membership, chosen))
    render_text = to_markdown if fmt == "md" else to_bbcode
    first = private or bulletin
    return (
        render_text(private, map_url=map_url) if private else None,
        render_text(bulletin, map_url=map_url if first is bulletin else None),
    )


def _reports(turn: Turn, faction: str | None) -> tuple[Any, Any]:
    assert turn.result is not None
    assert turn.scenario is not None
    names = campaign_names(turn.campaign_id)
    bulletin = public_bulletin(turn.scenario, turn.result, names)
    private = faction_report(turn.scenario, turn.result, faction, names) if faction else None
    return private, bulletin


def _report_faction(membership: Membership, chosen: str | None) -> str | None:
    """A player reads their own faction's report; the moderator any, or none."""
    if membership.faction is not None:
        return membership.faction.key
    if chosen and Faction.objects.filter(campaign=membership.campaign, key=chosen).exists():
        return chosen
    return None


def published_turn(membership: Membership, number: int) -> Turn:
    turn = Turn.objects.filter(
        campaign=membership.campaign, number=number, archived=False, status=Turn.Status.PUBLISHED
    ).first()
    if turn is None:
        raise Http404("No such published turn.")
    return turn
