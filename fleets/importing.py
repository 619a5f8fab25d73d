"""Creating a campaign from a checked campaign file (docs/campaign-format.md)."""

from __future__ import annotations

from django.db import transaction

from campaign.models import AuditEntry, Campaign, Turn
from campaign.rulesets import ruleset_of
from engine.naval import parse_scenario, state_to_dict
from fleets.campaign_files import CampaignFile
from fleets.models import (
    Adjacency,
    Faction,
    MapDrawing,
    NavalSettings,
    Port,
    Province,
    Relation,
    ShipType,
)


class ImportRefused(Exception):
    """The file is a valid campaign, but it cannot be imported here (say, its slug is taken)."""


@transaction.atomic
def campaign_import(source: CampaignFile, *, user: object = None) -> Campaign:
    """The campaign with its naval settings (rules, fog of war), its map (with its own drawing
    when the file brings one), factions, relations, ship types and starting fleets, and its
    first turn as a draft for the moderator to open."""
    if Campaign.objects.filter(slug=source.slug).exists():
        raise ImportRefused(f"There is already a campaign called {source.slug!r}.")
    doc = source.scenario
    settings = {**source.settings, "webhook_url": source.settings.get("webhook_url") or ""}
    fog_of_war = settings.pop("fog_of_war", True)  # the naval settings are this app's row
    resolve_early = settings.pop("resolve_early", False)  # theirs too
    campaign = Campaign.objects.create(
        name=source.name, slug=source.slug, description=source.description, **settings
    )
    NavalSettings.objects.update_or_create(  # made with the campaign (settings_made)
        campaign=campaign,
        defaults={
            "rules": doc.get("rules") or {},
            "fog_of_war": fog_of_war,
            "resolve_early": resolve_early,
            "map_fill": source.map_fill,
        },
    )
    factions = {}
    for item in doc.get("factions") or []:
        extras = source.faction_extras.get(item["id"], {})
        factions[item["id"]] = Faction(
            campaign=campaign,
            key=item["id"],
            name=extras.get("name", item["id"]),
            colour=extras.get("colour", "#777777"),
            treasury=item.get("treasury", 0),
            income=item.get("income", 0),
            upkeep_priority=item.get("upkeep_priority", []),
        )
    factions[Faction.PIRATES] = Faction(
        campaign=campaign, key=Faction.PIRATES, name="Pirates", colour="#222222"
    )
    Faction.objects.bulk_create(factions.values())
    game_map = doc["map"]
    provinces = {
        p["id"]: Province(
            campaign=campaign,
            key=p["id"],
            kind=p["kind"],
            name=source.province_extras.get(p["id"], {}).get("name", p["id"]),
            x=source.province_extras.get(p["id"], {}).get("x", 0),
            y=source.province_extras.get(p["id"], {}).get("y", 0),
        )
        for p in game_map.get("provinces") or []
    }
    Province.objects.bulk_create(provinces.values())
    pairs = {tuple(sorted(pair)) for pair in game_map.get("adjacent") or []}
    Adjacency.objects.bulk_create(
        Adjacency(campaign=campaign, a=provinces[a], b=provinces[b]) for a, b in sorted(pairs)
    )
    ports = {
        p["id"]: Port(
            campaign=campaign,
            key=p["id"],
            name=source.port_names.get(p["id"], p["id"]),
            province=provinces[p["province"]],
            owner=factions[p["owner"]],
        )
        for p in game_map.get("ports") or []
    }
    Port.objects.bulk_create(ports.values())
    Port.waters.through.objects.bulk_create(
        Port.waters.through(port_id=ports[p["id"]].pk, province_id=provinces[w].pk)
        for p in game_map.get("ports") or []
        for w in p["waters"]
    )
    Relation.objects.bulk_create(
        Relation(
            campaign=campaign,
            low=factions[min(r["between"])],
            high=factions[max(r["between"])],
            state=r["state"],
        )
        for r in doc.get("relations") or []
        if "pirates" not in r["between"]
    )
    ShipType.objects.bulk_create(
        ShipType(
            campaign=campaign, key=t["id"], cost=t["cost"], attack=t["attack"], health=t["health"]
        )
        for t in doc.get("ship_types") or []
    )
    if source.map_svg:  # checked against this world by the file's reader
        MapDrawing.objects.create(campaign=campaign, svg=source.map_svg)
    # The fleets as the engine reads them: every default (health, owner, …) filled in.
    ruleset_of(campaign).state_apply(campaign, state_to_dict(parse_scenario(doc).world))
    Turn.objects.create(campaign=campaign, number=1)
    AuditEntry.objects.create(
        campaign=campaign,
        user=user if getattr(user, "pk", None) else None,
        action="import",
        detail={"slug": campaign.slug},
    )
    return campaign
