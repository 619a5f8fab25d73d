"""A seat's desk (issue 13, "Playing"): the board with its clickable places, the hand, the
development cards, the dice, the maritime trade, the discards and gold picks, the robber and
the pirate, the end of the turn and the table — for one game, as the viewer may see it (G5).

Function views, as the naval desk (fleets/views.py): the game is fetched through the one
permission-checked selector, the post is read into one engine action (play_forms.py) and sent
through `action_submit` with the index the page was drawn at, and the answer is the desk again —
only its `#desk` part for htmx, the whole page without JavaScript (after a redirect when the
action was applied, so a reload never sends it twice). A refused action is shown beside the
control that sent it, with its code; nothing else is changed by it (the service's transaction).

What the desk offers is `legal_actions(state, seat)` and nothing more (G1): the board's targets
(board_targets.py) and their plain list are built from it, each button appears only when its
action is listed, and the forms that compose an action (a trade, a discard, a gold pick, a
card's choice) appear only when an action of that type is. The engine still checks what comes
back, so a forged post meets the same refusal as on the API.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST
from django_htmx.middleware import HtmxDetails

from engine.seafarers import State, legal_actions
from engine.seafarers.rules import RESOURCES
from seafarers.board_marks import AWARD_MARKS, award_mark
from seafarers.board_places import Places
from seafarers.board_svg import player_colours, tappable_board
from seafarers.board_targets import Target, targets_of
from seafarers.models import Game
from seafarers.offers import offers_version
from seafarers.play_forms import control_of, expected_index, read_action
from seafarers.positions import waiting_for
from seafarers.selectors import (
    game_get_for_user,
    game_position,
    is_moderator,
    recent_news,
    seat_of,
)
from seafarers.services import GameRefused, action_submit
from seafarers.views.offers import panel_context

ACTIVE = (Game.Status.SETUP, Game.Status.PLAYING)

# How often a waiting desk looks again (htmx `every`): a turn by post moves in minutes, an open
# trade offer in seconds (S-50: the offering player sees the answer before their next click).
POLL_SECONDS = 15
POLL_SECONDS_OFFER_OPEN = 3


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails  # set by django_htmx's middleware


CARD_NAMES = {
    "knight": "Knight",
    "victory_point": "Victory Point",
    "road_building": "Road Building",
    "year_of_plenty": "Year of Plenty",
    "monopoly": "Monopoly",
}
# What the game waits for, in plain words, by phase (seafarers-format.md "Turn").
PHASE_WORDS = {
    "setup_settlement": "to place a settlement (setup, B20)",
    "setup_route": "to place a road or a ship touching the settlement just placed (B20, SU1)",
    "roll": "to roll the dice (a development card may be played first, B8)",
    "discard": "to discard half of their cards after the 7 (B11)",
    "robber": "to move the robber or the pirate, and steal (B11, PI4)",
    "gold": "to pick resources for gold (GD4)",
    "action": "to trade, build, play a card or move a ship, then end the turn (B8)",
    "road_building": "to place the free pieces of Road Building (B14, RB1)",
}
PLAIN_LABELS = {
    "roll": "Roll the dice",
    "end_turn": "End the turn",
    "buy_dev_card": "Buy a development card (wool, grain, ore)",
    "play_knight": "Play a Knight",
    "play_road_building": "Play Road Building",
    "end_road_building": "Stop building (Road Building)",
}


@login_required
@require_GET
def desk(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    game = game_get_for_user(request.user, slug)
    context = desk_context(game, request.user)
    template = "seafarers/play/desk.html#desk" if request.htmx else "seafarers/play/desk.html"
    return render(request, template, context)


@login_required
@require_GET
def desk_poll(request: HttpRequest, slug: str) -> HttpResponse:
    """htmx, every little while on a waiting desk: 204 (nothing to swap) while the log is as
    long as the page's, else the desk anew — so a player sees the game come to them."""
    game = game_get_for_user(request.user, slug)
    index = request.GET.get("index", "")
    same_log = index.isascii() and index.isdigit() and int(index) == game.log_length
    # S-50: an offer made, declined or withdrawn leaves the log as it was; the page is drawn
    # anew when the game's offers changed too, so both sides of an offer see its answer.
    if same_log and request.GET.get("offers", "") == offers_version(game):
        return HttpResponse(status=204)
    return render(request, "seafarers/play/desk.html#desk", desk_context(game, request.user))


