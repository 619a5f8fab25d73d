"""The moderator's pages of a seafaring game (issue 13, "Setting up" and "Moderating").

A new game (from a bundled board, the seeded generator or a scenario file) for staff, and the
game's dashboard for its moderator alone: the status, whom the game waits for and what they owe,
the time each player has taken, the whole board (the moderator sees everything), the last
actions, and the moderator's actions — start, undo, act for a player (G4), award special points
(X19), pause and resume, replace a player, export the game as a scenario file.

Every action is a service of seafarers/services.py (audited there, with the reason); this module
only fetches, checks the page was not stale, and shows the outcome. Anyone but the campaign's
moderator gets a 404 — the same as for a slug no game has — so a game's existence is not given
away; a visitor who is not logged in is sent to the login page, whatever the slug.

Function views, django-htmx style: a button posts with htmx and gets the dashboard's panel back
with the outcome inline; without JavaScript the same form posts normally and is redirected to the
dashboard with the outcome as a message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaign.audit_log import audit_lines
from campaign.exporting import game_file_text
from campaign.models import AuditEntry, Campaign, language_choices
from campaign.scenario_files import described
from campaign.selectors import moderates
from engine.kernel.problems import ScenarioError
from engine.seafarers import State, generate_board, legal_actions, new_game, parse_scenario
from seafarers.action_words import action_words
from seafarers.board_places import Places
from seafarers.board_svg import player_colours, tappable_board
from seafarers.board_targets import targets_of
from seafarers.boards import COLOURS, bundled_document
from seafarers.models import Game
from seafarers.moderate_forms import (
    ActForForm,
    AwardForm,
    BoardActForForm,
    LanguageForm,
    NewGameForm,
    ReasonForm,
    ReminderForm,
    ReplaceForm,
    action_key,
)
from seafarers.positions import replay, waiting_for
from seafarers.scenario_files import game_document
from seafarers.services import (
    GameRefused,
    act_for,
    award_svp,
    game_create,
    game_pause,
    game_resume,
    game_start,
    game_undo,
    seat_replace,
)
from seafarers.views.play import place_groups

LAST_ACTIONS = 15  # actions listed on the dashboard, the latest first
AUDIT_SHOWN = 10

View = Callable[..., HttpResponse]


# -- access ---------------------------------------------------------------------------------
def moderator_only(view: View) -> View:
    """The game of `slug` for its campaign's moderator; a 404 for anyone else (the same as for
    no game at all); the login page for a visitor not logged in, whatever the slug."""

    @wraps(view)
    def wrapped(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        game = (
            Game.objects.select_related("campaign").filter(campaign__slug=slug).first()
            if "\x00" not in slug
            else None
        )
        if game is None or not moderates(request.user, game.campaign_id):
            raise Http404("No such game.")
        return view(request, game, **kwargs)

    return wrapped


# -- a new game -----------------------------------------------------------------------------
@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest) -> HttpResponse:
    """A new seafaring game, for staff (moderators): its creator becomes its moderator."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not request.user.is_staff:
        raise Http404("No such page.")
    form = NewGameForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():  # the game and its settings' audit entry, or neither
                game = _create(form, request.user)
        except GameRefused as refusal:
            form.add_error(None, f"{refusal.message} ({refusal.code}).")
        except ScenarioError as error:
            text = getattr(form, "text", None) if form.cleaned_data["source"] == "file" else None
            problems = described(error.problems, text)
        except IntegrityError:  # the slug taken in the meantime
            form.add_error("slug", "That slug is taken by another campaign (slug_taken).")
        else:
            messages.success(request, f"{game.campaign.name} created: check the seats, then start.")
            return HttpResponseRedirect(_dashboard_url(game))
    problems = problems or getattr(form, "problems", [])
    return render(
        request,
        "seafarers/moderate/new.html",
        {"form": form, "problems": problems, "title": "A new seafaring game"},
    )


