"""Players' pages around the desk: the list of one's campaigns, the map, the turn reports and the
campaign's history. Every view fetches through `membership_get` (404 for non-members); a player
sees their faction's view (fog of war when the campaign has it on), the moderator everything."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from campaign.map_cache import map_cached
from campaign.mapping import orders_document, world_document
from campaign.models import Faction, Membership, Port, Province, Turn
from campaign.selectors import campaign_names
from fleets.selectors import membership_get
from maps.layout import layout_from_rows
from maps.svg import map_svg
from reports.bbcode import to_bbcode
from reports.build import faction_report, public_bulletin
from reports.markdown import to_markdown


@login_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    memberships = Membership.objects.filter(user=request.user).select_related("campaign", "faction")
    return render(request, "campaign/home.html", {"memberships": memberships})


@login_required
@require_GET
def campaign_map(request: HttpRequest, slug: str) -> HttpResponse:
    """The map as it stands, as the member sees it, with the faction's orders as arrows."""
    membership = membership_get(request.user, slug)
    campaign = membership.campaign
    turn = campaign.current_turn
    viewer = membership.faction.key if membership.faction else None
    world, layout, fog = world_document(campaign), _layout(campaign), campaign.fog_of_war
    orders = orders_document(turn) if turn else []
    if viewer is not None:  # map_svg draws only the viewer's own; the others must not change
        own = {f["id"] for f in world["fleets"] if f["owner"] == viewer}  # the cache key
        orders = [o for o in orders if o.get("fleet") in own]
    return _map_response(world, layout, viewer, fog, orders=orders)


@login_required
@require_GET
def turn_map(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A published turn's map: the world after it, with its battles marked."""
    membership = membership_get(request.user, slug)
    turn = _published(membership, number)
    assert turn.result is not None
    assert turn.scenario is not None
    viewer = membership.faction.key if membership.faction else None
    after = {**turn.scenario, **turn.result["state"], "orders": []}
    after["map"] = {**turn.scenario["map"], "ports": turn.result["state"]["ports"]}
    campaign = membership.campaign
    events = turn.result["events"]
    return _map_response(after, _layout(campaign), viewer, campaign.fog_of_war, events=events)


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
        "campaign/turns.html",
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
    turn = _published(membership, number)
    faction = _report_faction(membership, request.GET.get("faction"))
    private_report, bulletin_report = _reports(turn, faction)
    texts = {
        fmt: report_texts(membership, number, fmt, faction, map_url=map_url)
        for fmt in ("md", "bbcode")
    }
    return render(
        request,
        "campaign/turn_report.html",
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
    turn = _published(membership, number)
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


def _published(membership: Membership, number: int) -> Turn:
    turn = Turn.objects.filter(
        campaign=membership.campaign, number=number, archived=False, status=Turn.Status.PUBLISHED
    ).first()
    if turn is None:
        raise Http404("No such published turn.")
    return turn


def _map_response(
    world: dict[str, Any],
    layout: Any,
    viewer: str | None,
    fog: bool,
    *,
    orders: Sequence[Mapping[str, Any]] = (),
    events: Sequence[Mapping[str, Any]] = (),
) -> HttpResponse:
    """The map drawn from these inputs (or kept from an earlier drawing of the same), as SVG."""
    inputs: dict[str, Any] = {"viewer": viewer, "fog": fog, "orders": orders, "events": events}
    svg = map_cached(lambda: map_svg(world, layout, **inputs), world=world, layout=layout, **inputs)
    return HttpResponse(svg, content_type="image/svg+xml")


def _layout(campaign: Any) -> Any:
    return layout_from_rows(
        Province.objects.filter(campaign=campaign).values_list("key", "name", "x", "y"),
        Port.objects.filter(campaign=campaign).values_list("key", "name"),
        Faction.objects.filter(campaign=campaign).values_list("key", "name", "colour"),
    )
