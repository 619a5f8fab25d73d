"""The seafaring game's services (HackSoft style: they write; keyword-only arguments).

The game is sequential (seafarers.md G1): one action at a time, applied when it is sent, under
`select_for_update` of the game's row. An applied action is stored with the state it produced
in one transaction, so a crash leaves the game at its last whole action; a refused one raises
`GameRefused` inside that transaction and changes nothing. Every change of the position is a
replay of the first position and the log (positions.py), never a patch (G3).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from typing import Any

from celery import shared_task
from django.contrib.auth import get_user_model
from django.db import InterfaceError, OperationalError, transaction

from campaign.memberships import membership_audit, membership_shown
from campaign.models import AuditEntry, Campaign, Membership
from campaign.selectors import moderates
from engine.kernel.problems import Problem, ScenarioError
from engine.seafarers import (
    Refused,
    State,
    apply_action,
    bot_action,
    generate_board,
    new_game,
    parse_scenario,
    state_to_dict,
)
from seafarers.boards import COLOURS, bundled_document
from seafarers.models import Action, Game, Outbox, Seat, SeatKey, TradeOffer
from seafarers.notifications import as_task_args, news
from seafarers.outbox import DatabaseUnavailable, Owed, owe, plays_bots_with
from seafarers.positions import replay, status_of, waiting_for

Document = dict[str, Any]
BOT = None  # a seat given to the engine's bot, in `seats`
SEED_BITS = 63  # a seed fits a BigIntegerField


# X24: the other player has accepted — a domestic trade is never sent as a bare action, only
# applied by seafarers/offers.py when an offer is accepted (docs/rulings.md S-25).
OFFER_REQUIRED = "offer_required"
OFFER_REQUIRED_MESSAGE = (
    "a domestic trade is made by an offer the other player accepts (X24): make an offer"
)


class GameRefused(ValueError):
    """A refused request: a stable code (the engine's, or one of this app's) and plain words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# The database dropped the connection (a restart, a network cut) or stayed locked past the
# timeout (SQLite) while an action was being applied: its transaction is rolled back, or — if
# the connection went during COMMIT — its outcome is unknown. Either way the expected index
# makes sending it again safe: applied once, or refused `game_moved_on` (issue 14).
DATABASE_UNAVAILABLE = (
    "the database did not answer, so the action may not have been applied: "
    "reload the game and, if it has not moved on, send it again"
)


# -- creating -------------------------------------------------------------------------------
def game_create(
    *,
    name: str,
    slug: str,
    moderator: Any,
    seats: Sequence[str | None],
    board: str | None = None,
    generator_seed: int | None = None,
    document: Document | None = None,
    rules: Document | None = None,
    paused: bool = False,
) -> Game:
    """A new game on a new campaign (ruleset "seafarers"), from a bundled board, the seeded
    generator, or a scenario document (every problem with its path: ScenarioError). Seats in
    seat order: a user name each, or BOT. A document's actions become the log (G1), so an
    exported game imported again is the same game. Each user's seat is held by a player
    membership of the new campaign, made here and audited as the admin's are (R-49); the
    moderator holds none (docs/rulings.md S-41)."""
    if sum(x is not None for x in (board, generator_seed, document)) != 1:
        raise GameRefused("bad_source", "give one of a bundled board, a generator seed, a file")
    actions: list[Document] = []
    if document is not None:
        first = {k: v for k, v in document.items() if k != "actions"}
        raw_actions = document.get("actions") or []
        actions = list(raw_actions) if isinstance(raw_actions, list) else []
    else:
        if board is not None:
            bundled = bundled_document(board)
            if bundled is None:
                raise GameRefused("unknown_board", f"there is no bundled board {board!r}")
            board_doc, board_rules = bundled["board"], bundled.get("rules")
        else:
            board_doc, board_rules = generate_board(generator_seed or 0), None
        if not 2 <= len(seats) <= len(COLOURS):
            raise GameRefused("bad_seats", f"a game has 2 to {len(COLOURS)} seats")
        first = new_game(board_doc, list(COLOURS[: len(seats)]), 0, board_rules)
    if rules:
        first["rules"] = {**(first.get("rules") or {}), **rules}
    state = _checked_start(first, actions)
    if len(seats) != len(state.players):
        raise GameRefused(
            "bad_seats", f"the board has {len(state.players)} players; {len(seats)} seats given"
        )
    users = _users_by_name(seats)
    if moderator is not None and any(u.pk == moderator.pk for u in users.values()):
        raise GameRefused("bad_seats", MODERATOR_SEATLESS.format(name=moderator.get_username()))
    with transaction.atomic():
        campaign = Campaign.objects.create(name=name, slug=slug, ruleset="seafarers")
        if moderator is not None:
            Membership.objects.create(user=moderator, campaign=campaign, role="moderator")
        members = {
            name: Membership.objects.create(user=u, campaign=campaign, role="player")
            for name, u in users.items()
        }
        started = bool(actions)
        status = status_of(state) if started else Game.Status.NEW
        game = Game.objects.create(
            campaign=campaign,
            status=Game.Status.PAUSED if paused and started and status != "over" else status,
            first_position=first,
            state=state_to_dict(state),
            log_length=len(actions),
        )
        Seat.objects.bulk_create(
            Seat(
                game=game,
                order=q,
                player=pid,
                membership=members.get(seats[q] or ""),
                bot=not seats[q],
            )
            for q, pid in enumerate(state.players)
        )
        _log_rows(game, actions)
        source = board or ("file" if document else f"generator {generator_seed}")
        _audit(game, user=moderator, action="game_create", source=source)
        for pid, held_by in zip(state.players, seats, strict=True):
            if held_by:
                _membership_added(members[held_by], by=moderator, seat=pid, reason=NEW_GAME)
    return game