def _create(form: NewGameForm, moderator: Any) -> Game:
    """The game from the form through `game_create`. Without the pirate (X16: the variant is
    played when the board places it), the board is given as a document without `board.pirate`.
    A file's actions become the log; such a game comes in paused, so that no bot moves before
    the moderator has looked (docs/rulings.md S-31)."""
    cleaned = form.cleaned_data
    seats: list[str | None] = cleaned["seats"]
    source, pirate_off = cleaned["source"], cleaned["pirate"] == "off"
    given: dict[str, Any]
    if source == "file":
        document = dict(form.document or {})
        parse_scenario(document)  # every problem of the file first, before the rules are merged
        if pirate_off and isinstance(document.get("board"), dict):
            document["board"] = _without_pirate(document["board"])
        given = {"document": document, "paused": bool(document.get("actions"))}
    elif pirate_off:
        if len(seats) > len(COLOURS):
            raise GameRefused("bad_seats", f"a game has 2 to {len(COLOURS)} seats")
        if source == "board":
            bundled = bundled_document(cleaned["board"]) or {}
            board, rules = bundled.get("board") or {}, bundled.get("rules")
        else:
            board, rules = generate_board(cleaned["generator_seed"]), None
        players = list(COLOURS[: len(seats)])
        given = {"document": new_game(_without_pirate(board), players, 0, rules)}
    elif source == "board":
        given = {"board": cleaned["board"]}
    else:
        given = {"generator_seed": cleaned["generator_seed"]}
    rules_set = form.rules()
    game = game_create(
        name=cleaned["name"],
        slug=cleaned["slug"],
        moderator=moderator,
        seats=seats,
        rules=rules_set or None,
        **given,
    )
    if cleaned.get("reminder_hours"):
        game.reminder_hours = cleaned["reminder_hours"]
        game.save(update_fields=["reminder_hours"])
    if cleaned.get("language") and cleaned["language"] != game.campaign.language:
        Campaign.objects.filter(pk=game.campaign_id).update(language=cleaned["language"])
        game.campaign.language = cleaned["language"]
    AuditEntry.objects.create(
        campaign=game.campaign,
        user=moderator,
        action="game_settings",
        detail={
            "source": {"board": cleaned["board"], "generator": cleaned["generator_seed"]}.get(
                source, "file"
            ),
            "pirate": not pirate_off,
            "rules": rules_set,
            "seats": [seat or "bot" for seat in seats],
            "reminder_hours": game.reminder_hours,
            "language": game.campaign.language,
        },
    )
    return game


def _without_pirate(board: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in board.items() if key != "pirate"}


# -- the dashboard --------------------------------------------------------------------------
@require_GET
@moderator_only
def dashboard(request: HttpRequest, game: Game) -> HttpResponse:
    return render(request, "seafarers/moderate/dashboard.html", panel_context(request, game))


