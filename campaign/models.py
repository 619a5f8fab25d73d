"""A campaign: its map, factions and their relations, and its turns (the world between turns
lives in `fleets`; battle reports in `battles`).

The engine's ids are the rows' `key`s; `fleets/mapping.py` is the only bridge between rows and
the engine's scenario documents.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from campaign.fields import DocumentField
from campaign.webhooks import WebhookRefused, vetted_addresses


class Campaign(models.Model):
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    description = models.TextField(blank=True)
    # The game the campaign is played by: a key of campaign/rulesets.py's registry. Everything
    # the platform asks of the game goes through it; campaigns from before it are naval.
    ruleset = models.CharField(max_length=40, default="naval", editable=False)
    rules = models.JSONField(default=dict, blank=True)  # the scenario format's `rules`
    auto_resolve = models.BooleanField(
        default=False, help_text="At the deadline, lock and resolve the turn (else notify me)."
    )
    turn_hours = models.PositiveIntegerField(default=72, help_text="A new turn's deadline.")
    reminder_hours = models.PositiveIntegerField(
        default=24, help_text="E-mail players without orders this long before the deadline."
    )
    fog_of_war = models.BooleanField(default=True)
    webhook_url = models.URLField(
        blank=True, help_text="On publish, the public bulletin is POSTed here (Discord-style)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        # Two campaigns may share a name: lists, filters and selects show the slug beside it.
        return f"{self.name} ({self.slug})"

    def clean(self) -> None:
        """A webhook on a public address only (campaign/webhooks.py), said where it is typed."""
        if self.webhook_url:
            try:
                vetted_addresses(self.webhook_url)
            except WebhookRefused as error:
                raise ValidationError({"webhook_url": str(error)}, code=error.code) from error

    @property
    def current_turn(self) -> Turn | None:
        return self.turns.filter(archived=False).order_by("-number").first()

    def current_turn_for_action(self) -> Turn | None:
        """The current turn with its two documents (scenario, result: megabytes of JSON in a big
        campaign) left unread: a lifecycle action reads only what it needs of them."""
        return self.turns.filter(archived=False).order_by("-number").defer(*DOCUMENTS).first()


class Faction(models.Model):
    """A faction of the campaign, or its reserved pirates (W3, `key == "pirates"`)."""

    PIRATES = "pirates"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="factions")
    key = models.SlugField(max_length=60)
    name = models.CharField(max_length=120)
    colour = models.CharField(max_length=7, default="#777777")
    treasury = models.IntegerField(default=0)
    income = models.PositiveIntegerField(default=0)
    upkeep_priority = models.JSONField(default=list, blank=True)  # fleet keys (U2)

    class Meta:
        ordering = ["key"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="faction_key_unique"),
            models.CheckConstraint(condition=Q(treasury__gte=0), name="treasury_not_negative"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_pirates(self) -> bool:
        return self.key == self.PIRATES


class Relation(models.Model):
    """W3: war, peace or alliance; a pair without a row is at peace. `low` < `high` by key."""

    class State(models.TextChoices):
        WAR = "war"
        PEACE = "peace"
        ALLIANCE = "alliance"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="relations")
    low = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="+")
    high = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="+")
    state = models.CharField(max_length=10, choices=State.choices, default=State.PEACE)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "low", "high"], name="relation_pair_unique")
        ]

    def __str__(self) -> str:
        return f"{self.low.key}–{self.high.key}: {self.state}"


class Membership(models.Model):
    """A user's place in a campaign: a player of one faction, or its moderator (never both)."""

    class Role(models.TextChoices):
        PLAYER = "player"
        MODERATOR = "moderator"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices)
    faction = models.ForeignKey(
        Faction, null=True, blank=True, on_delete=models.CASCADE, related_name="members"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "campaign"], name="one_membership_per_campaign"
            ),
            models.CheckConstraint(
                condition=(Q(role="player") & Q(faction__isnull=False))
                | (Q(role="moderator") & Q(faction__isnull=True)),
                name="player_has_faction_moderator_has_none",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.campaign}: {self.faction or self.role}"


class Province(models.Model):
    """W1: a sea or land province, with its place on the drawing (x, y in 0..1000)."""

    class Kind(models.TextChoices):
        SEA = "sea"
        LAND = "land"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="provinces")
    key = models.SlugField(max_length=60)
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=4, choices=Kind.choices)
    x = models.FloatField(default=0)
    y = models.FloatField(default=0)

    class Meta:
        ordering = ["key"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="province_key_unique")
        ]

    def __str__(self) -> str:
        return self.name


