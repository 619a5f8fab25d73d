"""The players' order desk: a page per campaign with the faction's fleets, an order form for
each built from what the engine says it can do, and the faction's economy orders.

Function views (django-htmx example style): each fetches through the permission-checked
selectors, binds a form, calls a service, and renders the whole page, or only the changed part
for htmx requests. Every page works without JavaScript: forms post normally, and the result is the
page again.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from engine.naval import RawOrder, Refusal, battle_odds
from engine.naval.orders import DEFAULT_STANDING, ECONOMY_ORDER_TYPES
from engine.naval.validation import check_orders
from fleets.forms import HireForm, OrderForm
from fleets.models import LedgerLine
from fleets.names import campaign_names
from fleets.selectors import Desk, FleetCard, desk_for, fleet_get_for_player, membership_get
from fleets.services import (
    NOT_OPEN,
    faction_set_upkeep_priority,
    order_slot,
    order_submit,
    order_withdraw,
    token_issue,
)

ODDS_SAMPLES = 300
# The economy orders the desk gives (P, U), and the upkeep priority (U2).
ECONOMY_KINDS = frozenset({*ECONOMY_ORDER_TYPES, "priority"})


@login_required
@require_GET
def desk(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_get(request.user, slug)
    return render(request, "fleets/desk.html", _context(desk_for(membership)))


@login_required
@require_POST
def fleet_order(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    """Give (or change) one fleet's order; the engine's refusal is shown beside the field."""
    fleet, view, card = _fleet_on_desk(request, slug, key)
    names = _names(view)
    form = OrderForm(
        request.POST, fleet=card.id, legal=card.legal, ships=card.ships, names=names["all"]
    )
    if view.turn is None:
        form.add_error(None, f"There is no turn to give orders for ({NOT_OPEN}).")
    elif not form.is_valid():
        form.add_error(None, "The order was not given: see the fields marked (invalid_order).")
    else:
        order = form.to_order()
        result = order_submit(
            turn=view.turn, faction=fleet.owner, order=order, user=request.user, world=view.world
        )
        if isinstance(result, Refusal):
            form.refuse(result)
        else:
            card.order = order
            form = None  # a fresh form, showing the order now given
    return _card_response(request, view, card, form, names)


@login_required
@require_POST
def fleet_withdraw(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    fleet, view, card = _fleet_on_desk(request, slug, key)
    if view.turn is None:
        result: Any = Refusal(0, NOT_OPEN, "There is no turn to give orders for.")
    else:
        result = order_withdraw(
            turn=view.turn, faction=fleet.owner, slot=card.slot, user=request.user
        )
    names = _names(view)
    if isinstance(result, Refusal):
        form = _shown_form(card, names)
        form.refuse(result)
        return _card_response(request, view, card, form, names)
    card.order = None
    return _card_response(request, view, card, None, names)


@login_required
@require_POST
def economy_order(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    """Hire ships, repair or pay off a fleet (P, U4): recorded for the economy phase."""
    if kind not in ECONOMY_KINDS:
        raise Http404("No such kind of order.")
    membership = membership_get(request.user, slug)
    view = desk_for(membership)
    faction = membership.faction
    if faction is None or view.turn is None:
        messages.error(request, "Only a faction's player gives its economy orders (not_commander).")
        return HttpResponseRedirect(reverse("desk", args=[slug]))
    if kind not in ECONOMY_KINDS:
        raise Http404("No such kind of order.")
    order: dict[str, Any] | None = None
    if kind == "hire":
        form = _hire_form(view, request.POST)
        if form.is_valid():
            order = {"type": "hire", "faction": faction.key, **form.cleaned_data}
        else:
            messages.error(request, "Choose a port, a ship type and how many (invalid_order).")
    elif kind in ("repair", "disband"):
        fleet = fleet_get_for_player(membership, request.POST.get("fleet", ""))
        order = {"type": kind, "fleet": fleet.key}
    elif kind == "buyout":
        fleet = fleet_get_for_player(membership, request.POST.get("fleet", ""))
        order = {
            "type": "buyout",
            "faction": faction.key,
            "fleet": fleet.key,
            "adrift_fleet": request.POST.get("adrift_fleet", ""),
        }
    elif kind == "priority":
        wanted = [k.strip() for k in request.POST.get("priority", "").split(",") if k.strip()]
        refused = faction_set_upkeep_priority(faction=faction, fleets=wanted, user=request.user)
        if refused is not None:
            messages.error(request, f"{refused.message} ({refused.code})")
        else:
            messages.success(request, "Upkeep priority saved (U2).")
    if order is not None:
        result = order_submit(
            turn=view.turn,
            faction=faction,
            order=order,
            user=request.user,
            slot=order_slot(order),
            world=view.world,
        )
        if isinstance(result, Refusal):
            messages.error(request, f"{result.message} ({result.code})")
        else:
            messages.success(request, "Order recorded for the economy phase.")
    return HttpResponseRedirect(reverse("desk", args=[slug]) + "#economy")


@login_required
@require_POST
def api_key(request: HttpRequest, slug: str) -> HttpResponse:
    """A new API key for this membership, shown once (an older key stops working)."""
    membership = membership_get(request.user, slug)
    if membership.pk is None:  # a superuser looking in, not a member: no key to give
        raise Http404("Only a member of the campaign has an API key.")
    key = token_issue(membership=membership)
    base = request.build_absolute_uri("/api/")
    return render(
        request,
        "fleets/api_key.html",
        {
            "campaign": membership.campaign,
            "key": key,
            "base": base,
        },
    )


def _fleet_on_desk(request: HttpRequest, slug: str, key: str) -> tuple[Any, Desk, FleetCard]:
    """The player's fleet (404 unless theirs to order), their desk, and the fleet's card on it."""
    membership = membership_get(request.user, slug)
    fleet = fleet_get_for_player(membership, key)
    view = desk_for(membership)
    return fleet, view, next(c for c in view.cards if c.id == fleet.key)


def _card_response(
    request: HttpRequest, view: Desk, card: FleetCard, form: OrderForm | None, names: dict[str, Any]
) -> HttpResponse:
    if request.htmx:  # only this card: the other cards' odds and the page are not computed
        context = {
            "desk": view,
            "campaign": view.campaign,
            "turn": view.turn,
            "faction": view.faction,
            "names": names,
            "card": _card_context(view, card, form, names),
        }
        return render(request, "fleets/desk.html#fleet-card", context)
    if form is None or not form.errors:
        return HttpResponseRedirect(reverse("desk", args=[view.campaign.slug]) + f"#{card.id}")
    # Without JavaScript, a refused order shows the whole page with the error by its field.
    context = _context(view, names)
    context["card"] = _card_context(view, card, form, names)
    context["cards"] = [context["card"] if c["card"].id == card.id else c for c in context["cards"]]
    return render(request, "fleets/desk.html", context)


def _context(view: Desk, names: dict[str, Any] | None = None) -> dict[str, Any]:
    names = names or _names(view)
    return {
        "desk": view,
        "campaign": view.campaign,
        "turn": view.turn,
        "faction": view.faction,
        "names": names,
        "cards": [_card_context(view, card, None, names) for card in view.cards],
        "hire_form": _hire_form(view) if view.faction is not None else None,
        "strangers": [
            f for f in view.visible if view.faction is None or f["owner"] != view.faction.key
        ],
        "economy": [o for o in view.orders if o["type"] in ECONOMY_ORDER_TYPES],
        "ports": [
            p
            for p in view.world.map.ports.values()
            if view.faction is not None and p.owner == view.faction.key
        ],
        "blockaded": {f.blockading for f in view.world.fleets.values() if f.blockading},
        "relations": [
            (key, view.world.relations.between(view.faction.key, key).value)
            for key in sorted(view.world.factions)
            if view.faction is not None and key != view.faction.key
        ],
        "ledger": _last_ledger(view),
    }


def _shown_form(card: FleetCard, names: dict[str, Any]) -> OrderForm:
    """The card's form, filled with the order that counts now."""
    return OrderForm(
        initial=OrderForm.initial_from(card.order),
        fleet=card.id,
        legal=card.legal,
        ships=card.ships,
        names=names["all"],
    )


