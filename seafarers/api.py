"""The seafaring API, for players' own bots and scripts (issue 13 "API"; django-ninja, mounted
at /api/games/: the OpenAPI schema at /api/games/openapi.json, its pages at /api/games/docs).

The naval API's conventions (fleets/api.py) in an API of its own, since the two games' apps
share nothing: a key per seat (`Authorization: Bearer KEY`, made at /g/<slug>/api-key/; bad
keys counted and throttled per address as the naval keys are), every answer that is not a
success `{code, message}` with the code in the schema's enum. The same services and checks as
the pages: actions through `action_submit` (the expected index: `game_moved_on`), offers
through seafarers/offers.py, reads through the seat's view of the state (G5: another seat's
hand and cards are counts, the seed is never given).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from django.http import Http404, HttpRequest
from django.urls import URLPattern, URLResolver
from ninja import NinjaAPI, Path, Query, Schema, Status
from ninja.security import HttpBearer
from pydantic import Field

from campaign.api_errors import ApiRefusals, key_holder
from engine.seafarers import legal_actions, parse_scenario
from engine.seafarers.refusals import CODES as ENGINE_CODES
from seafarers import offers as offer_services
from seafarers.keys import seat_key_seat
from seafarers.models import Game, Seat, TradeOffer
from seafarers.positions import seat_view, waiting_for
from seafarers.services import OFFER_REQUIRED, GameRefused, action_submit

MAX_BODY = 16 * 1024  # bytes: an action or an offer is a few hundred
LOG_PAGE = 500  # actions in one answer of the log
# The codes a refusal of this API may carry: the engine's (seafarers-format.md "Result"), the
# services' for a seat's action, the offers', and the API's own. A test holds every code the
# services and offers can raise to this list, so the schema's enum never misses one.
SERVICE_CODES = frozenset(
    {
        "invalid_action",
        "not_your_seat",
        "unknown_player",
        "not_started",
        "game_paused",
        "game_moved_on",
        "moderator_only",
        OFFER_REQUIRED,
        "database_unavailable",  # the database dropped mid-action (seafarers/services.py)
    }
)
API_CODES = frozenset(
    {
        "unauthorized",
        "not_found",
        "method_not_allowed",
        "body_too_large",
        "invalid_request",
        "api_key_throttled",
    }
)
REFUSAL_CODES = tuple(sorted(ENGINE_CODES | SERVICE_CODES | offer_services.CODES))
Code = Literal.__getitem__(REFUSAL_CODES)
ProblemCode = Literal.__getitem__(tuple(sorted(API_CODES)))


class SeatKeyAuth(HttpBearer):
    """A key per seat; bad keys are counted per client address and refused past the limit
    (campaign/api_errors.py key_holder), so guessing keys is as slow as guessing passwords."""

    def authenticate(self, request: HttpRequest, token: str) -> Seat | None:
        return key_holder(request, token, seat_key_seat)


# Every answer that is not a success, `{code, message}` (campaign/api_errors.py), in this API's
# words: a body that is not JSON is a 422 (a 400 is the rules'), a body is at most MAX_BODY.
REFUSALS = ApiRefusals(
    key_made="made at /g/<game>/api-key/",
    unknown_path=lambda request: "There is no such path in the API (see /api/games/docs).",
    wrong_method=lambda request, allowed: f"This path answers {allowed} only.",
    not_json=(422, "invalid_request"),
    http_code="invalid_request",
    max_body=MAX_BODY,
)

api = NinjaAPI(
    title="Admiralty: seafaring games",
    version="1",
    auth=SeatKeyAuth(),
    urls_namespace="seafaring_api",
    description="Play a seat of a seafaring game: the game as your seat sees it, the legal "
    "actions, send actions, the log, domestic trade offers.",
)
REFUSALS.register(api)  # 401, 404, 413, 422, 429 and ninja's 400 as refusals


class Refused(Schema):
    """A request the rules or the services refuse (400): the code says which check failed —
    the engine's codes (seafarers-format.md), `game_moved_on` (the expected index is not the
    log's length: read the state again), `offer_required` (a domestic trade is an offer the other
    accepts, X24), the offers' codes."""

    code: Code  # type: ignore[valid-type]
    message: str


class Problem(Schema):
    """Every other answer that is not a success: 401 `unauthorized` (no key, a wrong key, or a
    key of a player who no longer holds the seat), 404 `not_found` (another game, an offer that
    is not yours, an unknown path), 405 `method_not_allowed`, 413 `body_too_large`, 422
    `invalid_request` (a request that does not fit the schema: the message says where), 429
    `api_key_throttled`."""

    code: ProblemCode  # type: ignore[valid-type]
    message: str