def _checked_start(first: Document, actions: list[Document]) -> State:
    """The first position read (ScenarioError: every problem with its path) and its actions
    applied; a refused action is a problem of the file at its place (`actions[i]`)."""
    state = parse_scenario(first).state.copy()
    problems = []
    for i, action in enumerate(actions):
        if not isinstance(action, dict):  # a hand-edited file's null or list (found by fuzzing)
            problems.append(Problem(f"actions[{i}]", "an action is an object with a type"))
            break
        try:
            apply_action(state, dict(action))
        except Refused as refusal:
            problems.append(Problem(f"actions[{i}]", f"refused ({refusal.code}): {refusal}"))
            break  # what follows was played from a position this log never reached
    if problems:
        raise ScenarioError(problems)
    return state


def _users_by_name(seats: Sequence[str | None]) -> dict[str, Any]:
    names = [name for name in seats if name]
    if len(set(names)) != len(names):
        raise GameRefused("bad_seats", "a user holds one seat at most")
    users = {u.username: u for u in get_user_model().objects.filter(username__in=names)}
    unknown = [name for name in names if name not in users]
    if unknown:
        raise GameRefused("unknown_user", f"no user named {', '.join(map(repr, unknown))}")
    return users


def _log_rows(game: Game, actions: list[Document]) -> None:
    """An imported log's rows; their events come from replaying it."""
    state = parse_scenario(game.first_position).state.copy()
    rows = []
    for i, action in enumerate(actions):
        events = apply_action(state, dict(action))
        sender = Action.Sender.MODERATOR if action.get("by_moderator") else Action.Sender.PLAYER
        rows.append(Action(game=game, index=i, action=action, sender=sender, events=events))
    Action.objects.bulk_create(rows)


def game_start(*, game: Game, user: Any) -> Game:
    """The seed drawn (`secrets`) and kept in the first position (G2); setup begins (B20)."""
    with transaction.atomic():
        game = _locked(game)
        _moderator(game, user)
        if game.status != Game.Status.NEW:
            raise GameRefused("already_started", "the game has started already")
        game.first_position = {**game.first_position, "seed": secrets.randbits(SEED_BITS)}
        state = replay(game.first_position, [])
        game.state = state_to_dict(state)
        game.status = status_of(state)
        game.save(update_fields=["first_position", "state", "status"])
        _audit(game, user=user, action="game_start")
        _after_change(game, state, [])
    return game


# -- acting ---------------------------------------------------------------------------------
# S-43: how many accepted offers a page may have missed (a turn's trades; more is a stale page).
MAX_TRADES_UNSEEN = 20


