"""Reading: what the moderator's pages and the tasks ask of the database."""

from __future__ import annotations

from campaign.models import Faction, Turn
from fleets.models import Fleet, Order


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
