"""A naval campaign's turn reports and history (the URLs /c/<slug>/turns/…). Every view fetches
through `membership_get` (404 for non-members); a player reads their faction's report (fog of
war when the campaign has it on), the moderator any.

The forum export (issue 11; docs/rulings.md R-56–R-59): the export page gives the public bulletin
first — the thing to post, as Markdown and BBCode, with the turn's public map as a PNG image at
an unguessable link (fleets/public_maps.py) — then the faction's own report in a block of its own,
marked "private — do not post" (also in its text, so a pasted copy still says so). The public
map's PNG is the one page here that asks for no login: the link's token is the permission, and an
unknown, replaced or rolled-back token is the same 404."""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET, require_POST, require_safe

from campaign.models import Membership, Turn
from fleets.bulletin import bulletin_texts
from fleets.models import Faction
from fleets.names import campaign_names
from fleets.public_maps import (
    public_map_find,
    public_map_issue,
    public_map_png,
    public_map_renew,
)
from fleets.selectors import membership_get
from reports import bbcode, markdown
from reports.bbcode import to_bbcode
from reports.build import faction_report, public_bulletin
from reports.markdown import to_markdown
from throttle.limiter import Limit, blocked_until, client_address, failure_record

# Links tried that name no public map, from one client address: past this, 429 for a while. A
# token cannot be guessed (192 bits); the limit keeps a scan from costing the database much.
PUBLIC_MAP_MISSES = Limit("public-map-address", 30, 15 * 60)
# How long a browser or a forum's image proxy may keep the PNG: a replaced link stops showing
# within this for them (Discord's own media proxy keeps what it fetched as it sees fit).
PUBLIC_MAP_MAX_AGE = 600
PRIVATE_MARK = {
    "md": "> **PRIVATE — do not post.** The report of {faction}, for its own eyes: it tells "
    "what the other factions must not know.",
    "bbcode": "[b]PRIVATE — do not post.[/b] The report of {faction}, for its own eyes: it "
    "tells what the other factions must not know.",
}


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
    and the public bulletin, as a page; `report.md` and `report.bbcode` are the faction's own
    report alone, marked private (404 for a moderator who chose no faction): the bulletin to
    post is `bulletin.md` and `bulletin.bbcode`, and the export page gives both."""
    membership = membership_get(request.user, slug)
    turn = published_turn(membership, number)
    faction = _report_faction(membership, request.GET.get("faction"))
    if fmt in ("md", "bbcode"):
        texts = private_texts(turn, faction)
        if texts is None:
            raise Http404("Choose a faction: ?faction=<key>.")
        return _text_file(texts[fmt], f"turn-{number}-{faction}-private.{fmt}")
    private_report, bulletin_report = _reports(turn, faction)
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
            "factions": membership.campaign.factions.exclude(key=Faction.PIRATES).order_by("key"),
        },
    )


@login_required
@require_GET
def turn_export(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The forum export: the public bulletin to post (Markdown, BBCode, the public map's PNG
    link), then the faction's private report, marked; the moderator may replace the link."""
    membership = membership_get(request.user, slug)
    turn = published_turn(membership, number)
    faction = _report_faction(membership, request.GET.get("faction"))
    png_url = public_png_url(request, turn)
    private = private_texts(turn, faction)
    return render(
        request,
        "reports/export.html",
        {
            "campaign": membership.campaign,
            "membership": membership,
            "turn": turn,
            "faction": faction,
            "faction_name": _faction_name(turn, faction),
            "png_url": png_url,
            "bulletin": bulletin_texts(turn, png_url),
            "private": private,
            "is_moderator": membership.role == Membership.Role.MODERATOR,
            "factions": membership.campaign.factions.exclude(key=Faction.PIRATES).order_by("key"),
        },
    )


@login_required
@require_GET
def turn_bulletin_text(request: HttpRequest, slug: str, number: int, fmt: str) -> HttpResponse:
    """The bulletin to post, as a file: Markdown or BBCode, the public map's PNG at the top."""
    membership = membership_get(request.user, slug)
    turn = published_turn(membership, number)
    text = bulletin_texts(turn, public_png_url(request, turn))[fmt]
    return _text_file(text, f"turn-{number}-bulletin.{fmt}")


@login_required
@require_POST
def public_map_replace(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The moderator replaces the turn's public map link, with a reason (audited): the old link
    is a 404 from the next request. Players get the page's 404, as for a campaign not theirs."""
    membership = membership_get(request.user, slug)
    if membership.role != Membership.Role.MODERATOR:
        raise Http404("No such page.")
    turn = published_turn(membership, number)
    refused = public_map_renew(turn=turn, user=request.user, reason=request.POST.get("reason", ""))
    if refused:
        messages.error(request, refused)
    else:
        messages.success(
            request,
            f"Turn {number}'s public map has a new link; the old one shows nothing from now on. "
            "Posts that used it need the new one.",
        )
    return redirect(reverse("turn_export", args=[slug, number]))


@require_safe  # GET and HEAD: a forum's or Discord's image proxy may ask with HEAD first
def public_map(request: HttpRequest, slug: str, number: int, token: str) -> HttpResponse:
    """The public map of a published turn, as PNG, for anyone holding the link (no login)."""
    address = client_address(request)
    until = blocked_until(PUBLIC_MAP_MISSES, address)
    if until is not None:
        refused = HttpResponse(
            f"Too many links tried that show nothing: try again after {until:%H:%M} UTC "
            "(public_map_throttled).",
            status=429,
            content_type="text/plain; charset=utf-8",
        )
        refused["Retry-After"] = str(max(1, int((until - timezone.now()).total_seconds())))
        return refused
    found = public_map_find(slug, number, token)
    if found is None:
        failure_record(PUBLIC_MAP_MISSES, address)
        raise Http404("No such picture.")
    response = HttpResponse(public_map_png(found), content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="turn-{number}-map.png"'
    response["X-Robots-Tag"] = "noindex"
    patch_cache_control(response, public=True, max_age=PUBLIC_MAP_MAX_AGE)
    return response


def public_png_url(request: HttpRequest, turn: Turn) -> str:
    """The absolute address of the published turn's public map (made on first need)."""
    found = public_map_issue(turn)
    assert found is not None  # the turn is published: published_turn found it
    path = reverse("public_map", args=[turn.campaign.slug, turn.number, found.token])
    return request.build_absolute_uri(path)


def private_texts(turn: Turn, faction: str | None) -> dict[str, str] | None:
    """The faction's own report as Markdown ("md") and BBCode, each under its "private" mark;
    None without a faction."""
    if faction is None:
        return None
    private, _ = _reports(turn, faction)
    name = str(_faction_name(turn, faction))
    return {
        "md": PRIVATE_MARK["md"].format(faction=markdown.escape(name))
        + "\n\n"
        + to_markdown(private),
        "bbcode": PRIVATE_MARK["bbcode"].format(faction=bbcode.escape(name))
        + "\n\n"
        + to_bbcode(private),
    }


def _faction_name(turn: Turn, faction: str | None) -> str | None:
    return campaign_names(turn.campaign_id).faction(faction) if faction else None


def _text_file(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    plain = re.sub(r"[^A-Za-z0-9_.-]", "_", filename)
    response["Content-Disposition"] = f'inline; filename="{plain}"'
    return response


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
