"""A seafaring game's rows, hanging off the platform's Campaign (ruleset "seafarers").

The game is its log (seafarers.md G1): the first position (a seafarers-scenario/1 document
without actions, its seed included) and one row per applied action. The current state is kept
beside them only so that a page need not replay; every change of it (an action, an undo) is
computed from the first position and the log, never patched (G3).

Every person in a game is a platform Membership of its campaign (campaign.models): the moderator
a moderator's, each human player a player's, whose seat — the engine's colour — is a Seat row of
this app pointing at it (`Seat.membership`); a bot's seat points at none.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.timezone import now

from campaign.fields import DocumentField
from campaign.models import Campaign


class Game(models.Model):
    class Status(models.TextChoices):
        NEW = "new"  # created, seats given; not started (no seed drawn yet)
        SETUP = "setup"  # B20: the setup settlements and routes
        PLAYING = "playing"  # the turns (B8)
        PAUSED = "paused"  # by the moderator: every action refused `game_paused`
        OVER = "over"  # won (X20); only undo moves it again

    campaign = models.OneToOneField(
        Campaign, on_delete=models.CASCADE, related_name="seafaring_game"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.NEW)
    # The first position (seafarers-scenario/1 without `actions`), with the seed once started.
    first_position = DocumentField()
    # The position after the last action (state_to_dict): what the pages read.
    state = DocumentField()
    # How many actions the log holds: the index the next action gets, and what a sender's
    # expected index is compared with (a stale one: `game_moved_on`).
    log_length = models.PositiveIntegerField(default=0)
    # How long the game may wait on a player before they are reminded, once per wait
    # (seafarers/reminders.py; issue 13 "a reminder when a player has not acted").
    reminder_hours = models.PositiveIntegerField(
        default=24,
        validators=[MinValueValidator(1)],
        help_text="Remind a player the game has waited on this many hours.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.campaign} ({self.status})"


class Seat(models.Model):
    """A player of the game in seat order: the engine's player id (its colour), held by a
    player's membership of the campaign, or by the engine's bot (no membership)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    order = models.PositiveSmallIntegerField()  # 0, 1, …: the engine's seat order
    player = models.CharField(max_length=40)  # the engine's player id
    # The member who plays the seat (a membership holds one seat at most): passed on by
    # seat_replace, never deleted under a seat (PROTECT, as the user was before it).
    membership = models.OneToOneField(
        "campaign.Membership",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seafaring_seat",
    )
    bot = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "order"]
        constraints = [
            models.UniqueConstraint(fields=["game", "order"], name="seat_order_unique"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_player_unique"),
            models.CheckConstraint(
                condition=(Q(bot=True) & Q(membership__isnull=True))
                | (Q(bot=False) & Q(membership__isnull=False)),
                name="seat_member_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {'bot' if self.bot else self.user}"

    @property
    def user(self) -> Any:
        """The seat's player, a user (None for the bot): its membership's."""
        return self.membership.user if self.membership_id is not None else None  # type: ignore[union-attr]

    @property
    def user_id(self) -> int | None:
        return self.membership.user_id if self.membership_id is not None else None  # type: ignore[union-attr]


class Action(models.Model):
    """One applied action (G1): refused actions are never stored."""

    class Sender(models.TextChoices):
        PLAYER = "player"  # the seat's user
        BOT = "bot"  # the worker, for a bot seat
        MODERATOR = "moderator"  # act_for or award_svp (G4): the action has by_moderator

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    index = models.PositiveIntegerField()
    action = models.JSONField()  # as sent, with by_moderator when the moderator sent it
    sender = models.CharField(max_length=10, choices=Sender.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    events = models.JSONField(default=list)  # what the engine says it produced
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="action_index_unique")
        ]

    def __str__(self) -> str:
        return f"{self.game_id} #{self.index}: {self.action.get('type')}"


class TradeOfferQuerySet(models.QuerySet["TradeOffer"]):
    def past_turns(self, game: Game) -> TradeOfferQuerySet:
        """Open offers made in a turn that is over (or in a game that is): void (S-26)."""
        stale = self.filter(game=game, status=TradeOffer.Status.OPEN)
        if game.status != Game.Status.OVER:
            stale = stale.exclude(turn_number=game.state["turn"]["number"])
        return stale

    def void_past_turns(self, game: Game) -> int:
        """Mark them void; how many were. Called in the transaction of the action that ended
        the turn (seafarers/services.py `_after_change`), so that no page read writes."""
        return int(self.past_turns(game).update(status=TradeOffer.Status.VOID, closed_at=now()))


class TradeOffer(models.Model):
    """A domestic trade offered by one seat to another (B18, X24): the platform carries the
    offer and the reply; the log records only the trade, as the current player's
    `domestic_trade` action, once the other side has accepted. `give` and `get` are the
    proposer's: what `from_seat` gives and what it gets (resource → count)."""

    class Status(models.TextChoices):
        OPEN = "open"  # waiting for the other seat's reply (or the proposer's withdrawal)
        ACCEPTED = "accepted"  # applied: `action_index` is the trade in the log
        DECLINED = "declined"  # the other seat said no
        WITHDRAWN = "withdrawn"  # the proposer took it back
        VOID = "void"  # its turn is over (or the game is): nobody can accept it any more

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="offers")
    from_seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="offers_made")
    to_seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="offers_received")
    give = models.JSONField()
    get = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    turn_number = models.PositiveIntegerField()  # the turn it was made in (void after it)
    made_at_index = models.PositiveIntegerField()  # the log's length when it was made
    action_index = models.PositiveIntegerField(null=True, blank=True)  # the trade, once applied
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)  # when it stopped being open

    objects = TradeOfferQuerySet.as_manager()

    class Meta:
        ordering = ["game", "-id"]
        indexes = [models.Index(fields=["game", "status"])]
        constraints = [
            models.CheckConstraint(
                condition=~Q(from_seat=models.F("to_seat")), name="offer_between_two_seats"
            )
        ]

    def __str__(self) -> str:
        return f"offer {self.pk}: {self.from_seat_id} → {self.to_seat_id} ({self.status})"


class SeatKey(models.Model):
    """A bot's or script's key to one seat, for the seafaring API (seafarers/api.py): only its
    hash is kept, the key is shown once. It holds for the user it was made for only: when the
    seat passes to another player (seat_replace) the old player's key stops working."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="api_key")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    digest = models.CharField(max_length=64, unique=True)  # sha256 of the key
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"key of {self.seat}"


class Reminder(models.Model):
    """A reminder sent to a seat the game has waited on for its reminder time: one per wait, a
    wait being named by the player and the moment it began (seafarers/reminders.py)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reminders")
    player = models.CharField(max_length=40)
    waiting_since = models.DateTimeField()
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "player", "waiting_since"], name="one_reminder_per_wait"
            )
        ]


class Outbox(models.Model):
    """Work the worker owes a game after a change — the bot's turn, the players' news — written
    in the change's transaction, so it exists exactly when the change committed, whatever Redis
    does then (issue 14). Its task deletes it when done; one whose task never reached Redis,
    or was lost there, is sent again by the periodic sweep (seafarers/outbox.py)."""

    class Kind(models.TextChoices):
        BOT = "bot"  # payload {"expected_index": n}: bot_play from there
        NEWS = "news"  # payload {"items": [...], "sent": k}: items[k:] still to send

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="outbox")
    kind = models.CharField(max_length=4, choices=Kind.choices)
    payload = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    queued_at = models.DateTimeField(null=True, blank=True)  # when its task reached Redis

    def __str__(self) -> str:
        return f"{self.game_id}: {self.kind} {self.payload}"
