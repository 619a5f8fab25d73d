"""The platform's tables, for every ruleset: a campaign, its memberships, its turns, archived
results and the audit log. A game's world is its app's (naval: factions, the map, fleets, orders,
the ledger in `fleets`; battles in `battles`; seafaring: `seafarers`)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from campaign.fields import DocumentField
from campaign.webhooks import WebhookRefused, vetted_addresses


def language_choices() -> list[tuple[str, str]]:
    """The site's languages (settings.LANGUAGES), each in its own words. A callable, so that a
    language added to the settings needs no migration (README, "Adding a language")."""
    return list(settings.LANGUAGES)


class Campaign(models.Model):
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    description = models.TextField(blank=True)
    # The game the campaign is played by: a key of campaign/rulesets.py's registry. Everything
    # the platform asks of the game goes through it; campaigns from before it are naval.
    ruleset = models.CharField(max_length=40, default="naval", editable=False)
    # A ruleset's own settings are its app's rows, not columns here (naval: the rules and fog of
    # war, fleets.NavalSettings; seafaring: the `rules` of the game's first position).
    auto_resolve = models.BooleanField(
        default=False, help_text="At the deadline, lock and resolve the turn (else notify me)."
    )
    turn_hours = models.PositiveIntegerField(default=72, help_text="A new turn's deadline.")
    reminder_hours = models.PositiveIntegerField(
        default=24, help_text="E-mail players without orders this long before the deadline."
    )
    webhook_url = models.URLField(
        blank=True, help_text="On publish, the public bulletin is POSTed here (Discord-style)."
    )
    # The language the campaign is written in, chosen by its moderator (issue 22). Stored and
    # shown for now; the turn reports, the bulletin, the forum exports, the map's labels and the
    # PNG, and the webhook posts will follow it (docs/architecture.md, "Languages").
    language = models.CharField(
        max_length=10,
        choices=language_choices,
        default="en",
        help_text="The language of the game's reports, bulletin and forum posts.",
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


class Membership(models.Model):
    """A user's place in a campaign, in every ruleset: a player or its moderator (never both).
    A player's seat is the ruleset's: a naval faction (`faction`, below), a seafaring colour
    (a seafarers.Seat row pointing here; a bot's seat has no membership). That a naval player
    has a faction is the naval ruleset's rule (`membership_problem`), checked where memberships
    are given; the table keeps only what holds for every game: a moderator has no faction."""

    class Role(models.TextChoices):
        PLAYER = "player"
        MODERATOR = "moderator"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices)
    # The naval seat: a faction (fleets/), named by its label so that the platform imports no
    # game; a seafaring seat is its app's own row (seafarers.Seat.membership).
    faction = models.ForeignKey(
        "fleets.Faction", null=True, blank=True, on_delete=models.CASCADE, related_name="members"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "campaign"], name="one_membership_per_campaign"
            ),
            models.CheckConstraint(
                condition=Q(role="player") | (Q(role="moderator") & Q(faction__isnull=True)),
                name="player_or_moderator_without_faction",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.campaign}: {self.faction or self.role}"


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


class UserLanguage(models.Model):
    """The language a user chose in the page header's switcher (issue 22), kept on their account
    so that it is theirs on their next login, on any device (campaign/languages.py). A user who
    never chose has no row: the browser's language (Accept-Language) is used."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="language_choice"
    )
    language = models.CharField(max_length=10, choices=language_choices)
    chosen_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language}"
