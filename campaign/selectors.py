"""Reading: what the moderator's pages and the tasks ask of the database."""

from __future__ import annotations

from campaign.models import Faction, Port, Province, Turn
from fleets.models import Fleet, Order
from reports.build import Names


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


def campaign_names(campaign_id: int) -> Names:
    """Display names and colours of a campaign's factions, provinces and ports: 3 queries."""
    factions = list(
        Faction.objects.filter(campaign_id=campaign_id).values_list("key", "name", "colour")
    )
    return Names(
        factions={key: name for key, name, _ in factions},
        provinces=dict(Province.objects.filter(campaign_id=campaign_id).values_list("key", "name")),
        ports=dict(Port.objects.filter(campaign_id=campaign_id).values_list("key", "name")),
        colours={key: colour for key, _, colour in factions},
    )
