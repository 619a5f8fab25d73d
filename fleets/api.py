"""A JSON API for bots and scripts (django-ninja; the OpenAPI schema at /api/openapi.json, its
pages at /api/docs). A key per membership (`Authorization: Bearer KEY`), made on the desk.

The same services and checks as the pages: orders go through `order_submit` (the engine's
validation, the same refusal codes), reads through the permission-checked selectors.
"""

from __future__ import annotations

import functools
from typing import Any, Literal

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import URLPattern
from ninja import NinjaAPI, Path, Schema, Status
from ninja.security import HttpBearer

from campaign.api_errors import ApiRefusals, key_holder
from campaign.models import Membership, Turn
from engine.naval import Refusal, ScenarioError
from engine.naval.refusals import CODES
from fleets.broken_world import CODE as broken_world_code
from fleets.broken_world import broken_world
from fleets.final import Marked, orders_final_mark
from fleets.models import Faction
from fleets.selectors import desk_for, fleet_get_for_player
from fleets.services import (
    NOT_OPEN,
    order_out_of_bounds,
    order_slot,
    order_submit,
    order_withdraw,
    token_membership,
)
from fleets.written import ACCEPTED, REFUSED, UNCHANGED, written_orders_give


class MembershipKey(HttpBearer):
    """A key per membership; bad keys are counted per client address and refused past a limit
    (guessing keys is as slow as guessing passwords: campaign/api_errors.py key_holder)."""

    def authenticate(self, request: HttpRequest, token: str) -> Membership | None:
        holder: Membership | None = key_holder(request, token, token_membership)
        return holder


def _allowed(request: HttpRequest, allow: str) -> str:
    allowed = ", ".join(sorted(m.strip() for m in allow.split(",")))
    return f"{request.method} is not an operation of {request.path}: it takes {allowed}."


# Every answer that is not a success, `{code, message}` (campaign/api_errors.py), in this API's
# words: a body that is not JSON is a 400 like the orders the rules refuse.
REFUSALS = ApiRefusals(
    key_made="made on the order desk",
    unknown_path=lambda request: (
        f"The API has no path {request.path}: its paths are listed at /api/docs."
    ),
    wrong_method=_allowed,
    not_json=(400, "invalid_order"),
    content_type="application/json; charset=utf-8",  # django-ninja's own
)


class AdmiraltyApi(NinjaAPI):
    """django-ninja's API whose every answer is JSON: a path it does not have is a 404
    `not_found` and a method an operation does not take a 405 `method_not_allowed`, each
    `{code, message}` (ninja answers these in Django's HTML or plain text)."""

    def _get_urls(self) -> list[Any]:
        patterns = super()._get_urls()
        text = next(p for p in patterns if getattr(p, "name", None) == "give_written")
        patterns = [
            _with_text(p, text.callback) if getattr(p, "name", None) in ("orders", "give") else p
            for p in patterns
            if p is not text  # served only as the text/plain body of POST .../orders
        ]
        return REFUSALS.patterns(patterns)