@login_required
@require_POST
def act(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """One action from the desk, as the viewer's seat (G1)."""
    game = game_get_for_user(request.user, slug)
    control = control_of(request.POST)
    refusal = None
    try:
        seat = seat_of(game, request.user)
        if seat is None:
            raise GameRefused(
                "not_your_seat",
                "you hold no seat in this game: a moderator acts for a player from the "
                "game's dashboard (G4)",
            )
        position = game_position(game)
        rates = position.rates(position.pindex[seat.player])
        action = read_action(request.POST, player=seat.player, rates=rates)
        action_submit(
            game=game,
            user=request.user,
            action=action,
            expected_index=expected_index(request.POST),
        )
    except GameRefused as refused:
        # The template ends the words with a full stop, the code after them as a hint.
        message = refused.message.rstrip(".")
        refusal = {"control": control, "code": refused.code, "message": message}
    game.refresh_from_db()
    if request.htmx:
        context = desk_context(game, request.user, refusal, request.POST)
        return render(request, "seafarers/play/desk.html#desk", context)
    if refusal is None:
        return HttpResponseRedirect(reverse("seafarers_desk", args=[slug]))
    # Without JavaScript a refusal shows the whole page, the refusal beside its control.
    context = desk_context(game, request.user, refusal, request.POST)
    return render(request, "seafarers/play/desk.html", context)


def desk_context(
    game: Game,
    user: Any,
    refusal: dict[str, str] | None = None,
    sent: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything the desk shows, as `user` may see it: a seat's user sees their own hand and
    cards and the others' as counts (G5); the moderator sees it whole and acts elsewhere.
    `sent`: a refused post, whose counts its form shows again to be corrected."""
    state = game_position(game)
    seat = seat_of(game, user)
    moderator = seat is None and is_moderator(game, user)
    viewer = seat.player if seat is not None else None
    me = state.pindex.get(viewer) if viewer is not None else None
    legal = legal_actions(state, viewer) if viewer is not None and game.status in ACTIVE else []
    types = {a["type"] for a in legal}
    places = Places(state)
    seats = game.seats.select_related("membership__user")
    names = {s.player: (s.user.username if s.user else "bot") for s in seats}
    news = recent_news(game)  # one read of the log's last actions
    events = news.last_events
    targets = targets_of(legal, viewer, places)
    svg, key = tappable_board(
        state, viewer=viewer, legal=legal, events=events, has_targets=bool(targets)
    )
    waiting = waiting_for(state) if game.status in ACTIVE else []
    context = {
        "game": game,
        "campaign": game.campaign,
        "state": state,
        "viewer": viewer,
        "moderator": moderator,
        "expected": game.log_length,
        "refusal": refusal,
        # Drawn by board_svg from the engine's state, every text in it escaped there.
        "board": mark_safe(svg),
        "key": mark_safe(key),
        "places": place_groups(targets),
        "buttons": [(t, PLAIN_LABELS[t]) for t in PLAIN_LABELS if t in types],
        "waiting": [{"player": p, "name": names.get(p, p)} for p in waiting],
        "my_move": viewer is not None and viewer in waiting,
        "phase_words": PHASE_WORDS.get(state.phase, ""),
        "roll": _dice(news.roll),
        "steals": [_stolen_words(e, viewer, moderator) for e in news.steals],
        "winner": state.players[state.winner] if state.winner is not None else None,
        "current": state.players[state.player],
        "button_types": types,
        "places_kinds": {a["type"] for a in legal if a["type"] == "move_ship"},
        "table": _table(state, viewer, moderator, names),
        "holders": {
            "longest_route": _holder(state, state.longest),
            "largest_army": _holder(state, state.army),
        },
        "hand": _hand(state, me) if me is not None else None,
        "hands": [(p, _hand(state, q)) for q, p in enumerate(state.players)] if moderator else [],
        "dev_cards": _dev_cards(state, me) if me is not None else [],
        "rates": _rates(state, me) if me is not None else [],
        "trade": _trade_choices(state, me, legal)
        if me is not None and "maritime_trade" in types
        else None,
        "discard_owed": state.discard[me] if me is not None and "discard" in types else 0,
        "counts": _kept_counts(sent if refusal is not None else None),
        "gold_owed": state.gold_picks[me] if me is not None and "pick_gold" in types else 0,
        "plenty": _plenty(state) if "play_year_of_plenty" in types else [],
        "monopoly": sorted(
            {a["resource"] for a in legal if a["type"] == "play_monopoly"}, key=RESOURCES.index
        ),
        "resources": RESOURCES,
        "colours": player_colours([{"id": p} for p in state.players]),
        # Drawn by award_mark from constants only.
        "award_marks": {a: mark_safe(award_mark(a)) for a in AWARD_MARKS},
        "polls": game.status in (*ACTIVE, Game.Status.PAUSED, Game.Status.NEW),
        "poll_every": POLL_SECONDS,
        "offers_version": offers_version(game),
        "with_offers": game.status == Game.Status.PLAYING,
    }
    if context["with_offers"]:
        # The domestic trade offers (B18), the panel of seafarers/views/offers.py: it posts to its
        # own views and swaps itself; a trade made there reloads the desk (seafarers:traded).
        context.update(panel_context(game, user))
        if context["offers_for_me"] or context["offers_mine"]:
            # S-50: a side of an open offer waits for its answer: it is seen within seconds.
            context["poll_every"] = POLL_SECONDS_OFFER_OPEN
    if refusal is not None and refusal["control"] not in _sections(context):
        # Its control is gone (a discard made meanwhile, a moderator's page without the
        # board's list): the refusal shows under the game's status line instead.
        context["refusal"] = {**refusal, "control": "status"}
    return context


def _sections(context: dict[str, Any]) -> set[str]:
    """The controls the desk shows, each with a place for a refusal beside it."""
    shown = {"dice"}
    if context["viewer"] is not None:
        shown |= {"board", "cards", "turn", "trade"}
    if context["discard_owed"]:
        shown.add("discard")
    if context["gold_owed"]:
        shown.add("gold")
    return shown


GROUPS = {
    "build_settlement": "Build a settlement",
    "build_city": "Build a city",
    "build_road": "Build a road",
    "build_ship": "Build a ship",
    "move_ship": "Move a ship",
    "move_robber": "Move the robber",
    "move_pirate": "Move the pirate",
}


def place_groups(targets: list[Target]) -> list[tuple[str, list[Target]]]:
    """The board's targets for its plain list, by kind of action, each group by its label."""
    groups: dict[str, list[Target]] = {}
    for t in targets:
        groups.setdefault(json.loads(t.action_json)["type"], []).append(t)
    return [
        (GROUPS[kind], sorted(groups[kind], key=lambda t: t.label))
        for kind in GROUPS
        if kind in groups
    ]


def _kept_counts(sent: Mapping[str, Any] | None) -> dict[str, str]:
    """The count fields' values: 0 (1 cards to get), or the small whole numbers of a refused
    post (anything else in it is dropped)."""
    counts = {**dict.fromkeys(RESOURCES, "0"), "count": "1"}
    for name in counts:
        value = sent.get(name) if sent is not None else None
        if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 2:
            counts[name] = value
    return counts


def _stolen_words(event: dict[str, Any], viewer: str | None, moderator: bool) -> str:
    """A steal this turn, as `viewer` may read it (G5: which card only to the thief and the
    victim; the moderator sees all): "You took 1 grain from orange"."""
    by, victim, card = str(event["by"]), str(event["from"]), str(event["card"])
    if viewer == by:
        return f"You took 1 {card} from {victim}."
    if viewer == victim:
        return f"{by} took 1 {card} from you."
    if moderator:
        return f"{by} took 1 {card} from {victim}."
    return f"{by} took a card from {victim}."


def _dice(rolled: dict[str, Any] | None) -> dict[str, Any] | None:
    """The last roll, with the dice as faces (U+2680 is the die showing 1)."""
    if rolled is None:
        return None
    return {**rolled, "faces": " ".join(chr(0x267F + d) for d in rolled["dice"])}


def _holder(state: State, q: int) -> str | None:
    return state.players[q] if q >= 0 else None


def _hand(state: State, q: int) -> list[tuple[str, int]]:
    return [(r, state.hands[q][i]) for i, r in enumerate(RESOURCES)]


def _table(
    state: State, viewer: str | None, everything: bool, names: dict[str, str]
) -> list[dict[str, Any]]:
    """B19: points as each may see them — a player's own Victory Point cards count in their
    own line only (and for the moderator; the winner's for everyone once the game is won, as
    the `won` event says them: docs/rulings.md S-19, S-36); the others see the points on the
    table."""
    colours = player_colours([{"id": p} for p in state.players])
    rows = []
    for q, player in enumerate(state.players):
        hidden = sum(1 for card, _ in state.dev_cards[q] if card == "victory_point")
        sees_all = everything or player == viewer or q == state.winner
        rows.append(
            {
                "player": player,
                "name": names.get(player, player),
                "colour": colours[player],
                "current": q == state.player,
                "points": state.vp(q) if sees_all else state.vp(q) - hidden,
                "hidden": hidden if sees_all else None,
                "route": state.routes[q],
                "knights": state.knights[q],
                "hand_count": sum(state.hands[q]),
                "card_count": len(state.dev_cards[q]),
                "longest": state.longest == q,
                "army": state.army == q,
            }
        )
    return rows


def _dev_cards(state: State, q: int) -> list[dict[str, Any]]:
    return [
        {"card": card, "name": CARD_NAMES.get(card, card), "new": new}
        for card, new in sorted(state.dev_cards[q])
    ]


def _rates(state: State, q: int) -> list[tuple[str, int]]:
    return list(zip(RESOURCES, state.rates(q), strict=True))


def _trade_choices(state: State, q: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """X11: only trades that can be made. Each resource the player can give at their rate (the
    listed unit trades' give side), with what it may get (the engine's list: never the given
    resource, only what the bank holds) and how many cards at most (the hand at the rate). With
    one resource to give, the get list is that one's; with several, the page's script narrows
    the get list and the count to the give chosen (data-gets, data-most, data-bank)."""
    rates, hand = state.rates(q), state.hands[q]
    gets: dict[str, list[str]] = {}
    for a in legal:
        if a["type"] == "maritime_trade":
            (give,), (get,) = a["give"], a["get"]
            gets.setdefault(give, []).append(get)
    give = [
        {
            "resource": r,
            "rate": rates[i],
            "most": hand[i] // rates[i],
            "gets": sorted(gets[r], key=RESOURCES.index),
        }
        for i, r in enumerate(RESOURCES)
        if r in gets
    ]
    if not give:
        return {"give": [], "get": [], "get_first": None, "most": 1}
    offered = {r for g in give for r in g["gets"]}
    get = [{"resource": r, "bank": state.bank[i]} for i, r in enumerate(RESOURCES) if r in offered]
    # The form opens on a trade the engine takes: the first give, a get it may have.
    first_give = give[0]
    first_get = first_give["gets"][0]
    bank = state.bank[RESOURCES.index(first_get)]
    return {
        "give": give,
        "get": get,
        "get_first": first_get,
        "most": max(1, min(first_give["most"], bank)),
    }


def _plenty(state: State) -> list[str]:
    return [r for i, r in enumerate(RESOURCES) if state.bank[i]]


__all__ = ["act", "desk", "desk_context", "desk_poll", "place_groups"]