def action_submit(
    *,
    game: Game,
    user: Any,
    action: Document,
    expected_index: int,
    bot: bool = False,
    accepted_offer: bool = False,
) -> Action:
    """A seat's action (G1): the sender must hold the seat of `action["player"]` (or the worker
    for a bot seat), `expected_index` must be the log's length (else `game_moved_on`), then the
    engine checks and applies (X25). The moderator acts for a seat only through `act_for`.
    A domestic trade is sent only by seafarers/offers.py, when the other side accepted an
    offer (`accepted_offer`; X24)."""
    if not isinstance(action, dict) or not isinstance(action.get("player"), str):
        raise GameRefused("invalid_action", "an action is an object with a type and a player")
    if action.get("type") == "domestic_trade" and not accepted_offer:
        raise GameRefused(OFFER_REQUIRED, OFFER_REQUIRED_MESSAGE)
    if "by_moderator" in action:
        raise GameRefused("invalid_action", "by_moderator is the server's to set (G4)")
    if action.get("type") == "award_svp":
        raise GameRefused("moderator_only", "special points are the moderator's to award (X19)")
    if action.get("type") == "roll" and "dice" in action:
        raise GameRefused("invalid_action", "the server rolls the dice (G2)")

    def may_send(seat: Seat) -> None:
        if bot and not seat.bot:
            raise GameRefused("not_your_seat", f"{seat.player} is not a bot's seat")
        if not bot and (seat.bot or user is None or seat.user_id != user.pk):
            raise GameRefused("not_your_seat", f"you do not play {seat.player}")

    sender = Action.Sender.BOT if bot else Action.Sender.PLAYER
    return _submit(
        game, action, expected_index, user=None if bot else user, sender=sender, may_send=may_send
    )


def act_for(*, game: Game, user: Any, action: Document, expected_index: int, reason: str) -> Action:
    """G4: the moderator sends an action for a player who holds the game up; the log marks it
    `by_moderator`, the audit log keeps the reason."""
    if not reason.strip():
        raise GameRefused("reason_required", "say why you act for the player")
    if not isinstance(action, dict) or not isinstance(action.get("player"), str):
        raise GameRefused("invalid_action", "an action is an object with a type and a player")
    if action.get("type") == "domestic_trade":
        raise GameRefused(OFFER_REQUIRED, OFFER_REQUIRED_MESSAGE)
    if action.get("type") == "roll" and "dice" in action:
        raise GameRefused("invalid_action", "the server rolls the dice (G2)")
    sent = {**action, "by_moderator": True}
    return _submit(
        game,
        sent,
        expected_index,
        user=user,
        sender=Action.Sender.MODERATOR,
        may_send=lambda seat: _moderator(game, user),
        reason=reason,
    )


def award_svp(
    *,
    game: Game,
    user: Any,
    player: str,
    node: str,
    points: int,
    expected_index: int,
    reason: str = "",
) -> Action:
    """X19, G4: special victory points, awarded by the moderator for a building."""
    action = {
        "type": "award_svp",
        "player": player,
        "node": node,
        "points": points,
        "by_moderator": True,
    }
    return _submit(
        game,
        action,
        expected_index,
        user=user,
        sender=Action.Sender.MODERATOR,
        may_send=lambda seat: _moderator(game, user),
        reason=reason or "award_svp",
    )


def _submit(
    game: Game,
    action: Document,
    expected_index: int,
    *,
    user: Any,
    sender: str,
    may_send: Callable[[Seat], None],
    reason: str | None = None,
) -> Action:
    try:
        return _apply(game, action, expected_index, user, sender, may_send, reason)
    except (OperationalError, InterfaceError) as error:
        raise GameRefused("database_unavailable", DATABASE_UNAVAILABLE) from error


def _moved_on_by_trades_only(game: Game, expected_index: int) -> bool:
    """S-43: the page was drawn before offers were accepted, and only those trades came since.
    An accepted offer is the current player's action (X24) made by the other side's click, so
    the player never saw it coming: their action is checked by the engine on the position as it
    is now instead of refused `game_moved_on`. Any other action since (their own sent twice, a
    roll, a moderator's undo) still refuses it."""
    since = game.log_length - expected_index
    if not 0 < since <= MAX_TRADES_UNSEEN:
        return False
    # Only an accepted offer makes a domestic trade (action_submit and act_for refuse one
    # sent otherwise), so the log's rows say it without the offers' table.
    trades = game.actions.filter(index__gte=expected_index, action__type="domestic_trade").count()
    return trades == since


