"""A naval world the rules engine refuses — made wrong behind the world editor's back (the
admin, a hand-edited row: R-51 holds only the editor's own edits) — answered on every page
that needs the engine to read it with 409 `world_invalid` and what to do, never a 500, nothing
changed (docs/rulings.md R-74).

The engine reads the world in many places (the desk, the map, an order, the API, the pirates'
suggestions), each through `parse_scenario`, which raises `ScenarioError`; this middleware
answers that error for a naval campaign's pages. The moderator is shown the problems in the
world check's words with a link to it; a player is told only that the moderator must mend the
world, since a problem may name a fleet or a port out of their sight. The dashboard does not
come here: it shows the same problems in place (`world_problems`) and keeps its other parts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from campaign.models import Campaign, Membership
from campaign.selectors import membership_find
from engine.naval import ScenarioError

CODE = "world_invalid"
FOR_PLAYERS = (
    "This campaign's world has a problem the rules cannot read (an edit made outside the world "
    "editor). The moderator must mend it; until then its pages and orders wait"
)


def world_problems(campaign: Campaign) -> list[str]:
    """The world check's problems in words, each with its place (R-51)."""
    from fleets.world_editor import world_check  # it imports the admin: loaded when asked

    return [f"{place.words}: {place.message}" for place in world_check(campaign).places]


def refusal_words(count: int) -> str:
    return f"the world has {count} problem{'s' if count != 1 else ''}"


@dataclass(frozen=True)
class BrokenWorld:
    """A request's naval campaign whose world the engine refused, and what the asker may read:
    the problems for its moderator, none for a player."""

    campaign: Campaign
    problems: list[str]
    moderator: bool
    done: str  # "Nothing done: " for a request that would have changed something, else ""

    def message(self) -> str:
        """The refusal in one line (the API's `message`)."""
        if not self.moderator:
            return self.done + FOR_PLAYERS
        named = "; ".join(self.problems[:10])
        more = f"; and {len(self.problems) - 10} more" if len(self.problems) > 10 else ""
        words = refusal_words(len(self.problems))
        return f"{self.done}{words[0].upper()}{words[1:]}: {named}{more}"


def broken_world(request: HttpRequest, error: Exception) -> BrokenWorld | None:
    """The refusal for `error` raised on `request`, or None when it is not a naval world the
    engine refused on a member's page (a real fault, left to the error page and the log)."""
    if not isinstance(error, ScenarioError):
        return None
    campaign = _campaign_of(request)
    if campaign is None or campaign.ruleset != "naval":
        return None
    # The API's key names its membership (request.auth); the pages' login, the user's.
    key = getattr(request, "auth", None)
    membership = key if isinstance(key, Membership) else membership_find(request.user, campaign.pk)
    if membership is None or membership.campaign_id != campaign.pk:
        return None  # no one reaches the engine here without a membership (404 before)
    moderator = membership.role == Membership.Role.MODERATOR
    done = "" if request.method in ("GET", "HEAD") else "Nothing done: "
    problems = world_problems(campaign) if moderator else []
    return BrokenWorld(campaign, problems, moderator, done)


class BrokenWorldMiddleware:
    """The pages' answer (the API's is its exception handler, fleets/api.py)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        broken = broken_world(request, exception)
        if broken is None:
            return None
        problems = broken.problems
        context: dict[str, Any] = {
            "campaign": broken.campaign,
            "code": CODE,
            "problems": problems[:10],
            "more": max(len(problems) - 10, 0),
            "count": refusal_words(len(problems)),
            "done": broken.done,
            "for_players": FOR_PLAYERS,
            "check": reverse("world_check", args=[broken.campaign.slug])
            if broken.moderator
            else None,
        }
        return render(request, "fleets/world_invalid.html", context, status=409)


def _campaign_of(request: HttpRequest) -> Campaign | None:
    """The campaign the request's page is of: its slug in the path (the pages, the API)."""
    match = request.resolver_match
    slug = match.kwargs.get("slug") if match is not None else None
    if not isinstance(slug, str):
        return None
    return Campaign.objects.filter(slug=slug).first()
