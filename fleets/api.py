"""A JSON API for bots and scripts (django-ninja; the OpenAPI schema at /api/openapi.json, its
pages at /api/docs). A key per membership (`Authorization: Bearer KEY`), made on the desk.

The same services and checks as the pages: orders go through `order_submit` (the engine's
validation, the same refusal codes), reads through the permission-checked selectors.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from ninja import NinjaAPI, Schema, Status
from ninja.security import HttpBearer

from campaign.models import Membership, Turn
from engine import Refusal
from fleets.selectors import desk_for, fleet_get_for_player
from fleets.services import (
    NotYourOrder,
    order_slot,
    order_submit,
    order_withdraw,
    token_membership,
)
from throttle.limiter import (
    API_KEY_PER_ADDRESS,
    blocked_until,
    client_address,
    failure_record,
)


class TooManyBadKeys(Exception):
    def __init__(self, until: datetime) -> None:
        super().__init__(until)
        self.until = until


class MembershipKey(HttpBearer):
    """A key per membership; bad keys are counted per client address and refused past a limit
    (guessing keys is as slow as guessing passwords: throttle/limiter.py)."""

    def authenticate(self, request: HttpRequest, token: str) -> Membership | None:
        address = client_address(request)
        until = blocked_until(API_KEY_PER_ADDRESS, address)
        if until is not None:
            raise TooManyBadKeys(until)
        membership = token_membership(token)
        if membership is None:
            failure_record(API_KEY_PER_ADDRESS, address)
        return membership  # type: ignore[no-any-return]


api = NinjaAPI(
    title="Admiralty",
    version="1",
    auth=MembershipKey(),
    urls_namespace="api",
    description="Read your faction's state and legal orders, give and withdraw "
    "orders, read published reports.",
)


@api.exception_handler(TooManyBadKeys)
def too_many_bad_keys(request: HttpRequest, error: TooManyBadKeys) -> HttpResponse:
    wait = max(1, int((error.until - timezone.now()).total_seconds()))
    message = (
        f"Too many bad API keys from this address. Try again after {error.until:%H:%M} UTC "
        f"(in {wait} seconds)."
    )
    response = api.create_response(
        request, {"code": "api_key_throttled", "message": message}, status=429
    )
    response["Retry-After"] = str(wait)
    return response


@api.exception_handler(Http404)
def not_found(request: HttpRequest, error: Http404) -> HttpResponse:
    """Another campaign, another faction's fleet, a turn not published: one plain refusal."""
    message = str(error) or "Not found."
    return api.create_response(request, {"code": "not_found", "message": message}, status=404)


class Refused(Schema):
    code: str
    message: str


class Given(Schema):
    slot: str
    order: dict[str, Any]


class OrderIn(Schema):
    order: dict[str, Any]  # an order as in a scenario file (scenario-format.md)


def _membership(request: HttpRequest, slug: str) -> Membership:
    membership: Membership = request.auth  # type: ignore[attr-defined]
    if membership.campaign.slug != slug:
        raise Http404("No such campaign.")
    return membership


@api.get("/me", summary="Who this key belongs to")
def me(request: HttpRequest) -> dict[str, Any]:
    membership: Membership = request.auth  # type: ignore[attr-defined]
    return {
        "campaign": membership.campaign.slug,
        "role": membership.role,
        "faction": membership.faction.key if membership.faction else None,
    }


@api.get("/campaigns/{slug}/state", summary="Your faction's state, as you can see it")
def state(request: HttpRequest, slug: str) -> dict[str, Any]:
    view = desk_for(_membership(request, slug))
    turn = view.turn
    return {
        "turn": {
            "number": turn.number,
            "status": turn.status,
            "deadline": turn.deadline.isoformat() if turn.deadline else None,
        }
        if turn
        else None,
        "faction": {
            "id": view.faction.key,
            "treasury": view.faction.treasury,
            "income": view.faction.income,
        }
        if view.faction
        else None,
        "fleets": [
            {"id": c.id, "at": c.at, "docked": c.docked, "ships": c.ships, "order": c.order}
            for c in view.cards
        ],
        "visible": view.visible,
    }


@api.get("/campaigns/{slug}/fleets/{key}/legal", summary="What a fleet can do now")
def legal(request: HttpRequest, slug: str, key: str) -> dict[str, Any]:
    membership = _membership(request, slug)
    fleet_get_for_player(membership, key)
    card = next(c for c in desk_for(membership).cards if c.id == key)
    options = card.legal
    return {
        "points": options.points,
        "moves": options.moves,
        "enter_port": options.enter_port,
        "blockade": options.blockade,
        "support": options.support,
        "merge_into": options.merge_into,
        "can_split": options.can_split,
        "repair": options.repair,
        "buyout": options.buyout,
    }


@api.get("/campaigns/{slug}/orders", summary="Your orders that count this turn")
def orders(request: HttpRequest, slug: str) -> list[dict[str, Any]]:
    return desk_for(_membership(request, slug)).orders


@api.post(
    "/campaigns/{slug}/orders",
    response={201: Given, 400: Refused},
    summary="Give or change an order (the same checks and refusal codes as the desk)",
)
def give(request: HttpRequest, slug: str, body: OrderIn) -> Status[Any]:
    membership = _membership(request, slug)
    turn = membership.campaign.current_turn
    faction = membership.faction
    if turn is None or faction is None:
        return Status(
            400, {"code": "not_commander", "message": "Only a faction's player gives orders."}
        )
    slot = order_slot(body.order)
    result = order_submit(turn=turn, faction=faction, order=body.order, slot=slot)
    if isinstance(result, Refusal):
        return Status(400, {"code": result.code, "message": result.message})
    return Status(201, {"slot": slot, "order": body.order})


@api.delete(
    "/campaigns/{slug}/orders/{slot}",
    response={204: None, 400: Refused, 403: Refused},
    summary="Withdraw an order (its fleet will hold)",
)
def withdraw(request: HttpRequest, slug: str, slot: str) -> Status[Any]:
    membership = _membership(request, slug)
    turn = membership.campaign.current_turn
    faction = membership.faction
    if turn is None or faction is None or turn.status != Turn.Status.OPEN:
        return Status(400, {"code": "invalid_order", "message": "Orders are closed."})
    if slot.startswith("fleet:"):
        fleet_get_for_player(membership, slot.split(":", 1)[1])
    try:
        order_withdraw(turn=turn, faction=faction, slot=slot)
    except NotYourOrder as error:
        return Status(403, {"code": error.code, "message": str(error)})
    except ValueError as error:  # the turn locked a moment ago
        return Status(400, {"code": "invalid_order", "message": str(error)})
    return Status(204, None)


@api.get("/campaigns/{slug}/turns", summary="Published turns")
def turns(request: HttpRequest, slug: str) -> list[dict[str, Any]]:
    membership = _membership(request, slug)
    published = Turn.objects.filter(
        campaign=membership.campaign, archived=False, status=Turn.Status.PUBLISHED
    ).order_by("number")
    return [
        {"number": t.number, "published_at": t.published_at.isoformat() if t.published_at else None}
        for t in published
    ]


@api.get(
    "/campaigns/{slug}/turns/{number}/report",
    summary="A published turn: your faction's report and the public bulletin, as Markdown",
)
def report(request: HttpRequest, slug: str, number: int) -> dict[str, Any]:
    from campaign.views import report_texts

    membership = _membership(request, slug)
    private, bulletin = report_texts(membership, number, "md")
    return {"number": number, "faction_report": private, "bulletin": bulletin}