def _apply(
    game: Game,
    action: Document,
    expected_index: int,
    user: Any,
    sender: str,
    may_send: Callable[[Seat], None],
    reason: str | None,
) -> Action:
    with transaction.atomic():
        game = _locked(game)
        seat = game.seats.select_related("membership").filter(player=action["player"]).first()
        if seat is None:
            raise GameRefused("unknown_player", f"{action['player']!r} is not a player here")
        may_send(seat)
        if game.status == Game.Status.NEW:
            raise GameRefused("not_started", "the game has not started yet")
        if game.status == Game.Status.PAUSED:
            raise GameRefused("game_paused", "the game is paused by the moderator")
        if expected_index != game.log_length and not _moved_on_by_trades_only(game, expected_index):
            raise GameRefused("game_moved_on", "the game moved on: reload and look again")
        state = _current(game)
        before = waiting_for(state)
        try:
            events = apply_action(state, dict(action))
        except Refused as refusal:
            raise GameRefused(refusal.code, refusal.message) from refusal
        row = Action.objects.create(
            game=game,
            index=game.log_length,
            action=action,
            sender=sender,
            user=user,
            events=events,
        )
        game.log_length += 1
        _remember(game, (game.created_at, game.log_length, row.pk), state)
        game.state = state_to_dict(state)
        game.status = status_of(state)
        game.save(update_fields=["log_length", "state", "status"])
        if reason is not None:
            _audit(
                game,
                user=user,
                action=f"act_for:{action['type']}",
                reason=reason,
                index=row.index,
                player=action["player"],
            )
        _after_change(game, state, before)
    return row


# -- the moderator --------------------------------------------------------------------------
def game_undo(*, game: Game, user: Any, reason: str) -> Game:
    """G3: the last action taken back — the position rebuilt by replaying the log without it
    from the first position and its seed, so closed routes reopen, holders and the random
    generator return, and a roll made again shows the same dice. Like acting for a player (G4),
    it is a moderator's change of the game, audited with its reason: none is refused."""
    with transaction.atomic():
        game = _locked(game)
        _moderator(game, user)
        if not reason.strip():
            raise GameRefused("reason_required", "say why the last action is undone")
        last = game.actions.filter(index=game.log_length - 1).first()
        if last is None:
            raise GameRefused("nothing_to_undo", "the log is empty")
        undone = last.action
        last.delete()
        game.log_length -= 1
        state = _current(game)
        game.state = state_to_dict(state)
        if game.status != Game.Status.PAUSED:
            game.status = status_of(state)
        game.save(update_fields=["log_length", "state", "status"])
        _audit(
            game, user=user, action="game_undo", reason=reason, index=game.log_length, undone=undone
        )
        _after_change(game, state)
    return game


def game_pause(*, game: Game, user: Any, reason: str = "") -> Game:
    with transaction.atomic():
        game = _locked(game)
        _moderator(game, user)
        if game.status in (Game.Status.NEW, Game.Status.PAUSED, Game.Status.OVER):
            raise GameRefused("cannot_pause", f"a game that is {game.status} cannot be paused")
        game.status = Game.Status.PAUSED
        game.save(update_fields=["status"])
        _audit(game, user=user, action="game_pause", reason=reason)
    return game


def game_resume(*, game: Game, user: Any, reason: str = "") -> Game:
    with transaction.atomic():
        game = _locked(game)
        _moderator(game, user)
        if game.status != Game.Status.PAUSED:
            raise GameRefused("not_paused", "the game is not paused")
        state = _current(game)
        game.status = status_of(state)
        game.save(update_fields=["status"])
        _audit(game, user=user, action="game_resume", reason=reason)
        _after_change(game, state)
    return game


