"""The naval part of the moderator's dashboard (campaign/dashboard.py): which fleets have
orders, the draft result to review, the pirates' suggested orders (U3) and the moderator's own
orders for any faction, and the members' API keys (each one's state, and revoking one). The
views go through the dashboard's permission-checked fetch (`moderated_campaign`) and its
stale-page check; the admin serves them under the campaign's dashboard (the naval ruleset's
`moderator_views`).
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaign import transitions
from campaign.dashboard import moderated_campaign, stale_turn
from campaign.models import Campaign, Turn
from engine.naval import Refusal, ScenarioError, parse_scenario, suggest_pirate_orders
from fleets.broken_world import CODE, refusal_words, world_problems
from fleets.final import final_factions, playing_factions
from fleets.mapping import orders_document, world_document
from fleets.models import Faction, NavalSettings
from fleets.names import campaign_names
from fleets.review import turn_review
from fleets.services import campaign_token_states, order_slot, order_submit, token_revoke
from fleets.words import Words
from fleets.written import REFUSED, written_orders_give


def dashboard_context(turn: Turn) -> dict[str, Any]:
    """What the dashboard shows of a naval turn besides its lifecycle."""
    campaign = turn.campaign
    context: dict[str, Any] = {
        "ordered": sorted({o["fleet"] for o in orders_document(turn) if "fleet" in o}),
        "api_keys": campaign_token_states(campaign),
        **_finality(turn),
    }
    if turn.status in (Turn.Status.RESOLVED, Turn.Status.PUBLISHED) and turn.result:
        context["review"] = turn_review(
            turn.scenario or {}, turn.result, campaign_names(campaign.pk)
        )
    if turn.status == Turn.Status.OPEN:
        try:
            suggestions = pirate_suggestions(campaign)
        except ScenarioError:  # made wrong behind the editor's back: said, not a 500
            context["world_problems"] = world_problems(campaign)
            suggestions = []
        words = Words.of(campaign.pk)  # the suggestions as the moderator reads them
        context["pirate_orders"] = [
            {**order, "summary": words.order(order)} for order in suggestions
        ]
        context["factions"] = campaign.factions.order_by("key")
    return context


def _finality(turn: Turn) -> dict[str, Any]:
    """Who has marked their orders final (R-89), among the factions a player plays, and whether
    the campaign locks the turn when all have (R-90): 3 queries."""
    final, playing = final_factions(turn), playing_factions(turn)
    factions = Faction.objects.filter(campaign_id=turn.campaign_id, id__in=playing).order_by("key")
    early = (
        NavalSettings.objects.filter(campaign_id=turn.campaign_id)
        .values_list("resolve_early", flat=True)
        .first()
    )
    return {
        "final": [f for f in factions if f.pk in final],
        "not_final": [f for f in factions if f.pk not in final],
        "resolve_early": bool(early),
    }


@require_POST
def accept_pirate_orders(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Give the pirates the engine's suggested orders (U3); the moderator may edit them after."""
    campaign = moderated_campaign(request, campaign_id)
    turn = campaign.current_turn
    stale = stale_turn(request, campaign, turn)
    if stale:
        return stale
    pirates = Faction.objects.filter(campaign=campaign, key=Faction.PIRATES).first()
    if turn is None or pirates is None:
        messages.error(request, "This campaign has no pirates to give orders to.")
        return HttpResponseRedirect(reverse("admin:campaign_dashboard", args=[campaign.pk]))
    try:
        suggestions = pirate_suggestions(campaign)
    except ScenarioError:  # nothing given, and why
        problems = world_problems(campaign)
        messages.error(
            request,
            f"No pirate orders given: {refusal_words(len(problems))} the rules cannot read: "
            f"mend them on the world's check ({CODE}).",
        )
        return HttpResponseRedirect(reverse("admin:campaign_dashboard", args=[campaign.pk]))
    given = 0
    for order in suggestions:
        result = order_submit(
            turn=turn, faction=pirates, order=order, user=request.user, slot=order_slot(order)
        )
        given += 0 if isinstance(result, Refusal) else 1
    transitions.audit(turn, user=request.user, action="pirate_orders", given=given)
    messages.success(request, f"{given} pirate order(s) given.")
    return HttpResponseRedirect(reverse("admin:campaign_dashboard", args=[campaign.pk]))