def _card_context(
    view: Desk, card: FleetCard, form: OrderForm | None, names: dict[str, Any]
) -> dict[str, Any]:
    if form is None:
        form = _shown_form(card, names)
    return {
        "card": card,
        "form": form,
        "odds": _odds(view, card),
        "damaged": any(s["health"] < view.world.ship_types[s["type"]].health for s in card.ships),
    }


def _odds(view: Desk, card: FleetCard) -> dict[str, Any] | None:
    """Battle odds beside an order that will likely meet an enemy: the fleet against the hostile
    fleets it can see where it is going (the engine's battle simulated, seeded)."""
    order = card.order
    if not order or order.get("type") != "move" or not order.get("path"):
        return None
    world = view.world
    mine = world.fleets[card.id]
    there = order["path"][-1]
    enemies = [
        f
        for f in world.fleets.values()
        if not f.docked
        and f.at == there
        and world.relations.hostile(mine.owner, f.owner)
        and f.id in view.visible_ids
    ]
    if not enemies:
        return None
    checked = check_orders(world, [RawOrder(0, order)]).fleet_orders.get(card.id)
    standing = checked.standing if checked is not None else DEFAULT_STANDING
    # Our fleet attacks (side A, E3) with its own standing orders; theirs are unknown: default.
    odds = battle_odds(
        world.rules, [mine], enemies, standing_a=standing, samples=ODDS_SAMPLES, seed=0
    )
    return {
        "against": [f.id for f in enemies],
        "win": odds.a_wins,
        "lose": odds.b_wins,
        "we_retreat": odds.a_retreats,
        "they_retreat": odds.b_retreats,
        "lost": odds.a_ships_lost,
        "sunk": odds.b_ships_lost,
    }


def _last_ledger(view: Desk) -> list[Any]:
    """The faction's treasury lines of the last published turn (1 query)."""
    if view.faction is None:
        return []
    return list(
        LedgerLine.objects.filter(
            faction=view.faction,
            turn__status="published",
            turn__archived=False,
            turn__number=(view.turn.number - 1) if view.turn else 0,
        ).order_by("id")
    )


def _hire_form(view: Desk, data: Any = None) -> HireForm:
    key = view.faction.key if view.faction else None
    ports = [
        (p.id, p.id)
        for p in view.world.map.ports.values()
        if key is not None and view.world.relations.friendly(key, p.owner)
    ]
    types = [
        (t.id, f"{t.id} (cost {t.cost}, attack {t.attack}, health {t.health})")
        for t in view.world.ship_types.values()
    ]
    return HireForm(data, ports=ports, ship_types=types)


def _names(view: Desk) -> dict[str, Any]:
    """Display names for the templates (campaign_names: 3 queries)."""
    names = campaign_names(view.campaign.pk)
    return {
        "provinces": names.provinces,
        "ports": names.ports,
        "factions": names.factions,
        "all": {**names.provinces, **names.ports, **names.factions},
    }
