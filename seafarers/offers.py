"""Domestic trade offers (seafarers.md B18, X24): the platform carries the offers and the
replies, the log records the trade.

An offer is made between the current player and one other player, either way, in the action
phase of a turn (B18: "other players do not trade among themselves"). It is accepted, declined
or withdrawn; accepted, it is applied at once as the current player's `domestic_trade` action
through `services.action_submit`, in the same transaction as the offer's new status and under
the game's row lock, so one action at a time still holds (G1). An offer that can no longer be
met is refused plainly and stays as it was: hands that changed (`offer_unmet`, open still: the
cards may come back this turn), a turn that moved on (`offer_void`: offers of a past turn are
void, docs/rulings.md S-26).

A refusal never shows a hand the asker may not see (G5): the engine's own message for a short
hand lists that hand, so the other side's shortage is said without it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import timezone

from engine.seafarers.rules import RESOURCES
from seafarers.models import Game, Outbox, Seat, TradeOffer
from seafarers.outbox import owe
from seafarers.services import GameRefused, action_submit

Terms = dict[str, int]
MAX_OPEN = 10  # open offers one seat may have made at once: enough to haggle, not to flood
MAX_COUNT = 95  # cards of one resource on one side: every card of the bank (B10: 19 × 5)

# The codes of this module, beside the engine's and the services' (the API lists them all).
NOT_A_PLAYER = "not_a_player"  # the moderator, say: offers are between seats
NOT_CURRENT_PLAYER = "not_current_player"  # B18: neither side is the current player
BOT_SEAT = "bot_seat"  # the engine's bot makes and answers no offers
TOO_MANY_OFFERS = "too_many_offers"
NO_SUCH_OFFER = "no_such_offer"  # also another pair's offer: it is not the asker's to see
NOT_YOUR_OFFER = "not_your_offer"  # accepting one's own offer, withdrawing the other's
OFFER_CLOSED = "offer_closed"  # accepted, declined or withdrawn already
OFFER_VOID = "offer_void"  # its turn is over
OFFER_UNMET = "offer_unmet"  # a side no longer holds its cards
CODES = frozenset(
    {
        NOT_A_PLAYER,
        NOT_CURRENT_PLAYER,
        BOT_SEAT,
        TOO_MANY_OFFERS,
        NO_SUCH_OFFER,
        NOT_YOUR_OFFER,
        OFFER_CLOSED,
        OFFER_VOID,
        OFFER_UNMET,
    }
)


# -- proposing and replying -----------------------------------------------------------------
def offer_propose(*, game: Game, user: Any, to: str, give: object, get: object) -> TradeOffer:
    """The user's seat offers `to` (an engine player id) its `give` for their `get`."""
    with transaction.atomic():
        game = _locked(game)
        seat = _seat_of(game, user)
        _void_past_turns(game)
        _playing(game)
        turn = game.state["turn"]
        if turn["phase"] != "action":
            raise GameRefused(
                "wrong_phase", "offers are made in the action phase of a turn, after the roll (B18)"
            )
        other = game.seats.filter(player=to).first() if isinstance(to, str) else None
        if other is None:
            raise GameRefused("unknown_player", f"{to!r} is not a player here")
        if other.pk == seat.pk:
            raise GameRefused("bad_trade", "you cannot trade with yourself (B18)")
        if turn["player"] not in (seat.player, other.player):
            raise GameRefused(
                NOT_CURRENT_PLAYER,
                f"only the current player ({turn['player']}) trades with the others; "
                "other players do not trade among themselves (B18)",
            )
        if other.bot or seat.bot:
            raise GameRefused(
                BOT_SEAT, f"{other.player} is played by the bot, which makes no trades"
            )
        gives, gets = terms_read(give, "give"), terms_read(get, "get")
        terms_check(gives, gets)
        short = _short(_hand(game, seat.player), gives)
        if short:
            raise GameRefused("insufficient_resources", f"you lack {words(short)} to offer that")
        if game.offers.filter(from_seat=seat, status=TradeOffer.Status.OPEN).count() >= MAX_OPEN:
            raise GameRefused(
                TOO_MANY_OFFERS, f"you have {MAX_OPEN} open offers: withdraw one first"
            )
        offer = TradeOffer.objects.create(
            game=game,
            from_seat=seat,
            to_seat=other,
            give=gives,
            get=gets,
            turn_number=turn["number"],
            made_at_index=game.log_length,
        )
        _tell(game, offer)
    return offer


