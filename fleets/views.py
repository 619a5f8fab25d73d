"""The players' order desk: a page per campaign with the faction's fleets, an order form for
each built from what the engine says it can do, and the faction's economy orders.

Function views (django-htmx example style): each fetches through the permission-checked
selectors, binds a form, calls a service, and renders the whole page, or only the changed part
for htmx requests. Every page works without JavaScript: forms post normally, and the result is the
page again.
"""

from __future__ import annotations

import copy
import html
import json
import re
from collections.abc import Iterable
from functools import partial
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST

from campaign.models import Membership
from engine.naval import RawOrder, Refusal, battle_odds
from engine.naval.orders import DEFAULT_STANDING, ECONOMY_ORDER_TYPES
from engine.naval.validation import check_orders
from fleets.final import Marked, final_state, orders_final_mark
from fleets.forms import CardChoices, HireForm, OrderForm
from fleets.map_orders import map_choices
from fleets.models import Faction, LedgerLine, Order
from fleets.names import campaign_names
from fleets.order_addresses import address_state, order_address_replace
from fleets.selectors import Desk, FleetCard, desk_for, fleet_get_for_player, membership_get
from fleets.services import (
    NOT_OPEN,
    api_token_state,
    faction_set_upkeep_priority,
    moderator_order_submit,
    moderator_order_withdraw,
    order_slot,
    order_submit,
    order_withdraw,
    token_issue,
)
from fleets.spending import MAX_ECONOMY_ORDERS, economy_orders, order_cost, repair_cost, spending
from fleets.words import LEDGER_WORDS, Words
from fleets.written import ACCEPTED, LineAnswer, desk_written, written_orders_give

ODDS_SAMPLES = 300
# The economy orders the desk gives (P, U), the upkeep priority (U2), and the withdrawal of an
# economy order (a hire is changed by giving it again in its slot).
ECONOMY_KINDS = frozenset({*ECONOMY_ORDER_TYPES, "priority", "withdraw"})
# A hire's slot as order_slot makes it (the one slot a player names when changing an order).
HIRE_SLOT = re.compile(r"hire:[0-9a-f]{12}")
# The moderator's reason for an order, as the audit log keeps it.
MAX_REASON = 500
# The htmx event a card's answer sends when the faction's orders changed (the map listens).
ORDERS_CHANGED = "naval-orders-changed"
# What a player is told when an order of theirs unmarked their orders final.
UNMARKED = "Your orders are no longer marked final: this changed them. Mark them again when ready."
# The same, said to the moderator on the faction's desk (its player reads it there, R-89).
UNMARKED_FOR_MODERATOR = (
    "Its orders are no longer marked final: this changed them (its desk tells its player)."
)


@login_required
@require_GET
def desk(request: HttpRequest, slug: str) -> HttpResponse:
    membership = _membership(request, slug)
    return render(request, "fleets/desk.html", _context(desk_for(membership)))