def panel_context(request: HttpRequest, game: Game, **note: Any) -> dict[str, Any]:
    """What the dashboard shows of the game now; `note`: the outcome of the last button."""
    rows = list(
        game.actions.order_by("index").values(
            "index", "action", "sender", "created_at", "events", "user__username"
        )
    )
    state = replay(game.first_position, (row["action"] for row in rows))
    seats = list(game.seats.select_related("membership__user").order_by("order"))
    started = game.status != Game.Status.NEW
    waiting = waiting_for(state) if started else []
    start = _started_at(game)
    taken = time_taken(start, rows, waiting, timezone.now()) if start else {}
    live = game.status in (Game.Status.SETUP, Game.Status.PLAYING)
    index = {"index": game.log_length}
    colours = player_colours([{"id": pid} for pid in state.players])
    places = Places(state)  # every place in the players' words (issue 20 §4)
    legal = {player: legal_actions(state, player) for player in waiting} if live else {}
    events = rows[-1]["events"] if rows else []
    on_board = _on_board(state, legal, places, events, note.get("kept_reason") or {}, index)
    context: dict[str, Any] = {
        "game": game,
        "campaign": game.campaign,
        "title": f"{game.campaign.name}: moderation",
        "state": state,
        "turn": _turn_words(state) if started else "not started",
        "seats": [
            {
                "seat": seat,
                "colour": seat.player,
                "swatch": colours.get(seat.player, "#fff"),  # as the board draws the seat
                "holder": "the bot" if seat.bot else seat.user.username if seat.user else "—",
                "points": state.vp(q) if started else 0,
                "cards": sum(state.hands[q]),
                "taken": _duration(taken.get(seat.player, timedelta())),
                "waiting": seat.player in waiting,
                "owes": _owes(state, q) if seat.player in waiting else "",
            }
            for q, seat in enumerate(seats)
        ],
        "waiting": waiting,
        "buttons": [b for b in _buttons(game) if b["name"] != "start" or not started],
        **on_board,
        "last": [
            {
                "index": row["index"],
                "when": row["created_at"],
                "player": row["action"].get("player"),
                "what": action_words(row["action"], places),
                "by_moderator": bool(row["action"].get("by_moderator")),
                "sender": row["user__username"] or row["sender"],
            }
            for row in reversed(rows[-LAST_ACTIONS:])
        ],
        "act_for": [
            (
                player,
                ActForForm(
                    legal=legal[player], places=places, initial=index, prefix=f"act-{player}"
                ),
            )
            for player in waiting
        ]
        if live
        else [],
        "act_for_why_not": _act_for_why_not(game),
        "award": AwardForm(state=state, places=places, initial={**index, "points": 1})
        if started
        else None,
        "replace": ReplaceForm(players=[s.player for s in seats], initial=index),
        "reminder": ReminderForm(initial={**index, "hours": game.reminder_hours}),
        "language": LanguageForm(initial={**index, "language": game.campaign.language}),
        "audit": audit_lines(  # in words, the action's id beside (issue 11)
            game.campaign,
            AuditEntry.objects.filter(campaign=game.campaign).select_related("user", "turn")[
                :AUDIT_SHOWN
            ],
        ),
        **note,
    }
    context["waiting_seats"] = [s for s in context["seats"] if s["waiting"]]
    return context


def _started_at(game: Game) -> datetime | None:
    """When setup began (the game_start entry of the audit log); an imported game with a log,
    when it was created."""
    if game.status == Game.Status.NEW:
        return None
    entry = (
        AuditEntry.objects.filter(campaign_id=game.campaign_id, action="game_start")
        .order_by("-created_at", "-id")
        .values_list("created_at", flat=True)
        .first()
    )
    return entry or game.created_at


def time_taken(
    start: datetime, rows: Iterable[Mapping[str, Any]], waiting: list[str], now: datetime
) -> dict[str, timedelta]:
    """How long each player has taken (docs/rulings.md S-30): the time from the action before
    (or the start) to each action is the acting player's, and the time since the last action
    is each waited-for player's. While several players owe a discard or a gold pick, each is
    counted the whole wait, since each held the game up. Pauses are not taken off."""
    taken: dict[str, timedelta] = {}
    before = start
    for row in rows:
        player = row["action"].get("player")
        if player is not None and row["action"].get("type") != "award_svp":
            taken[player] = taken.get(player, timedelta()) + max(
                row["created_at"] - before, timedelta()
            )
        before = row["created_at"]
    for player in waiting:
        taken[player] = taken.get(player, timedelta()) + max(now - before, timedelta())
    return taken


def _duration(span: timedelta) -> str:
    minutes = int(span.total_seconds()) // 60
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    if days:
        return f"{days} d {hours} h"
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


def _turn_words(state: State) -> str:
    if state.phase == "over":
        winner = state.players[state.winner] if state.winner is not None else "?"
        return f"over: {winner} won"
    where = f"setup round {state.setup_round or 1}" if state.in_setup() else f"turn {state.number}"
    return f"{where}, {state.players[state.player]} to play ({state.phase.replace('_', ' ')})"


def _owes(state: State, q: int) -> str:
    if state.phase == "discard" and state.discard[q]:
        return f"owes a discard of {state.discard[q]} (B11)"
    if state.phase == "gold" and state.gold_picks[q]:
        return f"owes {state.gold_picks[q]} gold pick(s) (GD4)"
    return "to play"


