"""What happened in a seafaring game, for its members and for a forum (issue 13; seafarers.md G5).

- `log/`: the log turn by turn as `log_report` words it (one anchor per turn, `?turn=N` for one
  turn alone), with the private details the reader may see (G5): a seat's user reads their own
  stolen and bought cards and their hand, the moderator every one, everyone else counts.
- `log.md`, `log.bbcode` (also `?turn=N`): the same log for a forum post, always the public
  version (docs/rulings.md S-35), every name escaped, the board's public picture at the top.
- `table/`: each player's points (Victory Point cards in them only for their owner), pieces,
  route, knights, hand and card counts, and who holds the two 2-point cards (B17, B19, X10).
- `board.png`: the board as a PNG for the members; `board/<signature>.png`: the same for anyone
  holding the link (a forum), unguessable (django.core.signing over the game's id and slug; no
  row stores it). The board holds nothing private (G5), so both show the same picture.

Every page fetches through `game_get_for_user` (404 for anyone else, as if there were no game);
the public picture answers 404 the same way to a bad signature and to a game that does not exist.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.crypto import constant_time_compare
from django.views.decorators.http import require_GET, require_safe

from engine.seafarers import State, parse_scenario
from seafarers.board_places import Places
from seafarers.board_png import board_png
from seafarers.board_report_formats import Format, Section, write
from seafarers.board_svg import board_svg, player_colours
from seafarers.log_report import CARD_NAMES, RESOURCES, cards, standings, turns
from seafarers.models import Game
from seafarers.positions import replay, waiting_for
from seafarers.ruleset import desk_url
from seafarers.selectors import game_get_for_user, is_moderator, seat_of

PUBLIC_SALT = "seafarers.board.public"  # a picture's signature is good for nothing else
EXPORTS: dict[str, Format] = {"md": "markdown", "bbcode": "bbcode"}


# -- who reads, and the log cut into turns ------------------------------------------------------
@dataclass(frozen=True)
class Reader:
    player: str | None  # the seat the user holds, if any
    moderator: bool  # the campaign's moderator: every private detail (G5)


def reader_of(game: Game, user: Any) -> Reader:
    moderator = is_moderator(game, user)
    seat = seat_of(game, user)
    return Reader(seat.player if seat else None, moderator)


@dataclass
class TurnEvents:
    number: int  # 0: setup (B20)
    events: list[dict[str, Any]] = field(default_factory=list)
    end: int = 0  # how many actions of the log are played when this turn's last event came


def turn_groups(first_number: int, rows: Sequence[tuple[int, Sequence[Any]]]) -> list[TurnEvents]:
    """The log's events cut at each `turn_started`, with the log length at each turn's end (for
    the position after it). The event that starts a turn comes in the action ending the last."""
    groups = [TurnEvents(first_number)]
    for index, events in rows:
        for event in events:
            if event["type"] == "turn_started":
                groups.append(TurnEvents(int(event["number"]), end=index + 1))
            else:
                groups[-1].events.append(event)
                groups[-1].end = index + 1
    return groups


@dataclass(frozen=True)
class GameLog:
    game: Game
    first: State  # the first position: its board names the places
    groups: list[TurnEvents]
    actions: list[dict[str, Any]]

    def shown(self) -> list[TurnEvents]:
        """The turns with events, and the last one (the turn under way) even without."""
        return [g for g in self.groups if g.events or g is self.groups[-1]]

    def end_of(self, group: TurnEvents | None) -> int:
        """How many of the log's actions are played when the turn is over (None, or the turn
        under way: all of them)."""
        return len(self.actions) if group is None or group is self.groups[-1] else group.end

    def position_after(self, group: TurnEvents | None) -> State:
        """The position after the turn (None: now), replayed from the log (G3) for a turn
        gone by; the stored position for now."""
        end = self.end_of(group)
        if end == len(self.actions):
            return current_position(self.game)
        return replay(self.game.first_position, self.actions[:end])

    def group(self, turn: str | None) -> TurnEvents | None:
        """The turn `?turn=` names (None: the whole log); 404 for a turn the log does not hold."""
        if turn is None:
            return None
        if not re.fullmatch(r"\d{1,6}", turn):
            raise Http404("No such turn: a turn is a number.")
        for group in self.shown():
            if group.number == int(turn):
                return group
        raise Http404("No such turn in this game's log.")


def game_log(game: Game) -> GameLog:
    rows = list(game.actions.order_by("index").values_list("index", "action", "events"))
    first = parse_scenario(game.first_position).state
    groups = turn_groups(first.number, [(index, events) for index, _, events in rows])
    return GameLog(game, first, groups, [action for _, action, _ in rows])


def heading(group: TurnEvents, state: State) -> str:
    """Who plays the turn is the player of its first event (as log_report's headings), or, for
    a turn just begun, the position's current player."""
    if group.number == 0:
        return "Setup"
    player = group.events[0].get("player") if group.events else state.players[state.player]
    return f"Turn {group.number} — {player}"


def sections_for(
    log: GameLog, groups: Sequence[TurnEvents], reader: Reader, now: State
) -> list[Section]:
    """log_report's words for these turns, as `reader` may read them; a turn without events
    yet (the one just begun, at `now`) gets its heading alone."""
    names = Places(log.first)
    out = []
    for group in groups:
        found = turns(group.number, group.events, names, reader.player, reader.moderator)
        out += found or [Section(heading(group, now), ())]
    return out


# -- the log page and its exports ---------------------------------------------------------------
@login_required
@require_GET
def log_page(request: HttpRequest, slug: str) -> HttpResponse:
    game = game_get_for_user(request.user, slug)
    reader = reader_of(game, request.user)
    log = game_log(game)
    chosen = log.group(request.GET.get("turn"))
    groups = [chosen] if chosen else log.shown()
    state = log.position_after(chosen)
    sections = sections_for(log, groups, reader, state)
    numbers = [g.number for g in log.shown()]
    at = numbers.index(chosen.number) if chosen else None
    return render(
        request,
        "seafarers/log/log.html",
        {
            "game": game,
            "campaign": game.campaign,
            "desk_url": desk_url(game.campaign.slug),
            "reader": reader,
            "turns": [
                {"number": g.number, "section": s} for g, s in zip(groups, sections, strict=True)
            ],
            "chosen": chosen,
            "numbers": numbers,
            "previous": numbers[at - 1] if at else None,
            "next": numbers[at + 1] if at is not None and at + 1 < len(numbers) else None,
            "standings": standings(state, reader.player, reader.moderator),
            "texts": {fmt: export_text(log, chosen, state, fmt, request) for fmt in EXPORTS},
            "public_png": public_png_url(request, game),
            "board_at": log.end_of(chosen) if chosen and chosen is not log.groups[-1] else None,
        },
    )


@login_required
@require_GET
def log_export(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """The log (or `?turn=N`) as Markdown or BBCode, to paste into a forum."""
    game = game_get_for_user(request.user, slug)
    log = game_log(game)
    chosen = log.group(request.GET.get("turn"))
    text = export_text(log, chosen, log.position_after(chosen), fmt, request)
    return HttpResponse(text, content_type="text/plain; charset=utf-8")


def export_text(
    log: GameLog, chosen: TurnEvents | None, state: State, fmt: str, request: HttpRequest
) -> str:
    """The public report (S-35: a forum is public, so counts only, whoever asks), with the
    standings after it and the board as it stood then, linked for the forum to show."""
    public = Reader(None, False)
    groups = [chosen] if chosen else log.shown()
    sections = [*sections_for(log, groups, public, state), standings(state, None, False)]
    name = log.game.campaign.name
    title = f"{name} — {sections[0].heading}" if chosen else f"{name} — the log"
    picture = public_png_url(request, log.game, at=log.end_of(chosen))
    text = write(title, sections, EXPORTS[fmt])
    top, _, rest = text.partition("\n\n")
    if EXPORTS[fmt] == "markdown":
        image = f"![The board](<{_MD_URL.sub(_percent, picture)}>)"
    else:
        image = f"[img]{_BB_URL.sub(_percent, picture)}[/img]"
    return f"{top}\n\n{image}\n\n{rest}"


# A URL cannot close the link or the tag it sits in (reports/markdown.py's and bbcode.py's `_url`).
_MD_URL = re.compile(r"[<>\s]")
_BB_URL = re.compile(r"[\[\]\s]")


def _percent(match: re.Match[str]) -> str:
    return f"%{ord(match.group()):02X}"


def current_position(game: Game) -> State:
    """The stored position after the last action (a document read back, for showing only:
    it knows no chance counters, so it is never played on; positions.py)."""
    return parse_scenario(game.state).state


# -- the table ----------------------------------------------------------------------------------
@login_required
@require_GET
def table(request: HttpRequest, slug: str) -> HttpResponse:
    game = game_get_for_user(request.user, slug)
    reader = reader_of(game, request.user)
    state = current_position(game)
    users = {s.player: s for s in game.seats.select_related("membership__user")}
    return render(
        request,
        "seafarers/log/table.html",
        {
            "game": game,
            "campaign": game.campaign,
            "desk_url": desk_url(game.campaign.slug),
            "reader": reader,
            "rows": table_rows(state, reader, users),
            "longest": holder(state, state.longest, state.routes, "a route of {}"),
            "army": holder(state, state.army, state.knights, "{} knights played"),
            "target": state.rules.victory_points,
            "route_min": state.rules.longest_route_min,
            "army_min": state.rules.largest_army_min,
            "turn": {"number": state.number, "phase": state.phase},
            "public_png": public_png_url(request, game),
        },
    )


def table_rows(state: State, reader: Reader, seats: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per player in seat order. B19's points as the table shows them: a player's own
    (and the moderator's view) with their Victory Point cards, everyone else's without (G5); the
    winner's whole once the game is won, as its `won` event says (docs/rulings.md S-36)."""
    colours = player_colours([{"id": pid} for pid in state.players])
    waiting = set(waiting_for(state))
    rows = []
    for p, pid in enumerate(state.players):
        own = reader.moderator or reader.player == pid or p == state.winner
        held = [card for card, _ in state.dev_cards[p]]
        hidden = held.count("victory_point")
        seat = seats.get(pid)
        row: dict[str, Any] = {
            "player": pid,
            "colour": colours[pid],
            "who": "bot" if seat is None or seat.bot else seat.user.username,
            "you": reader.player == pid,
            "to_act": pid in waiting,
            "points": state.vp(p) if own else state.vp(p) - hidden,
            "hidden": hidden if own else None,
            "special": sum(t[1] for t in state.svp[p]),
            "holds": [
                title
                for title, q in (
                    ("Longest Trade Route", state.longest),
                    ("Largest Army", state.army),
                )
                if q == p
            ],
            "settlements": state.settlements[p],
            "cities": state.cities[p],
            "route": state.routes[p],
            "knights": state.knights[p],
            "hand_count": sum(state.hands[p]),
            "card_count": len(held),
            "hand": cards(dict(zip(RESOURCES, state.hands[p], strict=True))) if own else None,
            "cards": [CARD_NAMES.get(c, c) for c in sorted(held)] if own else None,
        }
        rows.append(row)
    return rows


def holder(state: State, p: int, counts: Sequence[int], what: str) -> str:
    """Who holds a 2-point card (B17, X10), or nobody."""
    if p < 0:
        return "nobody"
    return f"{state.players[p]}, with {what.format(counts[p])}"


# -- the board as a picture ---------------------------------------------------------------------
def public_signature(game: Game) -> str:
    """The public picture's key: the game's id with its slug, signed with the SECRET_KEY. A
    new game on a reused slug gets another; the link works as long as the game and the key."""
    return signing.Signer(salt=PUBLIC_SALT).signature(f"{game.pk}:{game.campaign.slug}")


def public_png_url(request: HttpRequest, game: Game, *, at: int | None = None) -> str:
    path = reverse("seafarers_board_public", args=[game.campaign.slug, public_signature(game)])
    return request.build_absolute_uri(path + (f"?at={at}" if at is not None else ""))


@login_required
@require_safe  # GET and HEAD: a forum's proxy may ask with HEAD first
def board_png_member(request: HttpRequest, slug: str) -> HttpResponse:
    game = game_get_for_user(request.user, slug)
    return _board_response(request, game, public=False)


@require_safe
def board_png_public(request: HttpRequest, slug: str, signature: str) -> HttpResponse:
    """For anyone with the link (no login: a forum's visitors, Discord's image proxy)."""
    game = Game.objects.select_related("campaign").filter(campaign__slug=slug).first()
    if game is None or not constant_time_compare(signature, public_signature(game)):
        raise Http404("No such picture.")
    return _board_response(request, game, public=True)


def _board_response(request: HttpRequest, game: Game, *, public: bool) -> HttpResponse:
    """The board after the log's first `?at=` actions (default: all) as PNG. Its ETag names the
    game, the log's length and the last action's row (an undone action's row is deleted, so a
    new one after an undo gets another id): a browser or a forum's proxy asks again and gets
    304 while nothing changed. The drawn bytes are kept in the cache under the same name."""
    at = _at(request.GET.get("at"), game.log_length)
    last = game.actions.filter(index__lt=at).order_by("-index").values_list("pk", "events").first()
    etag = f'"board-{game.pk}-{at}-{last[0] if last else 0}"'
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        key = "seafarers-png:" + hashlib.sha256(etag.encode()).hexdigest()
        png = _cache_get(key)
        if png is None:
            if at == game.log_length:
                state = current_position(game)
            else:
                actions = game.actions.filter(index__lt=at).order_by("index")
                state = replay(game.first_position, actions.values_list("action", flat=True))
            svg = board_svg(state, viewer=None, last_action_events=list(last[1]) if last else [])
            png = board_png(svg)
            _cache_set(key, png)
        response = HttpResponse(png, content_type="image/png")
    response["ETag"] = etag
    if not public:
        patch_cache_control(response, private=True, no_cache=True)
    elif "at" in request.GET:
        patch_cache_control(response, public=True, max_age=3600)  # an undo may still change it
    else:
        patch_cache_control(response, public=True, max_age=60)  # the board as it stands
    return response


def _at(raw: str | None, length: int) -> int:
    if raw is None:
        return length
    if not re.fullmatch(r"\d{1,9}", raw) or int(raw) > length:
        raise Http404("No such position: `at` counts the log's actions played.")
    return int(raw)


def _cache_get(key: str) -> bytes | None:
    try:
        found = cache.get(key)
    except Exception:  # a cache out of reach (Redis down) only means drawing again
        return None
    return found if isinstance(found, bytes) else None


def _cache_set(key: str, png: bytes) -> None:
    with contextlib.suppress(Exception):  # not kept: drawn again next time
        cache.set(key, png, getattr(settings, "MAP_CACHE_SECONDS", 3600))