class Adjacency(models.Model):
    """W1: two provinces next to each other (stored once, `a` < `b` by key)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="adjacencies")
    a = models.ForeignKey(Province, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(Province, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["a", "b"], name="adjacency_unique")]


class Port(models.Model):
    """W2: a port in a land province, opening onto its waters."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="ports")
    key = models.SlugField(max_length=60)
    name = models.CharField(max_length=120)
    province = models.ForeignKey(Province, on_delete=models.CASCADE, related_name="ports")
    owner = models.ForeignKey(Faction, on_delete=models.PROTECT, related_name="ports")
    waters = models.ManyToManyField(Province, related_name="port_waters")

    class Meta:
        ordering = ["key"]
        constraints = [models.UniqueConstraint(fields=["campaign", "key"], name="port_key_unique")]

    def __str__(self) -> str:
        return self.name


class ShipType(models.Model):
    """W4."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="ship_types")
    key = models.SlugField(max_length=60)
    cost = models.PositiveIntegerField()
    attack = models.PositiveIntegerField()
    health = models.PositiveIntegerField()

    class Meta:
        ordering = ["key"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="ship_type_key_unique")
        ]

    def __str__(self) -> str:
        return self.key


DOCUMENTS = ("scenario", "result")  # Turn's two documents


class Turn(models.Model):
    """One turn of a campaign and where it stands in its lifecycle (campaign/lifecycle.py)."""

    class Status(models.TextChoices):
        DRAFT = "draft"  # being prepared; players cannot order yet
        OPEN = "open"  # deadline set; factions submit orders
        LOCKED = "locked"  # no more orders; seed and scenario stored; resolution queued
        RESOLVING = "resolving"  # shown while a worker resolves it (never left in the database)
        RESOLVED = "resolved"  # a draft result for the moderator to review
        PUBLISHED = "published"  # players see the result; the next turn is open
        FAILED = "failed"  # resolution failed; the error is shown; retry sends it back to locked

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="turns")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    deadline = models.DateTimeField(null=True, blank=True)
    seed = models.BigIntegerField(null=True, blank=True)  # drawn at lock (T2)
    scenario = DocumentField(null=True, blank=True)  # the locked turn: world, orders, seed
    # The engine's result document: the world after the turn, the refused orders and the events,
    # in order — the turn's event log, which the reports are written from.
    result = DocumentField(null=True, blank=True)
    error = models.TextField(blank=True)
    attempts = models.PositiveIntegerField(default=0)  # resolution runs started since the lock
    reminded_at = models.DateTimeField(null=True, blank=True)
    archived = models.BooleanField(default=False)  # a turn cancelled by a rollback
    opened_at = models.DateTimeField(null=True, blank=True)
    locked_at = models.DateTimeField(null=True, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "number"],
                condition=Q(archived=False),
                name="one_live_turn_per_number",
            )
        ]

    def __str__(self) -> str:
        return f"{self.campaign} turn {self.number} ({self.status})"


class ArchivedResult(models.Model):
    """A result set aside by a rollback (the appeals window): never deleted."""

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="archived_results")
    scenario = DocumentField()
    result = DocumentField()
    archived_at = models.DateTimeField(auto_now_add=True)
    archived_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    reason = models.TextField()


class AuditEntry(models.Model):
    """Every transition and every manual edit: who, what, why."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="audit")
    turn = models.ForeignKey(Turn, null=True, blank=True, on_delete=models.SET_NULL)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    action = models.CharField(max_length=40)
    reason = models.TextField(blank=True)
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        who = self.user or "system"
        return f"{self.created_at:%Y-%m-%d %H:%M} {who}: {self.action}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The turn's status when the entry was written (a transition's: the status it moved to),
        # kept with the entry: the log lists it, and the turn's own status changes later.
        if self.turn_id is not None and "turn_status" not in self.detail:
            status = self.detail.get("to") or self.turn.status  # type: ignore[union-attr]
            self.detail = {**self.detail, "turn_status": status}
        super().save(*args, **kwargs)

    @property
    def turn_status(self) -> str | None:
        """The turn's status when the entry was written (None for entries from before that was
        recorded, and for entries about no turn)."""
        status = self.detail.get("turn_status") if isinstance(self.detail, dict) else None
        return str(status) if status else None