def _on_board(
    state: State,
    legal: Mapping[str, list[dict[str, Any]]],
    places: Places,
    events: list[dict[str, Any]],
    kept_reason: Mapping[str, str],
    index: dict[str, int],
) -> dict[str, Any]:
    """The whole board (no viewer: nothing is hidden on it, S-37), the last action ringed, and
    — when a seat the game waits for may act on a place — that seat's targets on it, as its
    desk draws them (`tappable_board`), with the form a tap sends for it through `act_for`
    (G4, issue 20 §4; several waiting only to discard or pick gold, which name no place, so
    the first with a place is the one). The board's key apart; `board` None for a graph board
    (rule tests), which has no geometry to draw."""
    player, targets = next(
        ((p, t) for p, actions in legal.items() if (t := targets_of(actions, p, places))),
        (None, []),
    )
    try:
        board, key = tappable_board(
            state,
            viewer=None,
            legal=legal[player] if player is not None else [],
            events=events,
            has_targets=bool(targets),
            targets_for=player,
        )
    except ValueError:
        return {"board": None, "key": None, "board_for": None}
    if player is None:
        return {"board": board, "key": key, "board_for": None}
    groups = [
        (group, [(t.action_json, t.label) for t in shown]) for group, shown in place_groups(targets)
    ]
    form = BoardActForForm(
        groups=groups,
        initial={**index, "reason": kept_reason.get(player, "")},
        prefix=f"act-{player}",
        auto_id="board-%s",
    )
    moves_ships = any(t.source is not None for t in targets)
    return {
        "board": board,
        "key": key,
        "board_for": {"player": player, "form": form, "moves_ships": moves_ships},
    }


def _buttons(game: Game) -> list[dict[str, Any]]:
    """The dashboard's plain buttons, each allowed or not with the code and words it would be
    refused with (the services' own)."""
    status = game.status
    return [
        {
            "name": "start",
            "label": "Start (draw the seed, begin setup)",
            "why_not": None
            if status == Game.Status.NEW
            else ("already_started", "the game has started already"),
        },
        {
            "name": "undo",
            "label": "Undo the last action",
            "why_not": None if game.log_length else ("nothing_to_undo", "the log is empty"),
        },
        {
            "name": "pause",
            "label": "Pause",
            "why_not": None
            if status in (Game.Status.SETUP, Game.Status.PLAYING)
            else ("cannot_pause", f"a game that is {status} cannot be paused"),
        },
        {
            "name": "resume",
            "label": "Resume",
            "why_not": None
            if status == Game.Status.PAUSED
            else ("not_paused", "the game is not paused"),
        },
    ]


def _act_for_why_not(game: Game) -> tuple[str, str] | None:
    if game.status == Game.Status.NEW:
        return ("not_started", "the game has not started yet")
    if game.status == Game.Status.PAUSED:
        return ("game_paused", "the game is paused by the moderator: resume it to act")
    if game.status == Game.Status.OVER:
        return ("game_over", "the game is over: nobody acts (undo to go back)")
    return None


def _dashboard_url(game: Game) -> str:
    return reverse("seafarers_moderate", args=[game.campaign.slug])


# -- the buttons ----------------------------------------------------------------------------
SIMPLE: dict[str, Callable[..., Any]] = {
    "start": game_start,
    "undo": game_undo,
    "pause": game_pause,
    "resume": game_resume,
}
DONE = {
    "start": "Started: the seed is drawn, setup begins.",
    "undo": "The last action is undone.",
    "pause": "Paused: every action is refused until you resume.",
    "resume": "Resumed.",
}


