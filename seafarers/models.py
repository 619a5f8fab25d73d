"""A seafaring game's rows, hanging off the platform's Campaign (ruleset "seafarers").

The game is its log (seafarers.md G1): the first position (a seafarers-scenario/1 document
without actions, its seed included) and one row per applied action. The current state is kept
beside them only so that a page need not replay; every change of it (an action, an undo) is
computed from the first position and the log, never patched (G3).

Seats are this app's own rows, not the platform's Membership: a Membership's seat is still a
naval faction (a check constraint requires one for every player), so a seat here is a user or a
bot, and the moderator is the campaign's moderator Membership.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

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
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.campaign} ({self.status})"


class Seat(models.Model):
    """A player of the game in seat order: the engine's player id (its colour), given to a user
    or to the engine's bot."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    order = models.PositiveSmallIntegerField()  # 0, 1, …: the engine's seat order
    player = models.CharField(max_length=40)  # the engine's player id
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seafaring_seats",
    )
    bot = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "order"]
        constraints = [
            models.UniqueConstraint(fields=["game", "order"], name="seat_order_unique"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_player_unique"),
            models.UniqueConstraint(
                fields=["game", "user"], condition=Q(user__isnull=False), name="one_seat_per_user"
            ),
            models.CheckConstraint(
                condition=(Q(bot=True) & Q(user__isnull=True))
                | (Q(bot=False) & Q(user__isnull=False)),
                name="seat_user_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {'bot' if self.bot else self.user}"


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