def _with_text(pattern: URLPattern, text_view: Any) -> URLPattern:
    """POST /campaigns/{slug}/orders with a `text/plain` body is written orders (docs/orders.md),
    answered by `give_written`; every other request is the operation's as before."""
    view = pattern.callback

    @functools.wraps(view)
    def either(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method == "POST" and request.content_type == "text/plain":
            response: HttpResponse = text_view(request, *args, **kwargs)
            return response
        answer: HttpResponse = view(request, *args, **kwargs)
        return answer

    return URLPattern(pattern.pattern, either, pattern.default_args, pattern.name)


api = AdmiraltyApi(
    title="Admiralty",
    version="1",
    auth=MembershipKey(),
    urls_namespace="api",
    description="Read your faction's state and legal orders, give and withdraw "
    "orders, read published reports.",
)
REFUSALS.register(api)  # 401, 404, 413, 422, 429 and ninja's 400 as refusals


def _world_invalid(request: HttpRequest, error: ScenarioError) -> HttpResponse:
    """A world the engine refuses (fleets/broken_world.py, R-74): 409 `world_invalid`."""
    broken = broken_world(request, error)
    if broken is None:
        raise error
    return REFUSALS.problem(409, broken_world_code, broken.message())


api.add_exception_handler(ScenarioError, _world_invalid)


# An order given or withdrawn when the turn is not open: the platform's code beside the engine's,
# the same on the desk (fleets/services.py).
TURN_CLOSED = NOT_OPEN
# More economy orders than a faction may give in a turn (fleets/spending.py, R-46).
TOO_MANY = "too_many_orders"
# The engine's stable refusal codes, and the API's own.
Code = Literal.__getitem__(tuple(sorted({*CODES, TURN_CLOSED, TOO_MANY})))


class Refused(Schema):
    code: Code  # type: ignore[valid-type]
    message: str


class Problem(Schema):
    """Every other answer that is not a success is a plain refusal with its stable code:
    401 `unauthorized` (no or a wrong key, or a key that stopped working: its user deactivated,
    its membership passed to another user or faction), 404 `not_found` (another campaign,
    another faction's fleet, a turn not published, a path the API does not have),
    405 `method_not_allowed`, 413 `body_too_large`, 422 `invalid_request` (a request that
    does not fit this schema: the message says where), 429 `api_key_throttled`."""

    code: str
    message: str


# What every operation may answer besides its own: documented so that clients (and the schema
# tests) know every status and body.
ERRORS: dict[int, Any] = {
    401: Problem,
    404: Problem,
    405: Problem,
    413: Problem,
    422: Problem,
    429: Problem,
}


def _closed(turn: Turn) -> dict[str, str]:
    return {
        "code": TURN_CLOSED,
        "message": f"Turn {turn.number} is {turn.status}: orders are closed.",
    }


class Given(Schema):
    slot: str
    order: dict[str, Any]
    # This order unmarked the faction's orders final: mark them again when they are.
    final_unmarked: bool = False


class FinalOut(Schema):
    """The faction's orders are final for the turn (R-89); `locked`: that made every faction
    with a player final and the campaign resolves early, so the turn is locked (R-90)."""

    turn: int
    final: Literal[True]
    marked_at: str
    locked: bool
    message: str


class OrderIn(Schema):
    order: dict[str, Any]  # an order as in a scenario file (scenario-format.md)

    model_config = {  # noqa: RUF012 (pydantic's configuration, read once)
        "json_schema_extra": {
            "examples": [
                {"order": {"fleet": "d1", "type": "move", "path": ["kattegat"]}},
                {"order": {"fleet": "d2", "type": "hold", "stance": "evade"}},
                {"order": {"type": "repair", "fleet": "d2"}},
            ]
        }
    }


def _membership(request: HttpRequest, slug: str) -> Membership:
    membership: Membership = request.auth  # type: ignore[attr-defined]
    if membership.campaign.slug != slug:
        raise Http404("No such campaign.")
    return membership


@api.get("/me", response={200: dict[str, Any], 401: Problem}, summary="Who this key belongs to")
def me(request: HttpRequest) -> dict[str, Any]:
    membership: Membership = request.auth  # type: ignore[attr-defined]
    return {
        "campaign": membership.campaign.slug,
        "role": membership.role,
        "faction": membership.faction.key if membership.faction else None,
    }


@api.get(
    "/campaigns/{slug}/state",
    response={200: dict[str, Any], **ERRORS},
    summary="Your faction's state, as you can see it",
)
def state(request: HttpRequest, slug: str) -> dict[str, Any]:
    view = desk_for(_membership(request, slug))
    turn = view.turn
    return {
        "turn": {
            "number": turn.number,
            "status": turn.status,
            "deadline": turn.deadline.isoformat() if turn.deadline else None,
            "final": view.final.final,  # your orders marked final
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


@api.get(
    "/campaigns/{slug}/fleets/{key}/legal",
    response={200: dict[str, Any], **ERRORS},
    summary="What a fleet can do now",
)
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


@api.get(
    "/campaigns/{slug}/orders",
    response={200: list[dict[str, Any]], **ERRORS},
    summary="Your orders that count this turn",
)
def orders(request: HttpRequest, slug: str) -> list[dict[str, Any]]:
    return desk_for(_membership(request, slug)).orders


class WrittenLineOut(Schema):
    """One line of written orders answered: `accepted` (the order given, in words and written
    back), `unchanged` (given already, R-86) or `refused` (its code and message)."""

    line: int
    text: str
    outcome: Literal["accepted", "unchanged", "refused"]
    code: str | None = None
    message: str | None = None
    summary: str | None = None
    written: str | None = None
    order: dict[str, Any] | None = None
    final_unmarked: bool | None = None  # the line's order unmarked your final orders


class WrittenOut(Schema):
    lines: list[WrittenLineOut]
    accepted: int
    unchanged: int
    refused: int


# The orders' path takes written orders as a text/plain body too (docs/orders.md), answered
# line by line with 200; the JSON body is as it was.
WRITTEN_BODY = {
    "requestBody": {
        "content": {
            "text/plain": {
                "schema": {"type": "string", "maxLength": 65536},
                "example": "d1: Kattegat -> Skagerrak; evade\nhire 2 galley at Copenhagen",
            }
        }
    }
}


def _commanding(request: HttpRequest, slug: str) -> tuple[Turn, Faction] | Status[Any]:
    """The open turn and the key's faction, for a post that gives orders; else its 400."""
    membership = _membership(request, slug)
    turn = membership.campaign.current_turn
    faction = membership.faction
    if turn is None or faction is None:
        return Status(
            400, {"code": "not_commander", "message": "Only a faction's player gives orders."}
        )
    if turn.status != Turn.Status.OPEN:
        return Status(400, _closed(turn))
    return turn, faction


@api.post(
    "/campaigns/{slug}/orders",
    response={200: WrittenOut, 201: Given, 400: Refused, **ERRORS},
    summary="Give or change an order (the same checks and refusal codes as the desk)",
    description="A JSON body gives one order (201). A `text/plain` body gives written orders, "
    "one a line (docs/orders.md): each line is given on its own and answered in `lines` (200), "
    "a refused line changing nothing; a paste refused whole (turn closed, no faction) is a 400.",
    openapi_extra=WRITTEN_BODY,
)
def give(request: HttpRequest, slug: str, body: OrderIn) -> Status[Any]:
    commanding = _commanding(request, slug)
    if isinstance(commanding, Status):
        return commanding
    turn, faction = commanding
    bounds = order_out_of_bounds(body.order)
    if bounds is not None:
        return Status(400, {"code": "invalid_order", "message": bounds})
    slot = order_slot(body.order)
    result = order_submit(turn=turn, faction=faction, order=body.order, slot=slot, fogged=True)
    if isinstance(result, Refusal):
        return Status(400, {"code": result.code, "message": result.message})
    return Status(  # as recorded
        201, {"slot": slot, "order": result.payload, "final_unmarked": result.final_unmarked}
    )


@api.post(
    "/campaigns/{slug}/orders/text",
    response={200: WrittenOut, 400: Refused, **ERRORS},
    include_in_schema=False,  # served as POST .../orders with a text/plain body (_with_text)
)
def give_written(request: HttpRequest, slug: str) -> Status[Any]:
    """Written orders from a key, given as the desk's paste box gives them (fleets/written.py)."""
    commanding = _commanding(request, slug)
    if isinstance(commanding, Status):
        return commanding
    turn, faction = commanding
    try:
        text = request.body.decode("utf-8")
    except UnicodeDecodeError:
        return Status(400, {"code": "invalid_order", "message": "The body is not UTF-8 text."})
    answers = written_orders_give(turn=turn, faction=faction, text=text, user=None)
    if len(answers) == 1 and answers[0].number == 0:  # the paste refused whole
        return Status(400, {"code": answers[0].code, "message": answers[0].message})
    outcomes = [a.outcome for a in answers]
    return Status(
        200,
        {
            "lines": [a.as_dict() for a in answers],
            "accepted": outcomes.count(ACCEPTED),
            "unchanged": outcomes.count(UNCHANGED),
            "refused": outcomes.count(REFUSED),
        },
    )


@api.delete(
    "/campaigns/{slug}/orders/{slot}",
    response={204: None, 400: Refused, **ERRORS},
    summary="Withdraw an order (its fleet will hold); a slot with no order of yours: the same",
)
def withdraw(request: HttpRequest, slug: str, slot: str) -> Status[Any] | HttpResponse:
    membership = _membership(request, slug)
    turn = membership.campaign.current_turn
    faction = membership.faction
    if turn is None or faction is None:
        return Status(
            400, {"code": "not_commander", "message": "Only a faction's player withdraws orders."}
        )
    if turn.status != Turn.Status.OPEN:
        return Status(400, _closed(turn))
    if slot.startswith("fleet:"):
        fleet_get_for_player(membership, slot.split(":", 1)[1])
    result = order_withdraw(turn=turn, faction=faction, slot=slot)
    if isinstance(result, Refusal):  # the turn closed meanwhile
        return Status(400, {"code": result.code, "message": result.message})
    if result is not None and result.final_unmarked:  # said in a header (204 has no body)
        response = HttpResponse(status=204)
        response[UNMARKED_HEADER] = "unmarked"
        return response
    return Status(204, None)  # withdrawn, or nothing of yours there (R-45: the same answer)


# The header a withdrawal answers when it unmarked the faction's orders final.
UNMARKED_HEADER = "Admiralty-Orders-Final"


@api.post(
    "/campaigns/{slug}/final",
    response={200: FinalOut, 400: Refused, **ERRORS},
    summary="Mark your orders final for the open turn",
    description="Any order given, changed or withdrawn afterwards unmarks them (the answer "
    "says so: `final_unmarked` on a given order, the `Admiralty-Orders-Final: unmarked` header "
    "on a withdrawal). When the campaign resolves early and every faction with a player is "
    "final, the turn locks (`locked`). Refused `turn_closed` when the turn is not open, "
    "`not_commander` without a faction.",
)
def final(request: HttpRequest, slug: str) -> Status[Any]:
    commanding = _commanding(request, slug)
    if isinstance(commanding, Status):
        return commanding
    turn, faction = commanding
    marked = orders_final_mark(turn=turn, faction=faction)
    if not isinstance(marked, Marked):
        return Status(400, {"code": marked.code, "message": marked.message})
    return Status(
        200,
        {
            "turn": turn.number,
            "final": True,
            "marked_at": marked.marked_at.isoformat(),
            "locked": marked.locked,
            "message": marked.words[:1].upper() + marked.words[1:] + ".",
        },
    )


@api.get(
    "/campaigns/{slug}/turns",
    response={200: list[dict[str, Any]], **ERRORS},
    summary="Published turns",
)
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
    response={200: dict[str, Any], **ERRORS},
    summary="A published turn: your faction's report and the public bulletin, as Markdown",
)
def report(
    request: HttpRequest, slug: str, number: int = Path(..., ge=1, le=2**31 - 1)
) -> dict[str, Any]:
    from fleets.report_views import report_texts

    membership = _membership(request, slug)
    private, bulletin = report_texts(membership, number, "md")
    return {"number": number, "faction_report": private, "bulletin": bulletin}
