"""Reading for the players' pages: one permission-checked fetch per entity, and the desk's view
of the world in a fixed number of queries whatever the number of fleets.

Every player page goes through `membership_get` (who may see this campaign, as whom) and every
fleet through `fleet_get_for_player`: another faction's fleet, or another campaign's, is a 404.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef, Q, Subquery
from django.http import Http404

from campaign.models import Campaign, Membership, Turn
from campaign.selectors import membership_get as platform_membership_get
from engine.naval import LegalOrders, World, legal_orders
from engine.naval.fog import visible_fleets, watched_seas
from engine.naval.orders import ECONOMY_ORDER_TYPES
from fleets.final import FinalState
from fleets.mapping import fleets_slots, latest_orders, orders_document, world_document
from fleets.models import Faction, FinalOrders, Fleet, MapDrawing, Order
from fleets.names import campaign_names
from fleets.spending import latest_economy
from fleets.world_cache import KeptWorld, kept_world
from maps.drawing import Drawing, DrawingRefused, drawing_read
from reports.build import Names

User = AbstractBaseUser | AnonymousUser


def membership_get(user: User, slug: str) -> Membership:
    """The players' fetch (the platform's), for naval campaigns only: a seafaring campaign's
    members are not found on the naval pages (issue 10)."""
    return platform_membership_get(user, slug, ruleset="naval")


def factions_without_orders(turn: Turn) -> list[Faction]:
    """Factions with fleets that have given no order this turn (their fleets will hold)."""
    with_fleets = set(
        Fleet.objects.filter(campaign_id=turn.campaign_id).values_list("owner_id", flat=True)
    )
    ordered = set(
        Order.objects.filter(turn=turn, withdrawn=False).values_list("faction_id", flat=True)
    )
    return list(
        Faction.objects.filter(campaign_id=turn.campaign_id, id__in=with_fleets - ordered)
        .exclude(key=Faction.PIRATES)
        .order_by("key")
    )


def fleet_get_for_player(membership: Membership, key: str) -> Fleet:
    """A fleet the member commands (a moderator commands every fleet); 404 otherwise."""
    if "\x00" in key:  # no key has one, and PostgreSQL cannot even compare it
        raise Http404("No such fleet.")
    fleets = Fleet.objects.filter(campaign=membership.campaign, key=key)
    if membership.role == Membership.Role.PLAYER:
        fleets = fleets.filter(owner=membership.faction)
    fleet = fleets.select_related("owner").first()
    if fleet is None:
        raise Http404("No such fleet.")
    return fleet


@dataclass(slots=True)
class FleetCard:
    """One of the faction's fleets on the order desk."""

    id: str
    at: str
    docked: bool
    ships: list[dict[str, Any]]
    legal: LegalOrders
    order: dict[str, Any] | None  # the order that counts now, if any
    slot: str


@dataclass(slots=True)
class Desk:
    campaign: Campaign
    membership: Membership
    faction: Faction | None
    turn: Turn | None
    world: World
    document: dict[str, Any]
    cards: list[FleetCard] = field(default_factory=list)
    orders: list[dict[str, Any]] = field(default_factory=list)  # the faction's orders that count
    visible: list[dict[str, Any]] = field(default_factory=list)  # fleets it can see
    visible_ids: set[str] = field(default_factory=set)
    seas: frozenset[str] = frozenset()
    names: Names | None = None  # the campaign's display names, read once when first needed
    fog: bool = False  # the campaign's fog of war (its naval settings, kept with the world)
    # Each sea's sea neighbours (W1), for the map's routes clicked step by step (M2).
    sea_graph: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # The faction's orders marked final this turn, read with the turn.
    final: FinalState = field(default_factory=FinalState)
    # What is computed from this version of the world alone is kept with it (world_cache).
    kept: KeptWorld | None = None
    # The faction's economy orders this turn (`spending.economy_orders`), read with its orders.
    economy: dict[str, dict[str, Any]] | None = None

    @property
    def open(self) -> bool:
        return self.turn is not None and self.turn.status == Turn.Status.OPEN