def offer_accept(*, game: Game, user: Any, offer_id: int) -> TradeOffer:
    """The seat the offer is for accepts it: the trade is applied now, as the current player's
    `domestic_trade` (X24), or refused and nothing changes."""
    with transaction.atomic():
        game = _locked(game)
        seat = _seat_of(game, user)
        offer = _offer(game, seat, offer_id)
        if offer.to_seat_id != seat.pk:
            raise GameRefused(NOT_YOUR_OFFER, "an offer is accepted by the player it is made to")
        _still_open(game, offer)
        _playing(game)
        current = game.state["turn"]["player"]
        proposer, accepter = offer.from_seat, offer.to_seat
        if proposer.bot or accepter.bot:
            raise GameRefused(BOT_SEAT, "a seat of this offer is now played by the bot")
        # The trade as the current player's action: what they give and get (X24).
        mover, other = (proposer, accepter) if proposer.player == current else (accepter, proposer)
        give = offer.give if mover is proposer else offer.get
        get = offer.get if mover is proposer else offer.give
        if _short(_hand(game, accepter.player), offer.get):
            raise GameRefused(OFFER_UNMET, "you no longer hold what this offer asks of you")
        if _short(_hand(game, proposer.player), offer.give):
            raise GameRefused(OFFER_UNMET, f"{proposer.player} no longer holds what they offered")
        action = {
            "type": "domestic_trade",
            "player": mover.player,
            "with": other.player,
            "give": give,
            "get": get,
        }
        try:
            row = action_submit(
                game=game,
                user=mover.user,
                action=action,
                expected_index=game.log_length,
                accepted_offer=True,
            )
        except GameRefused as refusal:
            if refusal.code == "insufficient_resources":  # its message lists a hand: not shown
                raise GameRefused(OFFER_UNMET, "a side no longer holds its cards") from refusal
            raise
        _close(offer, TradeOffer.Status.ACCEPTED, action_index=row.index)
    return offer


def offer_decline(*, game: Game, user: Any, offer_id: int) -> TradeOffer:
    return _reply(game, user, offer_id, TradeOffer.Status.DECLINED)


def offer_withdraw(*, game: Game, user: Any, offer_id: int) -> TradeOffer:
    return _reply(game, user, offer_id, TradeOffer.Status.WITHDRAWN)


def _reply(game: Game, user: Any, offer_id: int, status: str) -> TradeOffer:
    """Decline (the seat it is for) or withdraw (its proposer) an open offer of this turn."""
    with transaction.atomic():
        game = _locked(game)
        seat = _seat_of(game, user)
        offer = _offer(game, seat, offer_id)
        mine = offer.from_seat_id == seat.pk
        if status == TradeOffer.Status.DECLINED and mine:
            raise GameRefused(NOT_YOUR_OFFER, "your own offer is withdrawn, not declined")
        if status == TradeOffer.Status.WITHDRAWN and not mine:
            raise GameRefused(NOT_YOUR_OFFER, "an offer made to you is declined, not withdrawn")
        _still_open(game, offer)
        _close(offer, status)
    return offer


# -- reading --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Offers:
    """A seat's offers: open ones made to it and by it, and the latest closed ones."""

    for_me: list[TradeOffer]
    mine: list[TradeOffer]
    closed: list[TradeOffer]


RECENT = 10  # closed offers shown


def offers_for_seat(game: Game, seat: Seat) -> Offers:
    """The offers the seat is a side of (another pair's offers are theirs: never shown). A
    read: the action that ended a turn voided its offers (services `_after_change`)."""
    own = (
        TradeOffer.objects.filter(Q(from_seat=seat) | Q(to_seat=seat), game=game)
        .select_related("from_seat", "to_seat")
        .order_by("-id")
    )
    open_ = list(offers_open(game).filter(Q(from_seat=seat) | Q(to_seat=seat)).order_by("-id"))
    return Offers(
        for_me=[o for o in open_ if o.to_seat_id == seat.pk],
        mine=[o for o in open_ if o.from_seat_id == seat.pk],
        closed=list(own.exclude(status=TradeOffer.Status.OPEN)[:RECENT]),
    )


def offers_version(game: Game) -> str:
    """A mark that changes whenever an offer of the game is made or closed (accepted, declined,
    withdrawn, voided): the desk's poll compares it, since a declined or withdrawn offer leaves
    the log as long as it was (S-50). One aggregate read."""
    seen = TradeOffer.objects.filter(game=game).aggregate(
        last=Max("pk"), closed=Count("pk", filter=~Q(status=TradeOffer.Status.OPEN))
    )
    return f"{seen['last'] or 0}.{seen['closed']}"


def offers_open(game: Game) -> Any:
    """The game's open offers that can still be answered: of the current turn of a game not
    over. (One left open from a past turn, which no action since has voided, is not shown as
    open; the next action or reply marks it void.)"""
    past = TradeOffer.objects.past_turns(game).values("pk")
    return (
        TradeOffer.objects.filter(game=game, status=TradeOffer.Status.OPEN)
        .exclude(pk__in=past)
        .select_related("from_seat", "to_seat")
    )


def offer_document(offer: TradeOffer) -> dict[str, Any]:
    """An offer as the API and the pages give it: its two sides' terms as the proposer's."""
    return {
        "id": offer.pk,
        "from": offer.from_seat.player,
        "to": offer.to_seat.player,
        "give": offer.give,
        "get": offer.get,
        "status": offer.status,
        "turn": offer.turn_number,
        "made_at_index": offer.made_at_index,
        "action_index": offer.action_index,
        "created_at": offer.created_at.isoformat(),
        "closed_at": offer.closed_at.isoformat() if offer.closed_at else None,
    }