def seat_replace(
    *, game: Game, user: Any, player: str, username: str | None, reason: str = ""
) -> Seat:
    """The seat passes to another user (or to the bot: username None) with its membership: a
    player's membership changes hands (to a user: `edit membership`), ends (to the bot: `delete
    membership`) or begins (from the bot: `add membership`), audited as the admin's are (R-49).
    The old player's access ends with it, since access is the membership and its seat
    (selectors.game_get_for_user), and so does the seat's API key (its row goes)."""
    with transaction.atomic():
        game = _locked(game)
        _moderator(game, user)
        seat = game.seats.select_related("membership__user").filter(player=player).first()
        if seat is None:
            raise GameRefused("unknown_player", f"{player!r} is not a player here")
        new_user = _users_by_name([username])[username] if username else None
        if new_user is not None:
            _seatable(game, new_user)
        old = seat.user.username if seat.user else None
        why = reason or "seat_replace"
        held = seat.membership
        ours = held if held is not None and held.role == Membership.Role.PLAYER else None
        if new_user is not None and ours is not None:  # the membership changes hands
            before = membership_shown(ours)
            ours.user = new_user
            ours.save(update_fields=["user"])
            _membership_changed(ours, before, by=user, seat=player, reason=why)
        else:
            # The seat lets go of its membership, which ends — unless it is the moderator's, who
            # held the seat before issue 10 (docs/rulings.md S-41) and stays the moderator.
            seat.membership, seat.bot = None, True
            if ours is not None:
                seat.save(update_fields=["membership", "bot"])  # before the membership goes
                before = membership_shown(ours)
                ours.delete()
                _membership_changed(ours, before, by=user, seat=player, reason=why)
            if new_user is not None:
                seat.membership = Membership.objects.create(
                    user=new_user, campaign_id=game.campaign_id, role=Membership.Role.PLAYER
                )
                _membership_added(seat.membership, by=user, seat=player, reason=why)
        seat.bot = seat.membership is None
        seat.save(update_fields=["membership", "bot"])
        SeatKey.objects.filter(seat=seat).delete()
        _audit(
            game,
            user=user,
            action="seat_replace",
            reason=reason,
            player=player,
            old=old,
            new=username,
        )
        _after_change(game, _current(game))
    return seat


# -- memberships (issue 10): a seat's player is a platform membership -------------------------
NEW_GAME = "a seat of the new game"  # the reason of a membership game_create makes
MODERATOR_SEATLESS = "{name} moderates the game, and a moderator holds no seat"


def _seatable(game: Game, new_user: Any) -> None:
    """A user may take a seat who is not a member of the campaign yet: not its moderator, not
    the player of another seat (or of this one)."""
    member = Membership.objects.filter(user=new_user, campaign_id=game.campaign_id).first()
    if member is None:
        return
    name = new_user.get_username()
    if member.role == Membership.Role.MODERATOR:
        raise GameRefused("bad_seats", MODERATOR_SEATLESS.format(name=name))
    raise GameRefused("bad_seats", f"{name} holds a seat already")


def _membership_added(membership: Membership, *, by: Any, seat: str, reason: str) -> None:
    membership_audit(
        campaign=membership.campaign,
        user=by,
        action="add membership",
        reason=reason,
        old=membership_shown(None),
        new=membership_shown(membership),
        subject=membership,
        seat=seat,
    )


def _membership_changed(
    membership: Membership, before: dict[str, str], *, by: Any, seat: str, reason: str
) -> None:
    """`edit membership` (it changed hands) or, once deleted, `delete membership`."""
    gone = membership.pk is None
    membership_audit(
        campaign=membership.campaign,
        user=by,
        action="delete membership" if gone else "edit membership",
        reason=reason,
        old=before,
        new=membership_shown(None if gone else membership),
        subject=membership,
        seat=seat,
    )


# -- helpers ----------------------------------------------------------------------------------
def _locked(game: Game) -> Game:
    """The game's row, locked until the transaction ends: one change at a time per game."""
    return Game.objects.select_for_update().select_related("campaign").get(pk=game.pk)


def _current(game: Game) -> State:
    """The position after the log (G1), replayed, or this process's copy of that replay."""
    key = _position_key(game)
    cached = _POSITIONS.get(game.pk)
    if cached is not None and cached[0] == key:
        return cached[1].copy()
    actions = game.actions.filter(index__lt=game.log_length).values_list("action", flat=True)
    state = replay(game.first_position, actions.order_by("index"))
    _remember(game, key, state)
    return state.copy()


# This process's last replayed position of each game, kept only for what was committed: the
# key names the log exactly (the game, its length, the last row's id — a row undone and sent
# again is a new row), so a stale copy is never used; a miss just replays.
_POSITIONS: dict[int, tuple[tuple[Any, ...], State]] = {}
POSITIONS_KEPT = 64


def _position_key(game: Game) -> tuple[Any, ...]:
    last = game.actions.filter(index=game.log_length - 1).values_list("pk", flat=True).first()
    return (game.created_at, game.log_length, last)


