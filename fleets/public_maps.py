"""A published turn's public map: a PNG at an unguessable, revocable link (issue 11, the forum
export; docs/rulings.md R-56–R-58).

The bulletin is the thing a player posts to a forum or a Discord channel; its map must be an
image those show (PNG, not SVG) at an address that needs no login, and that shows only what the
bulletin may (maps/public.py: under fog of war, no fleet). The address holds a random token kept
in a row per published turn (`PublicMap`), so:
- it cannot be guessed (192 random bits) and names nothing it would give away;
- the moderator can replace it, with a reason for the audit log: the old link then finds nothing
  (a 404 like any unknown token), without touching SECRET_KEY, which the seafaring board's
  signed link (S-37) would need;
- a turn that is not published has none: the row is made only for a published turn, and a row is
  of one publication (`published_at`): rolled back, the link is a 404; published again, the turn
  gets a new link (the old one stays dead: a forum post made from the rolled-back result keeps
  showing nothing rather than a map the text does not match).
The PNG is drawn once (CairoSVG, the costly part) on its first request or the webhook's post, and
kept in the row; every later request reads it back.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from campaign.models import AuditEntry, Turn
from fleets.models import Faction, Port, Province, PublicMap
from fleets.selectors import campaign_drawing
from maps.layout import Layout, layout_from_rows
from maps.png import svg_png
from maps.public import public_map_svg

log = logging.getLogger(__name__)
TOKEN_BYTES = 24  # 32 URL-safe characters
REASON_REQUIRED = (
    "Say why the link is replaced: the reason goes to the audit log (reason_required)."
)
NOT_PUBLISHED = "That turn is not published: it has no public map (not_published)."


def _live(turn: Turn) -> bool:
    return (
        turn.status == Turn.Status.PUBLISHED and not turn.archived and turn.published_at is not None
    )


def public_map_issue(turn: Turn) -> PublicMap | None:
    """The turn's public map row, made now if it has none or has one of an earlier publication
    (then with a new token); None when the turn is not published."""
    if not _live(turn):
        return None
    published_at = turn.published_at
    assert published_at is not None  # _live
    found = PublicMap.objects.filter(turn=turn).first()
    if found is not None and found.published_at == published_at:
        return found
    now = timezone.now()
    if found is None:
        try:
            with transaction.atomic():
                return PublicMap.objects.create(
                    turn=turn,
                    token=_token(),
                    published_at=published_at,
                    made_at=now,
                )
        except IntegrityError:  # a request at the same moment made it first
            return PublicMap.objects.filter(turn=turn, published_at=published_at).first()
    # Of an earlier publication (a rollback, then a publish): compare-and-set, so two requests
    # at once make one new token between them.
    PublicMap.objects.filter(pk=found.pk, published_at=found.published_at).update(
        token=_token(), published_at=published_at, made_at=now, png=None
    )
    return PublicMap.objects.filter(turn=turn, published_at=published_at).first()


def public_map_renew(*, turn: Turn, user: Any, reason: str) -> str | None:
    """The moderator replaces the turn's public link (a leaked link, a forum post to take down):
    a new token at once, the old one a 404 from the next request. The refusal's words, or None.
    The audit entry names the turn and why, never a token."""
    reason = reason.strip()
    if not reason:
        return REASON_REQUIRED
    with transaction.atomic():
        turn = Turn.objects.select_for_update().get(pk=turn.pk)
        if not _live(turn):
            return NOT_PUBLISHED
        found = public_map_issue(turn)
        assert found is not None
        PublicMap.objects.filter(pk=found.pk).update(token=_token(), made_at=timezone.now())
        AuditEntry.objects.create(
            campaign_id=turn.campaign_id,
            turn=turn,
            user=user if getattr(user, "pk", None) else None,
            action="replace public map link",
            reason=reason,
            detail={"number": turn.number, "made": found.made_at.isoformat()},
        )
    return None


def public_map_find(slug: str, number: int, token: str) -> PublicMap | None:
    """The row a public link names, if it still shows a published turn; None for anything else
    (an unknown or replaced token, another campaign's or turn's, a turn rolled back)."""
    if not token or len(token) > 64 or "\x00" in slug + token:  # (PostgreSQL: no NUL at all)
        return None
    found = (
        PublicMap.objects.select_related("turn", "turn__campaign")
        # The turn's documents are megabytes for a big campaign, and a kept PNG needs neither.
        .defer("turn__scenario", "turn__result")
        .filter(token=token, turn__campaign__slug=slug, turn__number=number)
        .first()
    )
    if found is None or not _live(found.turn) or found.published_at != found.turn.published_at:
        return None
    return found


def public_map_png(public_map: PublicMap) -> bytes:
    """The PNG of the row's turn: kept in the row, drawn and kept on the first request."""
    if public_map.png:
        return bytes(public_map.png)
    turn = Turn.objects.select_related("campaign").get(pk=public_map.turn_id)  # with documents
    png = svg_png(turn_public_svg(turn))
    PublicMap.objects.filter(pk=public_map.pk, published_at=public_map.published_at).update(png=png)
    public_map.png = png
    return png


def turn_public_png(turn: Turn) -> bytes | None:
    """The published turn's public map as PNG (the webhook's attachment), or None if the turn is
    not published."""
    found = public_map_issue(turn)
    return None if found is None else public_map_png(found)


def turn_public_svg(turn: Turn) -> str:
    """The public map of a published turn as SVG: the world after it, its battles marked."""
    assert turn.result is not None
    assert turn.scenario is not None
    after = {**turn.scenario, **turn.result["state"], "orders": []}
    after["map"] = {**turn.scenario["map"], "ports": turn.result["state"]["ports"]}
    campaign = turn.campaign
    return public_map_svg(
        after,
        _layout(campaign),
        fog=campaign.naval_settings.fog_of_war,
        events=turn.result["events"],
    )


def _layout(campaign: Any) -> Layout:
    return layout_from_rows(
        Province.objects.filter(campaign=campaign).values_list("key", "name", "x", "y"),
        Port.objects.filter(campaign=campaign).values_list("key", "name"),
        Faction.objects.filter(campaign=campaign).values_list("key", "name", "colour"),
        fill=campaign.naval_settings.map_fill,  # the campaign file's map.fill
        title=campaign.name,
        drawing=campaign_drawing(campaign),
    )


def _token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)
