"""The moderator's campaign dashboard, inside the admin: the turn's status and deadline, a button
for each action the turn allows (with the reason asked for), the resolution's progress (polled
with htmx), the campaign's settings and audit log, and the game's own part: its ruleset's
`moderator_dashboard`, templates the page includes at its places with their variables (naval:
who has ordered, the map, the draft result to review, the pirates' suggested orders, the
members' API keys: fleets/ruleset.py, fleets/moderation.py).

Function views; every one goes through `moderated_campaign`, the one permission-checked fetch.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.html import format_html, format_html_join
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseStopPolling

from campaign import lifecycle, transitions
from campaign.audit_log import audit_lines
from campaign.deadlines import STALLED
from campaign.models import DOCUMENTS, Campaign, Membership, Turn
from campaign.resolution import turn_progress
from campaign.rulesets import ruleset_of

# The lifecycle's actions a moderator takes (resolve and fail are the worker's).
ACTIONS = tuple(a for a in transitions.ACTIONS if a not in ("resolve", "fail"))


def moderated_campaign(request: HttpRequest, campaign_id: int) -> Campaign:
    """The campaign, if the user moderates it (or is a superuser); 404 otherwise."""
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    user = request.user
    if not user.is_authenticated:
        raise PermissionDenied
    if (
        not getattr(user, "is_superuser", False)
        and not Membership.objects.filter(
            user=user, campaign=campaign, role=Membership.Role.MODERATOR
        ).exists()
    ):
        raise Http404("No such campaign.")
    return campaign


@require_GET
def dashboard(
    request: HttpRequest, campaign_id: int, admin_context: dict[str, Any]
) -> HttpResponse:
    campaign = moderated_campaign(request, campaign_id)
    turn = campaign.current_turn
    ruleset = ruleset_of(campaign)
    context: dict[str, Any] = {
        **admin_context,
        "campaign": campaign,
        "turn": turn,
        "title": f"{campaign.name}: dashboard",
    }
    if turn is not None:
        context["actions"] = [a for a in ACTIONS if transitions.can(turn, a)]
        # R-35's appeals window: the latest published turn may be rolled back while the turn
        # after it has not been resolved (issue 11: the button was missing).
        context["published"] = _latest_published(campaign) if turn.status in LATER_OK else None
        # A locked turn whose task never reached the queue (or was lost): send it again.
        context["queue_down"] = turn.status == Turn.Status.LOCKED and bool(turn.error)
        context["requeue"] = turn.status == Turn.Status.LOCKED and (
            context["queue_down"]
            or (turn.locked_at is not None and timezone.now() - turn.locked_at > STALLED)
        )
        context["missing"] = ruleset.seats_waiting(turn)
        context["progress"] = turn_progress(turn.pk) if turn.status == Turn.Status.LOCKED else None
        context["bar"] = context["progress"] or WAITING  # the bar's first frame
    # The game's part (naval: orders, map, review, pirates, API keys): its templates, included
    # at the page's places, and the variables they read.
    part = ruleset.moderator_dashboard(campaign, turn)
    context.update(part.context)
    context["part"] = part
    # The log in words, each entry's id beside it and the turn's status when it was written.
    context["audit"] = audit_lines(campaign, campaign.audit.select_related("user", "turn")[:15])
    return render(request, "admin/campaign/dashboard.html", context)


# The button for the latest published turn (the current turn's own are ACTIONS), shown while the
# turn after it is a draft, open or locked (lifecycle.turn_rollback cancels that turn).
ROLLBACK_PUBLISHED = "rollback-published"
LATER_OK = (Turn.Status.DRAFT, Turn.Status.OPEN, Turn.Status.LOCKED)


def _latest_published(campaign: Campaign) -> Turn | None:
    return (
        campaign.turns.filter(archived=False, status=Turn.Status.PUBLISHED)
        .order_by("-number")
        .defer(*DOCUMENTS)
        .first()
    )


# A locked turn whose worker has not started: the progress bar's first frame, on the dashboard
# and in its polled partial alike.
WAITING = {"phase": "waiting for a worker", "percent": 0}


@require_POST
def turn_action(request: HttpRequest, campaign_id: int, action: str) -> HttpResponse:
    """One button of the dashboard: a lifecycle action on the current turn, with its reason."""
    campaign = moderated_campaign(request, campaign_id)
    turn = campaign.current_turn_for_action()
    if action == ROLLBACK_PUBLISHED:
        turn = _latest_published(campaign)
        action = "rollback"
    elif action not in (*ACTIONS, "extend", "requeue"):
        raise Http404("No such action.")
    if turn is None:
        raise Http404("No such action.")
    stale = stale_turn(request, campaign, turn)
    if stale:
        return stale
    reason = request.POST.get("reason", "").strip()
    redirect = reverse("admin:campaign_dashboard", args=[campaign.pk])
    try:
        if action == "requeue":
            if not lifecycle.turn_requeue(turn, user=request.user, reason=reason):
                messages.error(request, lifecycle.QUEUE_DOWN)
                return HttpResponseRedirect(redirect)
        elif action == "extend":
            deadline = _deadline(request.POST.get("deadline", ""))
            lifecycle.turn_extend(turn, user=request.user, deadline=deadline, reason=reason)
        elif action == "open":
            # The world's check first: a draft whose world has problems stays a draft.
            lifecycle.turn_open_checked(turn, user=request.user)
        elif action == "rollback":
            lifecycle.turn_rollback(turn, user=request.user, reason=reason)
        else:
            getattr(lifecycle, f"turn_{action}")(turn, user=request.user, reason=reason)
    except lifecycle.OpeningRefused as error:
        messages.error(request, opening_refusal(error))
        return HttpResponseRedirect(redirect)
    except (transitions.TransitionError, ValueError) as error:
        messages.error(request, str(error))
        return HttpResponseRedirect(redirect)
    past = {**transitions.PAST, "requeue": "queued again"}.get(action, action)
    messages.success(request, f"Turn {turn.number}: {past}.")
    if action in ("lock", "retry"):  # its task was sent after the commit: did the queue take it?
        turn.refresh_from_db(fields=["status", "error"])
        if turn.status == Turn.Status.LOCKED and turn.error:
            messages.warning(request, lifecycle.QUEUE_DOWN)
    return HttpResponseRedirect(redirect)


# The problems an opening refusal lists in the message; a world with more (a large
# import gone wrong) has the rest on the game's check page, which lists every one.
PROBLEMS_SHOWN = 10


def opening_refusal(error: lifecycle.OpeningRefused) -> str:
    """The refusal's words, then its problems, each with its place, and the link to the game's
    check (escaped: the problems quote the world's own names and ids)."""
    problems = error.problems
    shown = problems.problems[:PROBLEMS_SHOWN]
    more = len(problems.problems) - len(shown)
    items = format_html_join("", "<li>{}</li>", ((problem,) for problem in shown))
    rest = format_html("<li>and {} more</li>", more) if more > 0 else ""
    check = (
        format_html(
            ' Every problem, each with a link to its row: <a href="{}">{}</a>.', link.url, link.text
        )
        if (link := problems.check) is not None
        else ""
    )
    return format_html("{}<ul>{}{}</ul>{}", str(error), items, rest, check)


@require_GET
def progress(request: HttpRequest, campaign_id: int, turn_id: int) -> HttpResponse:
    """The progress bar partial, polled by htmx while the turn resolves; stops when done."""
    campaign = moderated_campaign(request, campaign_id)
    turn = get_object_or_404(Turn, pk=turn_id, campaign=campaign)
    state = turn_progress(turn.pk) or WAITING
    response = render(
        request,
        "admin/campaign/progress.html",
        {
            "campaign": campaign,
            "turn": turn,
            "progress": state,
            "done": turn.status != Turn.Status.LOCKED,
        },
    )
    if turn.status != Turn.Status.LOCKED and request.htmx:
        stop = HttpResponseStopPolling(response.content)
        stop["HX-Refresh"] = "true"  # the dashboard reloads to show the result
        return stop
    return response


def stale_turn(request: HttpRequest, campaign: Campaign, current: Turn | None) -> Any:
    """The dashboard's forms name the turn they were shown for (`turn`): another campaign's turn
    is a 404; an earlier turn of this one (the page was stale: a second click, another tab) is
    refused with a message, so an action never lands on a turn the moderator did not see.
    None when the post may go on (no turn named: the current one, as before)."""
    named = request.POST.get("turn", "")
    if not named:
        return None
    shown = (
        Turn.objects.filter(pk=named, campaign=campaign).only("number", "status").first()
        if named.isdigit()
        else None
    )
    if shown is None:
        raise Http404("No such turn in this campaign.")
    if current is not None and shown.pk == current.pk:
        return None
    action = request.resolver_match.kwargs.get("action", "") if request.resolver_match else ""
    if action in ACTIONS and shown.status == transitions.ACTIONS[action][1]:
        # Done already, by a second click or another moderator: say so, and who did it.
        messages.error(request, transitions.refusal(shown, action, shown.status))
    else:
        messages.error(
            request,
            "The turn has changed since this page was shown; nothing was done (stale_turn). "
            "Look at it again and repeat if still wanted.",
        )
    return HttpResponseRedirect(reverse("admin:campaign_dashboard", args=[campaign.pk]))


def _deadline(text: str) -> datetime:
    moment = parse_datetime(text.replace(" ", "T")) if text else None
    if moment is None:
        raise ValueError("Give the new deadline as YYYY-MM-DD HH:MM.")
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, timezone.get_current_timezone())
    return moment