@require_POST
@moderator_only
def game_action(request: HttpRequest, game: Game, action: str) -> HttpResponse:
    """Start, Undo, Pause, Resume: with the log's length the page showed (a stale page is
    refused `game_moved_on`, so an undo never takes back an action the moderator did not see)
    and an optional reason, kept in the audit log."""
    if action == "reminder":
        return _reminder(request, game)
    if action == "language":
        return _language(request, game)
    service = SIMPLE.get(action)
    if service is None:
        raise Http404("No such action.")
    form = ReasonForm(request.POST)

    def call(locked: Game) -> None:
        if action == "start":
            service(game=locked, user=request.user)
        else:
            service(game=locked, user=request.user, reason=form.cleaned_data["reason"])

    return _outcome(request, game, lambda: _on_shown(game, form, call), DONE[action])


def _reminder(request: HttpRequest, game: Game) -> HttpResponse:
    """The reminder's time (Game.reminder_hours) changed, with a reason (audited,
    `reminder_hours`: the old and new hours); a stale page is refused `game_moved_on` like the
    other buttons (docs/rulings.md S-38)."""
    form = ReminderForm(request.POST)

    def call(locked: Game) -> None:
        hours, reason = form.cleaned_data["hours"], form.cleaned_data["reason"].strip()
        if not reason:
            raise GameRefused("reason_required", "say why the reminder's time changes")
        if hours == locked.reminder_hours:
            raise GameRefused("unchanged", f"a player is reminded after {hours} h already")
        Game.objects.filter(pk=locked.pk).update(reminder_hours=hours)
        AuditEntry.objects.create(
            campaign=locked.campaign,
            user=request.user,
            action="reminder_hours",
            reason=reason,
            detail={"old": locked.reminder_hours, "new": hours},
        )

    hours = request.POST.get("hours", "")
    return _outcome(
        request,
        game,
        lambda: _on_shown(game, form, call),
        f"A player the game waits on is now reminded after {hours} h.",
    )


def _language(request: HttpRequest, game: Game) -> HttpResponse:
    """The game's language (Campaign.language, issue 22) changed, audited `campaign_language`
    with the old and new; a stale page is refused `game_moved_on` like the other buttons.
    Stored and shown for now: the log's exports and posts will follow it."""
    form = LanguageForm(request.POST)

    def call(locked: Game) -> None:
        code, old = form.cleaned_data["language"], locked.campaign.language
        if code == old:
            raise GameRefused(
                "unchanged", f"the game is in {locked.campaign.get_language_display()} already"
            )
        Campaign.objects.filter(pk=locked.campaign_id).update(language=code)
        AuditEntry.objects.create(
            campaign=locked.campaign,
            user=request.user,
            action="campaign_language",
            reason=form.cleaned_data["reason"].strip(),
            detail={"old": old, "new": code},
        )

    name = dict(language_choices()).get(request.POST.get("language", ""), "")
    return _outcome(
        request, game, lambda: _on_shown(game, form, call), f"The game's language is now {name}."
    )


@require_POST
@moderator_only
def act_for_player(request: HttpRequest, game: Game, player: str) -> HttpResponse:
    """G4: an action sent for the player the game waits for, marked by_moderator in the log,
    with its reason in the audit log (act_for)."""
    form = ActForForm(request.POST, prefix=f"act-{player}")
    # The reason stays in the board's box for the seat's next action (a turn played for an
    # absent player is several actions for one reason).
    reason = request.POST.get(f"act-{player}-reason", "")

    def send() -> None:
        cleaned = _cleaned(form)
        try:
            action = form.chosen()
        except (ValueError, TypeError):
            raise GameRefused("invalid_action", "the action is not one the page offered") from None
        if not isinstance(action, dict):
            raise GameRefused("invalid_action", "the action is not one the page offered")
        act_for(
            game=game,
            user=request.user,
            action={**action, "player": player},
            expected_index=cleaned["index"],
            reason=cleaned["reason"],
        )

    return _outcome(
        request,
        game,
        send,
        f"Sent for {player}; marked by_moderator in the log.",
        keep={"kept_reason": {player: reason[:500]}},
    )