def _remember(game: Game, key: tuple[Any, ...], state: State) -> None:
    kept = state.copy()

    def keep() -> None:
        _POSITIONS.pop(game.pk, None)
        while len(_POSITIONS) >= POSITIONS_KEPT:
            _POSITIONS.pop(next(iter(_POSITIONS)))
        _POSITIONS[game.pk] = (key, kept)

    transaction.on_commit(keep)


def _moderator(game: Game, user: Any) -> None:
    if not moderates(user, game.campaign_id):
        raise GameRefused("moderator_only", "only the game's moderator may do that")


def _audit(game: Game, *, user: Any, action: str, reason: str = "", **detail: Any) -> None:
    AuditEntry.objects.create(
        campaign_id=game.campaign_id, user=user, action=action, reason=reason, detail=detail
    )


def _after_change(game: Game, state: State, before: list[str] | None = None) -> None:
    """After the commit: the bot's turn if the game now waits for a bot seat, and the news for
    the players (`before`: whom the game waited for before the change; None: tell nobody).
    Offers of a turn now over become void in the same transaction (S-26)."""
    TradeOffer.objects.void_past_turns(game)
    owed: list[Owed] = []  # rows in this transaction, sent after it (seafarers/outbox.py)
    if before is not None:
        items = as_task_args(news(before, state, game_name=game.campaign.name))
        if items:
            owed.append((Outbox.Kind.NEWS, {"items": items, "sent": 0}, 0))
    if game.status in (Game.Status.SETUP, Game.Status.PLAYING) and not _BOT_LOOP.get():
        bots = set(game.seats.filter(bot=True).values_list("player", flat=True))
        if bots.intersection(waiting_for(state)):
            owed.append((Outbox.Kind.BOT, {"expected_index": game.log_length}, BOT_DELAY))
    owe(game.pk, owed)


# -- bots -------------------------------------------------------------------------------------
# No countdown (it was 1 s): a task with an ETA lets the solo worker take more messages while it
# holds it, and one Redis hands over while that task runs is lost if the worker is killed then
# (docs/reliability.md, "Seafaring games": faults). The bot moves as soon as the worker has it.
BOT_DELAY = 0
BOT_BOUND = 40  # bot actions in one task; then the next task (bounds eager recursion)
# Set while a task plays bot seats: the actions it sends queue no further task, the loop goes on.
_BOT_LOOP: ContextVar[bool] = ContextVar("seafarers_bot_loop", default=False)


def bot_play(*, game_id: int, expected_index: int) -> int:
    """Play the bot seats the game waits for, one action at a time through `action_submit`
    with the expected index, so a task delivered twice is refused (`game_moved_on`) and never
    applied twice. Stops when the game waits for a human, is paused or over, or after
    BOT_BOUND actions (then queues the next task). Returns the actions played."""
    played = 0
    token = _BOT_LOOP.set(True)
    try:
        while played < BOT_BOUND:
            game = Game.objects.filter(pk=game_id).first()
            if game is None or game.log_length != expected_index:
                break  # a duplicate, or someone acted first: nothing to do
            state = _current(game)
            bots = set(game.seats.filter(bot=True).values_list("player", flat=True))
            player = next((p for p in waiting_for(state) if p in bots), None)
            if player is None:
                break
            seed = int(game.first_position.get("seed") or 0) + expected_index
            action = bot_action(state, player, seed)
            if action is None:
                break
            try:
                action_submit(
                    game=game, user=None, action=action, expected_index=expected_index, bot=True
                )
            except GameRefused as refusal:
                if refusal.code == "database_unavailable":
                    raise DatabaseUnavailable(refusal.message) from refusal  # retried
                break  # paused, moved on: the next change queues the bot again
            played += 1
            expected_index += 1
    finally:
        _BOT_LOOP.reset(token)
    if played == BOT_BOUND:
        with transaction.atomic():
            owe(game_id, [(Outbox.Kind.BOT, {"expected_index": expected_index}, 0)])
    return played


# The outbox's bot rows play through this module's bot_play, looked up when they run.
plays_bots_with(lambda **kwargs: bot_play(**kwargs))


# Bots are now queued through the outbox (outbox_task); this task stays for messages queued
# before it, and plays the same way.
@shared_task(name="seafarers.tasks.bot_play_task", acks_late=True)
def bot_play_task(game_id: int, expected_index: int) -> int:
    return bot_play(game_id=game_id, expected_index=expected_index)
