"""The display names of a naval campaign's world, for its reports, desk, review and bulletin."""

from __future__ import annotations

from fleets.models import Faction, Port, Province
from reports.build import Names


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