ERRORS: dict[int, Any] = {401: Problem, 404: Problem, 413: Problem, 422: Problem, 429: Problem}


class ActionIn(Schema):
    action: dict[str, Any]  # an action as in seafarers-format.md "Actions"
    expected_index: int = Field(ge=0, le=2**31 - 1)  # the log's length you saw (state, legal)

    model_config = {  # noqa: RUF012 (pydantic's configuration, read once)
        "json_schema_extra": {
            "examples": [
                {"action": {"type": "roll", "player": "red"}, "expected_index": 12},
                {
                    "action": {"type": "build_road", "player": "red", "edge": "0,0,E"},
                    "expected_index": 13,
                },
            ]
        }
    }


class OfferIn(Schema):
    to: str = Field(max_length=40)  # the engine's player id of the other side
    give: dict[str, int]  # what you give: resource → count
    get: dict[str, int]  # what you get

    model_config = {  # noqa: RUF012
        "json_schema_extra": {"examples": [{"to": "blue", "give": {"ore": 1}, "get": {"wool": 2}}]}
    }


class Offer(Schema):
    id: int
    sender: str = Field(alias="from")
    to: str
    give: dict[str, int]
    get: dict[str, int]
    status: Literal["open", "accepted", "declined", "withdrawn", "void"]
    turn: int
    made_at_index: int
    action_index: int | None
    created_at: str
    closed_at: str | None

    model_config = {"populate_by_name": True}  # noqa: RUF012


class Offers(Schema):
    for_me: list[Offer]
    mine: list[Offer]
    closed: list[Offer]


# -- helpers ----------------------------------------------------------------------------------
def _seat(request: HttpRequest, slug: str) -> tuple[Game, Seat]:
    seat: Seat = request.auth  # type: ignore[attr-defined]
    if seat.game.campaign.slug != slug:
        raise Http404("No such game.")
    game = Game.objects.select_related("campaign").get(pk=seat.game_id)
    return game, seat


def _refused(refusal: GameRefused) -> Status[Any]:
    return Status(400, {"code": refusal.code, "message": refusal.message})


def _offer_out(offer: TradeOffer) -> dict[str, Any]:
    return offer_services.offer_document(offer)


def event_seen(event: dict[str, Any], viewer: str) -> dict[str, Any]:
    """G5: an event as `viewer` may read it — the stolen card only for the thief and the victim,
    a bought card only for its buyer (the others read that there was one)."""
    if event.get("type") == "stolen" and viewer not in (event.get("by"), event.get("from")):
        return {k: v for k, v in event.items() if k != "card"}
    if event.get("type") == "dev_card_bought" and event.get("player") != viewer:
        return {k: v for k, v in event.items() if k != "card"}
    return event


# -- the game -----------------------------------------------------------------------------------
@api.get("/me", response={200: dict[str, Any], **ERRORS}, summary="The seat this key plays")
def me(request: HttpRequest) -> dict[str, Any]:
    seat: Seat = request.auth  # type: ignore[attr-defined]
    return {"game": seat.game.campaign.slug, "player": seat.player, "seat": seat.order}


@api.get(
    "/{slug}/state",
    response={200: dict[str, Any], **ERRORS},
    summary="The game as your seat sees it (others' hands and cards as counts)",
)
def state(request: HttpRequest, slug: str) -> dict[str, Any]:
    game, seat = _seat(request, slug)
    position = parse_scenario(game.state).state if game.status != Game.Status.NEW else None
    return {
        "status": game.status,
        "log_length": game.log_length,  # the `expected_index` of your next action
        "you": seat.player,
        "waiting_for": waiting_for(position) if position is not None else [],
        # The seat's view (G5), whoever holds the key: even a user who also moderates the game
        # reads here only what the seat may see (game_state_for would give them the whole).
        "state": seat_view(game.state, seat.player),
    }


@api.get(
    "/{slug}/legal",
    response={200: dict[str, Any], **ERRORS},
    summary="The actions you may send now (domestic trades are offers: /offers)",
)
def legal(request: HttpRequest, slug: str) -> dict[str, Any]:
    game, seat = _seat(request, slug)
    actions: list[dict[str, Any]] = []
    if game.status in (Game.Status.SETUP, Game.Status.PLAYING):
        # The current position read from the stored document: listing needs no dice (X22).
        position = parse_scenario(game.state).state
        if seat.player in waiting_for(position):
            actions = legal_actions(position, seat.player)
    return {"log_length": game.log_length, "player": seat.player, "actions": actions}


