"""The world between turns: fleets and their ships, the orders given for a turn, and the treasury
lines of resolved turns."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from campaign.models import Campaign, Faction, Port, Province, ShipType, Turn


class Fleet(models.Model):
    """W5: an owner (its commander), a position (a sea province, or docked in a port), ships."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="fleets")
    key = models.CharField(max_length=60)
    owner = models.ForeignKey(Faction, on_delete=models.PROTECT, related_name="fleets")
    province = models.ForeignKey(
        Province, null=True, blank=True, on_delete=models.PROTECT, related_name="fleets"
    )
    port = models.ForeignKey(
        Port, null=True, blank=True, on_delete=models.PROTECT, related_name="docked_fleets"
    )
    mp_penalty = models.PositiveIntegerField(default=0)  # S3
    blockading = models.ForeignKey(
        Port, null=True, blank=True, on_delete=models.SET_NULL, related_name="blockaders"
    )
    adrift = models.BooleanField(default=False)  # U4, X25

    class Meta:
        ordering = ["key"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="fleet_key_unique"),
            models.CheckConstraint(
                condition=Q(province__isnull=True) ^ Q(port__isnull=True),
                name="fleet_at_sea_or_docked",
            ),
        ]

    def __str__(self) -> str:
        return self.key

    @property
    def docked(self) -> bool:
        return self.port_id is not None


class Ship(models.Model):
    """W4, W7: a ship keeps its owner in a joint fleet."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="ships")
    key = models.CharField(max_length=60)
    fleet = models.ForeignKey(Fleet, on_delete=models.CASCADE, related_name="ships")
    owner = models.ForeignKey(Faction, on_delete=models.PROTECT, related_name="ships")
    type = models.ForeignKey(ShipType, on_delete=models.PROTECT, related_name="ships")
    health = models.PositiveIntegerField()
    position = models.PositiveIntegerField(default=0)  # order within the fleet

    class Meta:
        ordering = ["fleet", "position"]
        constraints = [models.UniqueConstraint(fields=["campaign", "key"], name="ship_key_unique")]

    def __str__(self) -> str:
        return self.key


class Order(models.Model):
    """One order as submitted, with who and when. The latest row of a slot is the one that counts
    (a fleet's order, its repair, …); a withdrawal is a row too."""

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="orders")
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="orders")
    slot = models.CharField(max_length=80)  # "fleet:d1", "repair:d1", "hire:1", …
    payload = models.JSONField(null=True, blank=True)  # the order in the scenario format
    withdrawn = models.BooleanField(default=False)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    submitted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["turn", "id"]
        indexes = [models.Index(fields=["turn", "slot"])]


class ApiToken(models.Model):
    """A bot's or script's key to one membership (issue 4, the API): only its hash is kept; the
    key itself is shown once, when it is made."""

    membership = models.OneToOneField(
        "campaign.Membership", on_delete=models.CASCADE, related_name="api_token"
    )
    digest = models.CharField(max_length=64, unique=True)  # sha256 of the key
    # Whom the membership named when the key was made ("user:role:faction",
    # services.membership_seal): a key works only while it still does (issue 11).
    seal = models.CharField(max_length=80, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)


class LedgerLine(models.Model):
    """A treasury change of a resolved turn (income, hire, repair, upkeep, buy-out)."""

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="ledger")
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="ledger")
    kind = models.CharField(max_length=20)  # the event: income, hired, repaired, upkeep_paid, …
    amount = models.IntegerField()  # signed: what the treasury gained

    class Meta:
        # Naval, so the naval app's; its table keeps the name it had in campaign/ (migrations
        # campaign 0004 and fleets 0004 move the model, not the rows).
        db_table = "campaign_ledgerline"
        ordering = ["turn", "faction", "id"]