@login_required
@require_POST
def fleet_order(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    """Give (or change) one fleet's order; the engine's refusal is shown beside the field."""
    fleet, view, card = _fleet_on_desk(request, slug, key)
    names = _names(view)
    unmarked = False
    form = OrderForm(
        request.POST,
        fleet=card.id,
        legal=card.legal,
        ships=card.ships,
        names=names["all"],
        choices=_card_choices(view, card, names),
    )
    if view.turn is None:
        form.add_error(None, f"There is no turn to give orders for ({NOT_OPEN}).")
    elif not form.is_valid():
        form.add_error(None, "The order was not given: see the fields marked (invalid_order).")
    else:
        order = form.to_order()
        result: Order | Refusal
        if _moderating(view):  # audited, with the reason the moderator gives
            result = moderator_order_submit(
                turn=view.turn,
                faction=fleet.owner,
                order=order,
                user=request.user,
                reason=_reason(request),
                world=view.world,
                words=names["words"],
            )
        else:
            result = order_submit(
                turn=view.turn,
                faction=fleet.owner,
                order=order,
                user=request.user,
                world=view.world,
                fogged=True,
            )
        if isinstance(result, Refusal):
            form.refuse(result)
        else:
            card.order = result.payload  # as recorded (a split's new fleet named: R-61)
            form = None  # a fresh form, showing the order now given
            unmarked = result.final_unmarked
    return _card_response(request, view, card, form, names, unmarked=unmarked)


@login_required
@require_POST
def fleet_withdraw(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    fleet, view, card = _fleet_on_desk(request, slug, key)
    names = _names(view)
    if view.turn is None:
        result: Any = Refusal(0, NOT_OPEN, "There is no turn to give orders for.")
    elif _moderating(view):  # audited, with the reason the moderator gives
        result = moderator_order_withdraw(
            turn=view.turn,
            faction=fleet.owner,
            slot=card.slot,
            user=request.user,
            reason=_reason(request),
            words=names["words"],
        )
    else:
        result = order_withdraw(
            turn=view.turn, faction=fleet.owner, slot=card.slot, user=request.user
        )
    if isinstance(result, Refusal):
        form = _shown_form(view, card, names)
        form.refuse(result)
        return _card_response(request, view, card, form, names)
    card.order = None
    unmarked = isinstance(result, Order) and result.final_unmarked
    return _card_response(request, view, card, None, names, unmarked=unmarked)


@login_required
@require_POST
def economy_order(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    """Hire ships, repair, pay off or buy out a fleet (P, U4): recorded for the economy phase;
    a hire given again in its slot changes it; any of them withdrawn (`withdraw`, its slot);
    the upkeep priority (U2)."""
    if kind not in ECONOMY_KINDS:
        raise Http404("No such kind of order.")
    membership = _membership(request, slug)
    view = desk_for(membership)
    faction = membership.faction
    back = HttpResponseRedirect(_desk_url(view) + "#economy")
    if faction is None or view.turn is None:
        messages.error(request, "Only a faction's player gives its economy orders (not_commander).")
        return back
    moderating = _moderating(view)  # on a faction's desk: each order says why
    if moderating and not _reason(request).strip():
        messages.error(
            request,
            "Say why you give this order: the reason goes to the audit log (reason_required).",
        )
        return back
    order: dict[str, Any] | None = None
    slot: str | None = None
    if kind == "hire":
        form = _hire_form(view, request.POST)
        if form.is_valid():
            data = dict(form.cleaned_data)
            slot = _own_hire_slot(view, data.pop("slot", ""))
            order = {"type": "hire", "faction": faction.key, **data}
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
    elif kind == "withdraw":
        _withdraw_economy(request, view, request.POST.get("slot", ""))
    elif kind == "priority":
        wanted = [k.strip() for k in request.POST.get("priority", "").split(",") if k.strip()]
        refused = faction_set_upkeep_priority(
            faction=faction,
            fleets=wanted,
            turn=view.turn,
            user=request.user,
            reason=_reason(request) if moderating else "",
        )
        if refused is not None:
            messages.error(request, f"{refused.message} ({refused.code})")
        else:
            messages.success(request, "Upkeep priority saved (U2).")
    if order is not None and moderating:
        result: Order | Refusal = moderator_order_submit(
            turn=view.turn,
            faction=faction,
            order=order,
            user=request.user,
            reason=_reason(request),
            slot=slot or order_slot(order),
            world=view.world,
            words=_words(view),
        )
    elif order is not None:
        result = order_submit(
            turn=view.turn,
            faction=faction,
            order=order,
            user=request.user,
            slot=slot or order_slot(order),
            world=view.world,
            fogged=True,
        )
    if order is not None:
        if isinstance(result, Refusal):
            messages.error(request, f"{result.message} ({result.code})")
        else:
            words = _words(view)
            changed = "changed" if slot else "recorded"
            messages.success(request, f"{words.order(order)}: {changed} for the economy phase.")
            if result.final_unmarked:
                messages.info(request, _unmarked(view))
    return back


@login_required
@require_POST
def written_orders(request: HttpRequest, slug: str) -> HttpResponse:
    """A paste of written orders (docs/orders.md), given line by line as the forms give them
    (R-84) and answered line by line beside the box; the page comes back with the orders now
    given (htmx swaps the orders' part, and the map draws its arrows again)."""
    membership = _membership(request, slug)
    view = desk_for(membership)
    _names(view)  # the campaign's names, read once (view.names)
    text = str(request.POST.get("orders", ""))
    answers: list[LineAnswer]
    if view.faction is None:
        answers = [
            LineAnswer(
                0,
                "",
                "refused",
                code="not_commander",
                message="Written orders are a faction's: open its desk to give them.",
            )
        ]
    else:
        answers = written_orders_give(
            turn=view.turn,
            faction=view.faction,
            text=text,
            user=request.user,
            world=view.world,
            names=view.names,
            moderator=_moderating(view),
            reason=_reason(request),
            where="desk",
            fog=view.fog,
        )
    changed = any(a.outcome == ACCEPTED for a in answers)
    if changed:
        view = desk_for(membership)  # the cards and the economy show the orders now given
    context = _context(view)
    context["written_answers"] = answers
    context["written_text"] = text
    context["written_reason"] = _reason(request)
    response = render(request, "fleets/desk.html", context)
    if changed:
        response["HX-Trigger"] = ORDERS_CHANGED
    return response


@login_required
@require_POST
def orders_final(request: HttpRequest, slug: str) -> HttpResponse:
    """ "My orders are final" (R-89): the faction's player marks its orders final for the open
    turn; that may lock the turn (R-90). htmx swaps the panel; without JavaScript the desk
    comes back with the answer as a message. A refusal (turn_closed, not_commander) is said
    in the panel, nothing written."""
    membership = _membership(request, slug)
    view = desk_for(membership)
    answer: Marked | Refusal
    if view.turn is None:
        answer = Refusal(0, NOT_OPEN, "There is no turn to give orders for.")
    elif view.faction is None or _moderating(view):
        answer = Refusal(
            0,
            "not_commander",
            "Only the faction's player marks its orders final (the moderator's Lock ends the "
            "turn).",
        )
    else:
        answer = orders_final_mark(turn=view.turn, faction=view.faction, user=request.user)
        if isinstance(answer, Marked) and answer.locked:
            view = desk_for(membership)  # the turn is locked now: the desk says so
    said = (
        {"outcome": "refused", "words": f"{answer.message} ({answer.code})"}
        if isinstance(answer, Refusal)
        else {"outcome": "accepted", "words": answer.words[:1].upper() + answer.words[1:] + "."}
    )
    if not request.htmx:
        if isinstance(answer, Refusal):
            messages.error(request, said["words"])
        else:
            messages.success(request, said["words"])
        return HttpResponseRedirect(_desk_url(view) + "#final-orders")
    context = {**_final_context(view), "final_answer": said, "desk": view}
    status = 400 if isinstance(answer, Refusal) else 200
    response = render(request, "fleets/desk.html#final-orders", context, status=status)
    if isinstance(answer, Marked) and answer.locked:  # the whole desk is closed now
        response["HX-Refresh"] = "true"
    return response


def _final_context(view: Desk) -> dict[str, Any]:
    """What the desk's final-orders panel reads (1 query)."""
    return {
        "desk": view,
        "campaign": view.campaign,
        "turn": view.turn,
        "faction": view.faction,
        "final": final_state(view.turn, view.faction),
    }


def _unmarked(view: Desk) -> str:
    return UNMARKED_FOR_MODERATOR if _moderating(view) else UNMARKED


def _moderating(view: Desk) -> bool:
    """The moderator's desk (every faction's fleets, or one faction's): its orders say why and
    are audited (R-60)."""
    return view.membership.role == Membership.Role.MODERATOR


def _membership(request: HttpRequest, slug: str) -> Membership:
    """The member's membership; for the moderator opening a faction's desk (`faction`, in the
    query or the post), an unsaved copy seated at that faction, which the desk then shows as the
    faction sees it (its fleets, its economy). An unknown faction is a 404; a player's
    `faction` is not read."""
    membership = membership_get(request.user, slug)
    key = str(request.GET.get("faction") or request.POST.get("faction") or "")
    if membership.role != Membership.Role.MODERATOR or not key:
        return membership
    faction = (
        Faction.objects.filter(campaign=membership.campaign, key=key).first()
        if "\x00" not in key
        else None
    )
    if faction is None:
        raise Http404("No such faction.")
    seated = copy.copy(membership)
    seated.faction = faction
    return seated


def _desk_url(view: Desk) -> str:
    """The desk the post came from (the moderator's: the faction's desk, if one)."""
    url = reverse("desk", args=[view.campaign.slug])
    if _moderating(view) and view.faction is not None:
        url += "?" + urlencode({"faction": view.faction.key})
    return url


def _reason(request: HttpRequest) -> str:
    return str(request.POST.get("reason", ""))[:MAX_REASON]


def _own_hire_slot(view: Desk, slot: str) -> str | None:
    """The hire slot a change names, if it holds this faction's hire now; else None (a new
    hire). Another faction's slot is never written into (R-41), and answers as an empty one."""
    if not slot or not HIRE_SLOT.fullmatch(slot) or view.turn is None or view.faction is None:
        return None
    return slot if slot in economy_orders(view.turn, view.faction) else None


def _withdraw_economy(request: HttpRequest, view: Desk, slot: str) -> None:
    """Withdraw one of the faction's economy orders; another faction's slot, or an empty one,
    answers the same (R-45)."""
    assert view.turn is not None
    assert view.faction is not None
    if _moderating(view):  # audited, with the reason
        result = moderator_order_withdraw(
            turn=view.turn,
            faction=view.faction,
            slot=slot,
            user=request.user,
            reason=_reason(request),
            words=_words(view),
        )
    else:
        result = order_withdraw(turn=view.turn, faction=view.faction, slot=slot, user=request.user)
    if isinstance(result, Refusal):
        messages.error(request, f"{result.message} ({result.code})")
    elif result is None:
        messages.info(request, "There was no economy order of yours to withdraw there.")
    else:
        messages.success(request, "Economy order withdrawn.")
        if result.final_unmarked:
            messages.info(request, _unmarked(view))


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


@login_required
@require_POST
def order_address(request: HttpRequest, slug: str) -> HttpResponse:
    """A new order address for the player (R-93): the old one finds nothing from now on."""
    membership = membership_get(request.user, slug)
    if membership.pk is None or membership.faction_id is None:
        raise Http404("Only a faction's player has an order address.")
    order_address_replace(membership=membership)
    messages.success(request, "Your new order address is below: the old one no longer works.")
    return HttpResponseRedirect(reverse("desk", args=[slug]) + "#order-address")


def _fleet_on_desk(request: HttpRequest, slug: str, key: str) -> tuple[Any, Desk, FleetCard]:
    """The player's fleet (404 unless theirs to order), their desk, and the fleet's card on it."""
    membership = _membership(request, slug)
    fleet = fleet_get_for_player(membership, key)
    view = desk_for(membership)
    card = next((c for c in view.cards if c.id == fleet.key), None)
    if card is None:  # the moderator on a faction's desk, naming another faction's fleet
        raise Http404("No such fleet.")
    return fleet, view, card


def _card_response(
    request: HttpRequest,
    view: Desk,
    card: FleetCard,
    form: OrderForm | None,
    names: dict[str, Any],
    *,
    unmarked: bool = False,
) -> HttpResponse:
    """The card after an order: `unmarked`, the order unmarked the faction's final orders
    (R-89), said on the card and, for htmx, in the final-orders panel swapped out of band."""
    if unmarked and not request.htmx:
        messages.info(request, _unmarked(view))
    if request.htmx:  # only this card: the other cards' odds and the page are not computed
        context = {
            "desk": view,
            "campaign": view.campaign,
            "turn": view.turn,
            "faction": view.faction,
            "names": names,
            "card": _card_context(view, card, form, names),
        }
        context["card"]["reason"] = _reason(request) if form is not None else ""
        context["card"]["unmarked"] = unmarked
        response = render(request, "fleets/desk.html#fleet-card", context)
        if unmarked:  # the panel elsewhere on the page says it too (htmx's out-of-band swap)
            panel = {**_final_context(view), "oob": True}
            response.write(render_to_string("fleets/desk.html#final-orders", panel, request))
        if form is None:  # an order given or withdrawn: the desk's map draws its arrows again
            response["HX-Trigger"] = ORDERS_CHANGED
        return response
    if form is None or not form.errors:
        return HttpResponseRedirect(_desk_url(view) + f"#{card.id}")
    # Without JavaScript, a refused order shows the whole page with the error by its field.
    context = _context(view, names)
    context["card"] = _card_context(view, card, form, names)
    context["card"]["reason"] = _reason(request)  # kept for the moderator to send again
    context["cards"] = [context["card"] if c["card"].id == card.id else c for c in context["cards"]]
    return render(request, "fleets/desk.html", context)


def _context(view: Desk, names: dict[str, Any] | None = None) -> dict[str, Any]:
    names = names or _names(view)
    words: Words = names["words"]
    if view.kept is not None:  # every card's fields and the hire form's, in one round trip
        hire = [("hire-fields", view.faction.key)] if view.faction is not None else []
        view.kept.prefetch([*(_fields_key(card, _hint(view)) for card in view.cards), *hire])
    return {
        "desk": view,
        "campaign": view.campaign,
        "turn": view.turn,
        "faction": view.faction,
        "names": names,
        "cards": [_card_context(view, card, None, names) for card in view.cards],
        "map_choices": map_choices(view, names["all"], moderating=_moderating(view)),
        "strangers": _rows(
            (f["id"], words.faction(f["owner"]), words.place(f["at"]), len(f["ships"]))
            for f in view.visible
            if view.faction is None or f["owner"] != view.faction.key
        ),
        **_economy_context(view, words),
        "ports": [
            p
            for p in view.world.map.ports.values()
            if view.faction is not None and p.owner == view.faction.key
        ],
        "blockaded": {f.blockading for f in view.world.fleets.values() if f.blockading},
        "relations": _items(
            f"{_e(names['factions'].get(key, key))}: "
            f"{_e(view.world.relations.between(view.faction.key, key).value)}"
            for key in sorted(view.world.factions)
            if view.faction is not None and key != view.faction.key
        ),
        "ledger": [
            {"kind": LEDGER_WORDS.get(line.kind, line.kind), "amount": line.amount}
            for line in _last_ledger(view)
        ],
        **_member_keys(view),
        "written": _written(view),
        "final": view.final,  # read with the turn (selectors.desk_for)
    }


def _member_keys(view: Desk) -> dict[str, Any]:
    """The member's API key and order address (R-47, R-93) as the desk shows them, in one
    query. The desk only shows an address: it is made by a turn e-mail or the player's
    button, not by a page's GET. The moderator and a superuser looking in have none."""
    membership = view.membership
    if membership.pk is None:
        return {"api_key": None, "order_address": None, "can_mail": False}
    member = Membership.objects.select_related(
        "api_token", "order_address", "user", "campaign"
    ).get(pk=membership.pk)
    token = member.api_token if hasattr(member, "api_token") else None
    address = member.order_address if hasattr(member, "order_address") else None
    return {
        "api_key": api_token_state(token),
        "order_address": address_state(address, member) if address is not None else None,
        "can_mail": member.faction_id is not None,
    }


def _written(view: Desk) -> str:
    """The faction's orders that count, as written orders (docs/orders.md), to copy."""
    if view.names is None:
        return ""
    return desk_written(view, moderator=_moderating(view))


def _economy_context(view: Desk, words: Words) -> dict[str, Any]:
    """The faction's economy orders this turn, each with its cost and slot (to withdraw it, or
    to change a hire), and what it can spend: 1 query."""
    if view.faction is None or view.turn is None:
        return {"economy": [], "spending": None, "hire_form": None}
    given = view.economy if view.economy is not None else economy_orders(view.turn, view.faction)
    economy = []
    for n, (slot, order) in enumerate(given.items()):
        item = {
            "slot": slot,
            "summary": words.order(order),
            "cost": order_cost(view.world, order),
        }
        if order.get("type") == "hire":  # a hire is changed in its slot
            initial = {**order, "slot": slot}
            item["form"] = _hire_form(view, initial=initial, auto_id=f"change{n}_%s")
        economy.append(item)
    return {
        "economy": economy,
        "spending": spending(view.world, view.faction, given),
        "most_economy_orders": MAX_ECONOMY_ORDERS,
        "hire_form": _new_hire_fields(view),
    }


def _new_hire_fields(view: Desk) -> str:
    """The empty hire form's fields (P1: the faction's own and allied ports, the ship types and
    their prices): the same until the world changes, so written once per version and faction
    in all the workers (issue 20)."""
    assert view.faction is not None

    def written() -> str:
        return str(_hire_form(view).as_p())

    if view.kept is None:
        return mark_safe(written())  # the form escaped every part
    return mark_safe(view.kept.shared(("hire-fields", view.faction.key), written))  # escaped


def _shown_form(view: Desk, card: FleetCard, names: dict[str, Any]) -> OrderForm:
    """The card's form, filled with the order that counts now."""
    return OrderForm(
        initial=OrderForm.initial_from(card.order),
        fleet=card.id,
        legal=card.legal,
        ships=card.ships,
        names=names["all"],
        choices=_card_choices(view, card, names),
    )


def _card_choices(view: Desk, card: FleetCard, names: dict[str, Any]) -> CardChoices:
    """The card's options, made once per version of the world: they are the fleet's legal
    orders (kept with the world) and the campaign's names (kept with it too) written out."""
    made = partial(OrderForm.choices_for, card.legal, card.ships, names["all"])
    return view.kept.computed(("card-choices", card.id), made) if view.kept else made()


def _card_context(
    view: Desk, card: FleetCard, form: OrderForm | None, names: dict[str, Any]
) -> dict[str, Any]:
    words: Words = names["words"]
    types = view.world.ship_types
    commander = card.ships[0]["owner"] if card.ships else None
    hint = _hint(view)
    return {
        "card": card,
        "form": form,
        # The form's errors not beside a field; a form filled with the order that counts has
        # none (an unbound form's are an empty list).
        "errors": form.non_field_errors() if form is not None else "",
        # The form's fields as the card writes them (fleets.forms.OrderForm.desk_fields).
        "fields": (
            form.desk_fields(can_split=card.legal.can_split, hint=hint)
            if form is not None
            else _shown_fields(view, card, names, hint)
        ),
        "odds": _odds(view, card),
        "summary": words.order(card.order) if card.order else None,
        "at": words.place(card.at),
        "ships": _items(
            f"{_e(s['id'])} ({_e(words.ship_type(s['type']))}) health {_e(s['health'])} of "
            f"{_e(types[s['type']].health)}"
            + (f", {_e(words.faction(s['owner']))}'s" if s["owner"] != commander else "")
            for s in card.ships
        ),
        "damaged": any(s["health"] < types[s["type"]].health for s in card.ships),
        "repair_cost": repair_cost(view.world, card.id),
    }


def _shown_fields(view: Desk, card: FleetCard, names: dict[str, Any], hint: str | None) -> str:
    """The card's fields filled with the order that counts now (`_shown_form`), as the card
    writes them. What they show is the fleet's legal orders and the names (this version of the
    world's), the order and the new fleet's hint: written once per version in all the workers
    (issue 20: under load a desk is nearly always its faction's first in the worker, and the
    order post that showed the card has written the same fields)."""

    def written() -> str:
        form = _shown_form(view, card, names)
        return str(form.desk_fields(can_split=card.legal.can_split, hint=hint))

    if view.kept is None:
        return mark_safe(written())  # desk_fields escaped every part
    return mark_safe(view.kept.shared(_fields_key(card, hint), written))  # escaped by desk_fields


def _hint(view: Desk) -> str | None:
    """The faction key a new fleet's name starts with, said on a player's desk (R-61)."""
    return view.faction.key if view.faction is not None and not _moderating(view) else None


def _fields_key(card: FleetCard, hint: str | None) -> tuple[Any, ...]:
    """What a card's shown fields are written from, beside the world's version."""
    order = json.dumps(OrderForm.initial_from(card.order), sort_keys=True)
    return ("card-fields", card.id, order, card.legal.can_split, hint)


# The desk's long lists (a card's ships, the faction's relations, the fleets it sees: some 200
# rows on the load bench's campaign) written here rather than by the template's loops, which
# cost a tenth of a desk (issue 20); the same text as the template wrote.


def _e(value: Any) -> str:
    """As the template writes a value: safe text as it is, anything else escaped
    (`conditional_escape`, without its lazy wrapper); a number as its digits (no thousands'
    separator is set, so the template's localized number is the same)."""
    if hasattr(value, "__html__"):
        return str(value.__html__())
    return html.escape(str(value))


def _items(texts: Iterable[str]) -> str:
    """Each (escaped) text as a list item."""
    return mark_safe("".join(f"<li>{text}</li>" for text in texts))  # every part escaped


def _rows(rows: Iterable[tuple[Any, ...]]) -> str:
    """Each row of values a table row, a cell each."""
    cells = ("".join(f"<td>{_e(value)}</td>" for value in row) for row in rows)
    return mark_safe("".join(f"<tr>{row}</tr>" for row in cells))  # every part escaped


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

    def simulated() -> dict[str, Any]:
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

    if view.kept is None:
        return simulated()
    # Seeded, so the same for the same world, order and enemies: worked out once per version
    # of the world in all the workers (issue 20: 300 battles, a sixth of a desk with orders on
    # the load bench, and the order post that showed the card had just worked them out).
    key = ("odds", card.id, json.dumps(order, sort_keys=True), tuple(f.id for f in enemies))
    return view.kept.shared((*key, ODDS_SAMPLES), simulated)


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


def _hire_form(
    view: Desk, data: Any = None, *, initial: dict[str, Any] | None = None, auto_id: str = "id_%s"
) -> HireForm:
    """The hire form: ports (own and allied, P1) and ship types by name, each type's price."""
    key = view.faction.key if view.faction else None
    words = _words(view)
    ports = [
        (p.id, words.place(p.id))
        for p in sorted(view.world.map.ports.values(), key=lambda p: words.place(p.id))
        if key is not None and view.world.relations.friendly(key, p.owner)
    ]
    types = [
        (t.id, f"{words.ship_type(t.id)}: {t.cost} a ship (attack {t.attack}, health {t.health})")
        for t in view.world.ship_types.values()
    ]
    return HireForm(data, initial=initial, ports=ports, ship_types=types, auto_id=auto_id)


def _names(view: Desk) -> dict[str, Any]:
    """Display names for the templates (campaign_names: 3 queries, once per request)."""
    if view.names is None:
        view.names = campaign_names(view.campaign.pk)
    names = view.names
    return {
        "provinces": names.provinces,
        "ports": names.ports,
        "factions": names.factions,
        "all": {**names.provinces, **names.ports, **names.factions},
        "words": Words.from_names(names, view.world.ship_types),
    }


def _words(view: Desk) -> Words:
    words: Words = _names(view)["words"]
    return words
