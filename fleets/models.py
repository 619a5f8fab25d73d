"""The naval world: the factions and their relations, the map (provinces, adjacencies, ports),
ship types, fleets and their ships, the orders given for a turn, and the treasury lines of
resolved turns.

The engine's ids are the rows' `key`s; `fleets/mapping.py` is the only bridge between rows and
the engine's scenario documents. The tables that came from campaign/ keep their names there
(Meta.db_table: migrations fleets 0004 and 0005, campaign 0004 and 0005 move the models, not the
rows).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

from campaign.models import Campaign, Turn


class NavalSettings(models.Model):
    """A naval campaign's own settings, one row per campaign (made with it: `settings_made`):
    the scenario format's `rules` (scenario-format.md: the engine's Rules, naval.md's `code`
    numbers), read into every turn's world, and fog of war (R-36: what a faction sees of the
    others' fleets). They were the platform's Campaign.rules and Campaign.fog_of_war until
    fleets 0008 and campaign 0006 moved them here with their values (docs/architecture.md).
    Not edited while a turn waits to be published (R-65, as the world: R-50)."""

    campaign = models.OneToOneField(
        Campaign, primary_key=True, on_delete=models.CASCADE, related_name="naval_settings"
    )
    rules = models.JSONField(default=dict, blank=True)  # the scenario format's `rules`
    fog_of_war = models.BooleanField(default=True)
    # The campaign file's `map.fill` (docs/campaign-format.md): land and sea that is no
    # province, {"land": [[x, y], ...], "sea": [...]}, drawn round the provinces (maps/regions.py).
    map_fill = models.JSONField(default=dict, blank=True)
    # when every faction with a player has marked its orders final, the turn locks itself
    # as the moderator's Lock does (fleets/final.py). Frozen with the rest.
    resolve_early = models.BooleanField(
        default=False,
        help_text="Lock the turn as soon as every faction with a player has marked its orders "
        "final (R-90).",
    )

    class Meta:
        verbose_name = "naval settings"
        verbose_name_plural = "naval settings"

    def __str__(self) -> str:
        return f"{self.campaign}: rules and fog of war"


class MapDrawing(models.Model):
    """A naval campaign's own drawing of its map (issue 20 §1, docs/rulings.md R-76–R-79): an
    SVG with one shape per province id, from the campaign file's `map_svg` or uploaded in the
    world editor, kept as the text it was given (at most 2 MB) after `maps.drawing` has read
    it and checked it against the world. The map is drawn on it while it fits the world
    (maps/own_svg.py). A row of its own, not a column of the settings: the settings are read
    on every page, the drawing only when a map is drawn (once per version of the world)."""

    campaign = models.OneToOneField(
        Campaign, primary_key=True, on_delete=models.CASCADE, related_name="map_drawing"
    )
    svg = models.TextField()
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "map drawing"

    def __str__(self) -> str:
        return f"{self.campaign}: its own map drawing"


def settings_made(sender: Any, instance: Campaign, created: bool, raw: bool, **_: Any) -> None:
    """Every naval campaign has its settings row from its first save, whoever makes it (the
    import, the world editor's new-campaign page, the admin's Add campaign), with the defaults:
    its pages read them without asking whether they exist. Connected in fleets/apps.py."""
    if created and not raw and instance.ruleset == "naval":
        NavalSettings.objects.get_or_create(campaign=instance)


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
        db_table = "campaign_faction"  # kept from campaign/
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
        db_table = "campaign_relation"  # kept from campaign/
        constraints = [
            models.UniqueConstraint(fields=["campaign", "low", "high"], name="relation_pair_unique")
        ]

    def __str__(self) -> str:
        return f"{self.low.key}–{self.high.key}: {self.state}"


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
        db_table = "campaign_province"  # kept from campaign/
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
        db_table = "campaign_adjacency"  # kept from campaign/
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
        db_table = "campaign_port"  # kept from campaign/
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
        db_table = "campaign_shiptype"  # kept from campaign/
        ordering = ["key"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="ship_type_key_unique")
        ]

    def __str__(self) -> str:
        return self.key


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

    # Not a column: set by `order_submit` / `order_withdraw` when writing this row unmarked the
    # faction's orders marked final, so that whoever gave it can say so.
    final_unmarked = False

    class Meta:
        ordering = ["turn", "id"]
        indexes = [models.Index(fields=["turn", "slot"])]


class FinalOrders(models.Model):
    """A faction's "my orders are final" for one turn (issue 21 §3, docs/rulings.md R-89): one
    row per faction and turn, made when it is first marked. Final while `marked_at` is set; a
    change of any of its orders afterwards, by whatever path, clears it and says when and by
    whom (`unmarked_*`), so the faction's desk can tell its player. Not the orders themselves:
    those stay rows of Order, and a mark says nothing about what they are."""

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="final_orders")
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="final_orders")
    marked_at = models.DateTimeField(null=True, blank=True)
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    unmarked_at = models.DateTimeField(null=True, blank=True)
    unmarked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name_plural = "final orders"
        constraints = [
            models.UniqueConstraint(fields=["turn", "faction"], name="final_orders_once")
        ]

    @property
    def final(self) -> bool:
        return self.marked_at is not None


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


class PublicMap(models.Model):
    """A published turn's public map at an unguessable link, for forums and Discord (issue 11,
    docs/rulings.md R-56–R-58). The token is random (`secrets`), not derived from anything, so
    the moderator can replace it (the old link then finds nothing) without touching SECRET_KEY.
    A row is of one publication of its turn (`published_at`): after a rollback the turn is not
    published, and when it is published again its old link is a 404 and a new one is made. The
    PNG is drawn once, on the first request, and kept here."""

    turn = models.OneToOneField(Turn, on_delete=models.CASCADE, related_name="public_map")
    token = models.CharField(max_length=64, unique=True)
    published_at = models.DateTimeField()  # the turn's publication this link shows
    made_at = models.DateTimeField()
    png = models.BinaryField(null=True, blank=True, editable=False)


class OrderAddress(models.Model):
    """A player's private order address in one campaign, `orders+<token>@<ORDER_MAIL_DOMAIN>`
    (issue 21 §2, docs/rulings.md R-93). The token is an HMAC of SECRET_KEY over the row's
    random `salt` and the membership's seal, so the desk and every turn e-mail can show it
    again; the database keeps only the salt and the token's hash (a copy of the tables does
    not give the address away). A new salt replaces the address; a changed membership or a
    deactivated user makes it dead (R-47's seal, as API keys)."""

    membership = models.OneToOneField(
        "campaign.Membership", on_delete=models.CASCADE, related_name="order_address"
    )
    salt = models.CharField(max_length=32)
    digest = models.CharField(max_length=64, unique=True)  # sha256 of the token
    seal = models.CharField(max_length=80)  # services.membership_seal when made
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