@api.post(
    "/{slug}/actions",
    response={201: dict[str, Any], 400: Refused, **ERRORS},
    summary="Send an action (the same checks and codes as the desk; a stale expected_index "
    "is game_moved_on)",
)
def act(request: HttpRequest, slug: str, body: ActionIn) -> Status[Any]:
    game, seat = _seat(request, slug)
    try:
        row = action_submit(
            game=game, user=seat.user, action=body.action, expected_index=body.expected_index
        )
    except GameRefused as refusal:
        return _refused(refusal)
    return Status(
        201,
        {
            "index": row.index,
            "log_length": row.index + 1,
            "events": [event_seen(e, seat.player) for e in row.events],
        },
    )


@api.get(
    "/{slug}/log",
    response={200: dict[str, Any], **ERRORS},
    summary="The log from an index on, with private details only for those concerned (G5)",
)
def log(
    request: HttpRequest,
    slug: str,
    since: int = Query(0, ge=0, le=2**31 - 1),
    limit: int = Query(LOG_PAGE, ge=1, le=LOG_PAGE),
) -> dict[str, Any]:
    game, seat = _seat(request, slug)
    rows = game.actions.filter(index__gte=since, index__lt=game.log_length).order_by("index")
    return {
        "log_length": game.log_length,
        "actions": [
            {
                "index": row.index,
                "action": row.action,
                "sender": row.sender,
                "events": [event_seen(e, seat.player) for e in row.events],
                "at": row.created_at.isoformat(),
            }
            for row in rows[:limit]
        ],
    }


# -- offers -------------------------------------------------------------------------------------
@api.get(
    "/{slug}/offers",
    response={200: Offers, **ERRORS},
    by_alias=True,
    summary="Your seat's trade offers",
)
def offers(request: HttpRequest, slug: str) -> dict[str, Any]:
    game, seat = _seat(request, slug)
    found = offer_services.offers_for_seat(game, seat)
    return {
        "for_me": [_offer_out(o) for o in found.for_me],
        "mine": [_offer_out(o) for o in found.mine],
        "closed": [_offer_out(o) for o in found.closed],
    }


@api.post(
    "/{slug}/offers",
    response={201: Offer, 400: Refused, **ERRORS},
    by_alias=True,
    summary="Offer a domestic trade (B18, X24): between the current player and another",
)
def propose(request: HttpRequest, slug: str, body: OfferIn) -> Status[Any]:
    game, seat = _seat(request, slug)
    try:
        offer = offer_services.offer_propose(
            game=game, user=seat.user, to=body.to, give=body.give, get=body.get
        )
    except GameRefused as refusal:
        return _refused(refusal)
    return Status(201, _offer_out(offer))


REPLIES: dict[str, Callable[..., TradeOffer]] = {
    "accept": offer_services.offer_accept,
    "decline": offer_services.offer_decline,
    "withdraw": offer_services.offer_withdraw,
}


@api.post(
    "/{slug}/offers/{offer_id}/{reply}",
    response={200: Offer, 400: Refused, **ERRORS},
    by_alias=True,
    summary="Accept (the trade is made now), decline or withdraw an offer",
)
def reply(
    request: HttpRequest,
    slug: str,
    reply: Literal["accept", "decline", "withdraw"],
    offer_id: int = Path(..., ge=1, le=2**63 - 1),
) -> Status[Any]:
    game, seat = _seat(request, slug)
    try:
        offer = REPLIES[reply](game=game, user=seat.user, offer_id=offer_id)
    except GameRefused as refusal:
        if refusal.code == offer_services.NO_SUCH_OFFER:
            raise Http404(refusal.message) from refusal
        return _refused(refusal)
    offer.refresh_from_db()
    return Status(200, _offer_out(offer))


# -- the URLs: unknown paths, wrong methods and big bodies answer {code, message} too ----------
def urls() -> tuple[list[URLPattern | URLResolver], str, str]:
    """The API's URLs for `include` (config/urls.py): ninja's, each bounded and its 405 made a
    refusal, then every other path under /api/games/ a `not_found` refusal."""
    patterns, app_name, namespace = api.urls
    return REFUSALS.patterns(patterns), app_name, namespace