@require_POST
def moderator_order(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The moderator gives or corrects an order for any faction (pirates included), written as
    in a scenario file; it goes through the same checks as a player's."""
    campaign = moderated_campaign(request, campaign_id)
    turn = campaign.current_turn
    stale = stale_turn(request, campaign, turn)
    if stale:
        return stale
    key = request.POST.get("faction", "")
    faction = (  # (no key has a NUL, and PostgreSQL cannot even compare one)
        None if "\x00" in key else Faction.objects.filter(campaign=campaign, key=key).first()
    )
    try:
        order = json.loads(request.POST.get("order", ""))
    except json.JSONDecodeError as error:
        order, problem = None, f"That is not an order in JSON: {error.msg}."
    except (RecursionError, ValueError):  # nested too deep; a number too long
        order, problem = None, "That is not an order this tool reads."
    else:
        problem = None if isinstance(order, dict) else "An order is a JSON object."
    if turn is None or faction is None:
        problem = "Choose a faction."
    if problem is None and isinstance(order, dict):
        result = order_submit(turn=turn, faction=faction, order=order, user=request.user)
        if isinstance(result, Refusal):
            problem = f"Refused ({result.code}): {result.message}"
        else:
            transitions.audit(
                turn,
                user=request.user,
                action="moderator_order",
                reason=request.POST.get("reason", ""),
                faction=faction.key,
                faction_name=faction.name,
                order=order,
                summary=Words.of(campaign.pk).order(order),  # the audit log's words
            )
            messages.success(request, f"Order recorded for {faction.name}.")
    if problem:
        messages.error(request, problem)
    return HttpResponseRedirect(reverse("admin:campaign_dashboard", args=[campaign.pk]))


@require_POST
def moderator_written_orders(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The moderator pastes a faction's written orders (docs/orders.md: a forum message's, an
    e-mail's), given line by line as on the faction's desk (R-84), each checked as the
    faction's own and audited with the reason (R-60); each line answered as a message."""
    campaign = moderated_campaign(request, campaign_id)
    turn = campaign.current_turn
    stale = stale_turn(request, campaign, turn)
    if stale:
        return stale
    back = HttpResponseRedirect(
        reverse("admin:campaign_dashboard", args=[campaign.pk]) + "#written-orders"
    )
    key = request.POST.get("faction", "")
    faction = (  # (no key has a NUL, and PostgreSQL cannot even compare one)
        None if "\x00" in key else Faction.objects.filter(campaign=campaign, key=key).first()
    )
    if faction is None:
        messages.error(request, "Choose a faction.")
        return back
    answers = written_orders_give(
        turn=turn,
        faction=faction,
        text=str(request.POST.get("orders", "")),
        user=request.user,
        moderator=True,
        reason=str(request.POST.get("reason", ""))[:500],
        where="dashboard",
    )
    for answer in answers:
        said = messages.error if answer.outcome == REFUSED else messages.success
        said(request, f"{faction.name}, {answer.words}")
    return back


@require_POST
def revoke_api_key(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Revoke a member's API key (`membership`: its id), with a reason (audited); refused with
    a message, changing nothing, without one or for a membership with no key here."""
    campaign = moderated_campaign(request, campaign_id)
    refusal = token_revoke(
        campaign=campaign,
        membership_id=request.POST.get("membership", ""),
        user=request.user,
        reason=request.POST.get("reason", ""),
    )
    if refusal:
        messages.error(request, refusal)
    else:
        messages.success(request, "The key is revoked: it is refused from now on.")
    return HttpResponseRedirect(reverse("admin:campaign_dashboard", args=[campaign.pk]))


def pirate_suggestions(campaign: Campaign) -> list[dict[str, Any]]:
    return suggest_pirate_orders(parse_scenario(world_document(campaign)).world)
