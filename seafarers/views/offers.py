"""Domestic trade offers on the pages (B18, X24): the offers panel, a partial the seat's desk
includes (`templates/seafarers/offers/panel.html`, its context from `panel_context`) and a page
of its own at /g/<slug>/offers/.

Function views (django-htmx example style): each fetches the game through the one
permission-checked selector, calls a service of seafarers/offers.py, and answers with the panel
(htmx) or, without JavaScript, a redirect back to the page — or the page itself with the
refusal beside the control that was used, with its code and plain words.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from engine.seafarers.rules import RESOURCES
from seafarers.models import Game, Seat, TradeOffer
from seafarers.offers import (
    MAX_COUNT,
    offer_accept,
    offer_decline,
    offer_propose,
    offer_withdraw,
    offers_for_seat,
    offers_open,
    words,
)
from seafarers.selectors import game_get_for_user, is_moderator, seat_of
from seafarers.services import GameRefused

PANEL = "seafarers/offers/panel.html"
PAGE = "seafarers/offers/page.html"
REPLIES = {"accept": offer_accept, "decline": offer_decline, "withdraw": offer_withdraw}


class OfferForm(forms.Form):
    """An offer's shape (the service checks the rules): to whom, and a count per resource on
    each side — what you give, what you get."""

    to = forms.ChoiceField(label="Offer to")

    def __init__(self, *args: Any, partners: list[str], **kwargs: Any) -> None:
        super().__init__(*args, prefix="offer", **kwargs)
        to = self.fields["to"]
        assert isinstance(to, forms.ChoiceField)
        to.choices = [(p, p) for p in partners]
        for side in ("give", "get"):
            for resource in RESOURCES:
                self.fields[f"{side}_{resource}"] = forms.IntegerField(
                    label=resource, min_value=0, max_value=MAX_COUNT, initial=0, required=False
                )

    def side(self, side: str) -> dict[str, int]:
        return {r: n for r in RESOURCES if (n := self.cleaned_data.get(f"{side}_{r}") or 0)}

    def side_fields(self, side: str) -> list[forms.BoundField]:
        return [self[f"{side}_{r}"] for r in RESOURCES]

    def give_fields(self) -> list[forms.BoundField]:
        return self.side_fields("give")

    def get_fields(self) -> list[forms.BoundField]:
        return self.side_fields("get")


def panel_context(
    game: Game,
    user: Any,
    *,
    form: OfferForm | None = None,
    refusal: GameRefused | None = None,
    refused_offer: int | None = None,
) -> dict[str, Any]:
    """What the panel shows `user`: the offers made to their seat and by it (the moderator: every
    open offer, read only), the propose form when a trade can be offered, and a refusal to show
    beside the control it answers (`refused_offer`: an offer's buttons; None: the form)."""
    seat = seat_of(game, user)
    turn = game.state["turn"]
    partners = offer_partners(game, seat)
    can_offer = (
        seat is not None
        and bool(partners)
        and game.status == Game.Status.PLAYING
        and turn["phase"] == "action"
    )
    if seat is not None:
        found = offers_for_seat(game, seat)
        for_me, mine, closed = found.for_me, found.mine, found.closed
        everyone: list[TradeOffer] = []
    else:
        for_me, mine, closed = [], [], []
        everyone = list(offers_open(game))
    shown = {o.pk for o in (*for_me, *mine)}
    if refusal is None:
        where = None
    elif refused_offer is None:
        where = "form" if can_offer else "top"
    else:
        where = "offer" if refused_offer in shown else "top"
    return {
        "offers_game": game,
        "offers_slug": game.campaign.slug,
        "offers_seat": seat,
        "offers_moderator": seat is None and _moderates(game, user),
        "offers_for_me": [_row(o) for o in for_me],
        "offers_mine": [_row(o) for o in mine],
        "offers_closed": [_row(o) for o in closed],
        "offers_everyone": [_row(o) for o in everyone],
        "offer_form": (form or OfferForm(partners=partners)) if can_offer else None,
        "offer_refusal": refusal,
        "offer_refused_id": refused_offer,
        "offer_refusal_at": where,  # beside the form, beside an offer's buttons, or on top
        "offers_turn": turn,
    }


def offer_partners(game: Game, seat: Seat | None) -> list[str]:
    """Whom `seat` may offer to now (B18): the current player to any other human seat, the
    others to the current player only; nobody for a bot or the moderator."""
    if seat is None or seat.bot:
        return []
    humans = [s.player for s in game.seats.filter(bot=False) if s.pk != seat.pk]
    current = game.state["turn"]["player"]
    partners = humans if current == seat.player else [current]
    return [p for p in partners if p in humans]


def _row(offer: TradeOffer) -> dict[str, Any]:
    return {
        "id": offer.pk,
        "from": offer.from_seat.player,
        "to": offer.to_seat.player,
        "give": words(offer.give),
        "get": words(offer.get),
        "status": offer.status,
        "turn": offer.turn_number,
    }


def _moderates(game: Game, user: Any) -> bool:
    return is_moderator(game, user)


@login_required
@require_GET
def offers(request: HttpRequest, slug: str) -> HttpResponse:
    game = game_get_for_user(request.user, slug)
    return _answer(request, game, panel_context(game, request.user))


@login_required
@require_POST
def offer_make(request: HttpRequest, slug: str) -> HttpResponse:
    """Propose an offer; refused, the form comes back with the refusal above its button."""
    game = game_get_for_user(request.user, slug)
    seat: Seat | None = seat_of(game, request.user)
    partners = [s.player for s in game.seats.all() if seat is None or s.pk != seat.pk]
    form = OfferForm(request.POST, partners=partners)
    if not form.is_valid():
        refusal = GameRefused(
            "invalid_action", "the offer was not made: say to whom, and whole counts 0 to 95"
        )
    else:
        try:
            offer_propose(
                game=game,
                user=request.user,
                to=form.cleaned_data["to"],
                give=form.side("give"),
                get=form.side("get"),
            )
        except GameRefused as refused:
            refusal = refused
        else:
            return _done(request, game)
    game.refresh_from_db()
    context = panel_context(game, request.user, refusal=refusal)
    if context["offer_form"] is not None:
        # What was typed, to correct, offered to whom the panel offers (B18): the form that
        # checked the post knows every seat, so that the service refuses with its own code.
        context["offer_form"] = OfferForm(request.POST, partners=offer_partners(game, seat))
    return _answer(request, game, context)


@login_required
@require_POST
def offer_reply(request: HttpRequest, slug: str, offer_id: int, reply: str) -> HttpResponse:
    """Accept, decline or withdraw an offer; refused, the refusal shows beside its buttons."""
    if reply not in REPLIES:
        raise Http404("No such reply.")
    game = game_get_for_user(request.user, slug)
    try:
        REPLIES[reply](game=game, user=request.user, offer_id=offer_id)
    except GameRefused as refused:
        game.refresh_from_db()
        context = panel_context(game, request.user, refusal=refused, refused_offer=offer_id)
        return _answer(request, game, context)
    return _done(request, game, traded=reply == "accept")


# htmx events for the page around the panel (the desk): the offers changed; a trade was made,
# so the hands and the log did too.
OFFERS_CHANGED = "seafarers:offers-changed"
TRADED = "seafarers:traded"


def _done(request: HttpRequest, game: Game, *, traded: bool = False) -> HttpResponse:
    if request.htmx:
        game.refresh_from_db()
        response = render(request, PANEL, panel_context(game, request.user))
        response["HX-Trigger"] = f"{OFFERS_CHANGED}, {TRADED}" if traded else OFFERS_CHANGED
        return response
    return HttpResponseRedirect(reverse("seafarers_offers", args=[game.campaign.slug]))


def _answer(request: HttpRequest, game: Game, context: dict[str, Any]) -> HttpResponse:
    if request.htmx:
        return render(request, PANEL, context)
    return render(request, PAGE, {**context, "game": game, "campaign": game.campaign})