@require_POST
@moderator_only
def award(request: HttpRequest, game: Game) -> HttpResponse:
    """X19, G4: special points under a player's building."""
    form = AwardForm(request.POST)

    def send() -> None:
        cleaned = _cleaned(form)
        if not cleaned["reason"].strip():
            raise GameRefused("reason_required", "say why the points are awarded")
        player, node = form.player_and_node()
        award_svp(
            game=game,
            user=request.user,
            player=player,
            node=node,
            points=cleaned["points"],
            expected_index=cleaned["index"],
            reason=cleaned["reason"],
        )

    return _outcome(request, game, send, "Special points awarded.")


@require_POST
@moderator_only
def replace(request: HttpRequest, game: Game) -> HttpResponse:
    """The seat passes to another user or to the bot; the old player's access ends with it."""
    players = list(game.seats.values_list("player", flat=True))
    form = ReplaceForm(request.POST, players=players)

    def call(locked: Game) -> None:
        cleaned = form.cleaned_data
        seat_replace(
            game=locked,
            user=request.user,
            player=cleaned["player"],
            username=cleaned["username"],
            reason=cleaned["reason"],
        )

    # Refused, the answer is shown at the form, with what was typed kept to correct.
    kept = {"replace": ReplaceForm(request.POST, players=players), "refusal_at": "replace"}
    return _outcome(
        request, game, lambda: _on_shown(game, form, call), "The seat is passed on.", kept
    )


@require_GET
@moderator_only
def export(request: HttpRequest, game: Game) -> HttpResponse:
    """The game as a seafarers-scenario/1 file: the first position (its seed) and every action,
    so `adjudicate` replays it exactly and importing it gives the same game."""
    body = game_file_text(game_document(game))  # what campaign_export writes too
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    name = f"{game.campaign.slug}.seafarers.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _cleaned(form: Any) -> dict[str, Any]:
    """A form's values, or its first problem as a refusal (its message names the field)."""
    if form.is_valid():
        cleaned: dict[str, Any] = form.cleaned_data
        return cleaned
    field, errors = next(iter(form.errors.items()))
    where = "" if field == "__all__" else f"{form.fields[field].label or field}: "
    raise GameRefused("invalid_request", f"{where}{' '.join(errors)}".rstrip("."))


def _on_shown(game: Game, form: Any, call: Callable[[Game], None]) -> None:
    """`call` on the game's row locked, if the log is still as long as the page showed it."""
    cleaned = _cleaned(form)
    with transaction.atomic():
        locked = Game.objects.select_for_update().select_related("campaign").get(pk=game.pk)
        if cleaned["index"] != locked.log_length:
            raise GameRefused("game_moved_on", "the game moved on since this page was shown")
        call(locked)


def _outcome(
    request: HttpRequest,
    game: Game,
    send: Callable[[], None],
    done: str,
    kept: Mapping[str, Any] | None = None,
    keep: Mapping[str, Any] | None = None,
) -> HttpResponse:
    """Runs the button's service; the panel with the outcome inline (htmx), or the dashboard
    with it as a message (a plain form). `kept`: for a refusal shown at its form rather than on
    top (`refusal_at`), the form as posted, so that nothing typed is lost; without htmx the
    dashboard is then drawn with it rather than redirected to. `keep`: what the panel drawn
    again keeps of the post, refused or not (the board's reason)."""
    refusal: tuple[str, str] | None = None
    try:
        send()
    except GameRefused as refused:
        refusal = (refused.code, refused.message)
    game.refresh_from_db()
    htmx = getattr(request, "htmx", False)  # django_htmx's middleware
    if htmx or (refusal and kept):
        note = {"refusal": refusal, **(kept or {})} if refusal else {"done": done}
        note.update(keep or {})
        template = "seafarers/moderate/dashboard.html" + ("#panel" if htmx else "")
        return render(request, template, panel_context(request, game, **note))
    if refusal:
        messages.error(request, f"Refused: {refusal[1]} ({refusal[0]}).")  # words first
    else:
        messages.success(request, done)
    return HttpResponseRedirect(_dashboard_url(game))


__all__ = [
    "act_for_player",
    "action_key",
    "award",
    "dashboard",
    "export",
    "game_action",
    "game_new",
    "replace",
    "time_taken",
]