# -- terms ----------------------------------------------------------------------------------
def terms_read(value: object, side: str) -> Terms:
    """One side of an offer: resource → whole count (0 dropped), as the engine reads
    `domestic_trade` (seafarers-format.md "Actions"), bounded."""
    if not isinstance(value, dict):
        raise GameRefused("invalid_action", f"{side} must be an object of resource counts")
    terms: Terms = {}
    for name, count in value.items():
        if name not in RESOURCES:
            raise GameRefused(
                "invalid_action", f"{name!r} is not a resource (brick, wood, wool, grain, ore)"
            )
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_COUNT:
            raise GameRefused("invalid_action", f"{side}.{name} must be a whole number, 0 to 95")
        if count:
            terms[name] = count
    return {r: terms[r] for r in RESOURCES if r in terms}


def terms_check(give: Terms, get: Terms) -> None:
    """X24: at least one card each way, no resource on both sides (the engine's `bad_trade`)."""
    if not give or not get:
        raise GameRefused("bad_trade", "a trade gives at least one card each way (X24)")
    both = [r for r in give if r in get]
    if both:
        raise GameRefused(
            "bad_trade", f"a trade cannot have {', '.join(both)} on both sides (B18, X24)"
        )


def words(terms: Terms) -> str:
    return ", ".join(f"{n} {r}" for r, n in terms.items()) or "nothing"


# -- helpers --------------------------------------------------------------------------------
def _locked(game: Game) -> Game:
    """The game's row locked until the transaction ends (as the services lock it): an offer's
    reply and every action are one at a time."""
    return Game.objects.select_for_update().select_related("campaign").get(pk=game.pk)


def _seat_of(game: Game, user: Any) -> Seat:
    seat = (
        game.seats.filter(membership__user_id=user.pk).select_related("membership__user").first()
        if user is not None
        else None
    )
    if seat is None:
        raise GameRefused(NOT_A_PLAYER, "only a player of the game makes and answers offers")
    return seat


def _offer(game: Game, seat: Seat, offer_id: int) -> TradeOffer:
    """An offer the seat is a side of, locked; any other is `no_such_offer` (not given away)."""
    offer = (
        TradeOffer.objects.select_for_update()
        .filter(Q(from_seat=seat) | Q(to_seat=seat), game=game, pk=offer_id)
        .first()
    )
    if offer is None:
        raise GameRefused(NO_SUCH_OFFER, "there is no such offer for you")
    # The seats, read after the lock (select_related cannot join under FOR UPDATE everywhere).
    offer.from_seat = Seat.objects.select_related("membership__user").get(pk=offer.from_seat_id)
    offer.to_seat = Seat.objects.select_related("membership__user").get(pk=offer.to_seat_id)
    return offer


def _playing(game: Game) -> None:
    if game.status == Game.Status.NEW:
        raise GameRefused("not_started", "the game has not started yet")
    if game.status == Game.Status.PAUSED:
        raise GameRefused("game_paused", "the game is paused by the moderator")
    if game.status == Game.Status.OVER:
        raise GameRefused("game_over", "the game is over")


def _past_turn(game: Game, offer: TradeOffer) -> bool:
    return game.status == Game.Status.OVER or game.state["turn"]["number"] != offer.turn_number


def _still_open(game: Game, offer: TradeOffer) -> None:
    if offer.status == TradeOffer.Status.VOID or (
        offer.status == TradeOffer.Status.OPEN and _past_turn(game, offer)
    ):
        # Not marked void here: the refusal rolls the transaction back; the next read does.
        raise GameRefused(OFFER_VOID, f"this offer was made in turn {offer.turn_number}, now over")
    if offer.status != TradeOffer.Status.OPEN:
        raise GameRefused(OFFER_CLOSED, f"this offer was {offer.status} already")


def _void_past_turns(game: Game) -> int:
    return TradeOffer.objects.void_past_turns(game)


def _close(offer: TradeOffer, status: str, *, action_index: int | None = None) -> None:
    offer.status = status
    offer.action_index = action_index
    offer.closed_at = timezone.now()
    offer.save(update_fields=["status", "action_index", "closed_at"])


def _hand(game: Game, player: str) -> Terms:
    found = next(p for p in game.state["players"] if p["id"] == player)
    return dict(found["hand"])


def _short(hand: Terms, wanted: Terms) -> Terms:
    """What of `wanted` the hand lacks."""
    return {r: n - hand.get(r, 0) for r, n in wanted.items() if hand.get(r, 0) < n}


def _tell(game: Game, offer: TradeOffer) -> None:
    """Tell "an offer for you" (issue 13) on the worker after the commit, through the outbox (a
    Redis that is down delays the news, never the offer): the terms by e-mail to the seat it is
    for; the game's webhook (a public channel) says only who offered whom."""
    name, by, to = game.campaign.name, offer.from_seat.player, offer.to_seat.player
    item = {
        "players": [to],
        "subject": f"{name}: an offer for you",
        "text": f"{by} offers you {words(offer.give)} for {words(offer.get)} (B18). "
        "Accept or decline it on the game's offers.",
        "public": f"**{name}**: {by} has made {to} a trade offer.",
    }
    owe(game.pk, [(Outbox.Kind.NEWS, {"items": [item], "sent": 0}, 0)])