def desk_for(membership: Membership) -> Desk:
    """The faction's fleets with what each can do and its current order, the fleets it can see
    (fog of war, issue 4), its treasury, the campaign's display names: 3 queries and the
    world's version when the world is kept (fleets/world_cache.py), 15 when it is read;
    whatever the number of fleets."""
    campaign = membership.campaign
    turn = _current_turn(campaign, membership.faction)
    kept = kept_world(campaign, world_document)
    document, world = kept.document, kept.world
    faction = membership.faction
    key = faction.key if faction is not None else None
    economy: dict[str, dict[str, Any]] | None = None
    if turn is None:
        orders: list[dict[str, Any]] = []
    elif faction is None:
        orders = orders_document(turn)
    else:
        orders, economy = _faction_orders(turn, faction, world)
    mine = [o for o in orders if _belongs(o, key, world)]
    by_fleet = {
        o["fleet"]: o for o in mine if "fleet" in o and o["type"] not in ECONOMY_ORDER_TYPES
    }
    # Fog of war is the naval settings' (a save of them is a new version of the world).
    fog = kept.computed("fog", lambda: campaign.naval_settings.fog_of_war)
    fogged = fog and key is not None
    if fogged:  # both in one round trip to the shared cache
        kept.prefetch([("visible", key), ("seas", key)])
    # What the faction sees is worked out once per version in all the workers (issue 20: under
    # load a desk is nearly always its faction's first in the worker).
    seen = kept.shared(
        ("visible", key if fogged else None),
        lambda: frozenset(visible_fleets(world, key if fogged else None)),
    )
    seas = (
        kept.shared(("seas", key), lambda: watched_seas(world, str(key)))
        if fogged and key
        else frozenset(world.map.provinces)
    )
    desk = Desk(
        campaign,
        membership,
        faction,
        turn,
        world,
        document,
        orders=mine,
        seas=seas,
        fog=fog,
        kept=kept,
        economy=economy,
    )
    if turn is not None and faction is not None:
        desk.final = FinalState(
            final=turn.final_marked_at is not None,  # type: ignore[attr-defined]
            marked_at=turn.final_marked_at,  # type: ignore[attr-defined]
            unmarked_at=turn.final_unmarked_at,  # type: ignore[attr-defined]
            by_moderator=bool(turn.final_by_moderator),  # type: ignore[attr-defined]
        )
    # The display names are rows of the world's tables too (a name saved is a new version).
    desk.names = kept.computed("names", lambda: campaign_names(campaign.pk))
    desk.sea_graph = kept.computed("sea-graph", lambda: _sea_graph(world))
    for fleet in document["fleets"]:
        if fleet["id"] not in seen:
            continue
        desk.visible.append(fleet)
        desk.visible_ids.add(fleet["id"])
        if key is None or fleet["owner"] == key:
            fleet_id = fleet["id"]
            desk.cards.append(
                FleetCard(
                    id=fleet_id,
                    at=fleet["at"],
                    docked=fleet["docked"],
                    ships=fleet["ships"],
                    legal=kept.computed(
                        ("legal", fleet_id), partial(legal_orders, world, fleet_id)
                    ),
                    order=by_fleet.get(fleet_id),
                    slot=f"fleet:{fleet_id}",
                )
            )
    return desk


def _faction_orders(
    turn: Turn, faction: Faction, world: World
) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """`orders_document(turn, its fleets)` and `economy_orders(turn, faction)` in one query
    (issue 20): the rows of the slots its orders can be in (its fleets', hires, buy-outs) and
    the rows it gave, each result from its own rows as those functions read them."""
    own = [f.id for f in world.fleets.values() if f.owner == faction.key]
    slots = fleets_slots(own)
    rows = (
        Order.objects.filter(turn=turn)
        .filter(slots | Q(faction=faction))
        .annotate(in_slots=ExpressionWrapper(slots, output_field=BooleanField()))
        .order_by("id")
        .values_list("slot", "payload", "withdrawn", "faction_id", "in_slots")
    )
    read = list(rows)
    orders = latest_orders((s, p, w) for s, p, w, _, in_slots in read if in_slots)
    economy = latest_economy((s, p) for s, p, _, by, _ in read if by == faction.pk)
    return orders, economy


def _current_turn(campaign: Campaign, faction: Faction | None) -> Turn | None:
    """The campaign's current turn (`Campaign.current_turn`), with the faction's mark of its
    orders final read in the same query (R-89: the desk's query count stays as it was)."""
    turns = campaign.turns.filter(archived=False).order_by("-number")
    if faction is None:
        return turns.first()
    mark = FinalOrders.objects.filter(turn=OuterRef("pk"), faction=faction)
    moderator = Membership.objects.filter(
        campaign=campaign, role=Membership.Role.MODERATOR, user_id=OuterRef("unmarked_by_id")
    )
    return turns.annotate(
        final_marked_at=Subquery(mark.values("marked_at")[:1]),
        final_unmarked_at=Subquery(mark.values("unmarked_at")[:1]),
        final_by_moderator=Subquery(mark.annotate(by=Exists(moderator)).values("by")[:1]),
    ).first()


def _sea_graph(world: World) -> dict[str, tuple[str, ...]]:
    return {
        place: world.map.sea_neighbours(place)
        for place in sorted(world.map.provinces)
        if world.map.is_sea(place)
    }


def _belongs(order: dict[str, Any], faction: str | None, world: World) -> bool:
    """Whether an order is the faction's (every order is the moderator's)."""
    if faction is None:
        return True
    if order.get("type") in ("hire", "buyout"):
        return order.get("faction") == faction
    fleet = world.fleets.get(str(order.get("fleet")))
    return fleet is not None and fleet.owner == faction


def campaign_drawing(campaign: Campaign) -> Drawing | None:
    """The campaign's own drawing of its map, read (once per process for the same text:
    maps/drawing.py), or None: it has none, or one the reader no longer takes (a stricter
    reader than the one that kept it), which is then not drawn (R-77)."""
    text = MapDrawing.objects.filter(campaign=campaign).values_list("svg", flat=True).first()
    if not text:
        return None
    try:
        return drawing_read(text)
    except DrawingRefused:
        return None
