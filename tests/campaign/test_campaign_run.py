"""A whole campaign on the bundled Baltic map: several turns, every fleet ordered each turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign import lifecycle
from campaign.models import Campaign, Turn
from campaign.scenario_files import read_scenario_document
from engine.naval import adjudicate, legal_orders, parse_scenario
from fleets.campaign_files import read_campaign_file
from fleets.importing import campaign_import
from fleets.mapping import world_document
from fleets.models import Faction, Ship
from fleets.moderation import pirate_suggestions
from fleets.services import order_submit

BALTIC = Path(__file__).resolve().parents[2] / "examples" / "baltic.campaign.yaml"


def baltic() -> Campaign:
    return campaign_import(read_campaign_file(read_scenario_document(BALTIC)))


def give_every_fleet_an_order(turn: Turn, number: int) -> int:
    """Each fleet sails as far as it can (a different choice each turn); pirates as suggested."""
    campaign = turn.campaign
    world = parse_scenario(world_document(campaign)).world
    factions = {f.key: f for f in campaign.factions.all()}
    given = 0
    for fleet in world.fleets.values():
        if fleet.owner == "pirates" or fleet.adrift:
            continue
        moves = sorted(legal_orders(world, fleet.id).moves.items())
        if not moves:
            continue
        _, path = moves[number % len(moves)]
        order = {
            "fleet": fleet.id,
            "type": "move",
            "path": list(path),
            "retreat": {"below": 0.5},
            "prefer": "capture",
        }
        result = order_submit(turn=turn, faction=factions[fleet.owner], order=order)
        assert not hasattr(result, "code"), result
        given += 1
    for order in pirate_suggestions(campaign):
        order_submit(turn=turn, faction=factions["pirates"], order=order)
    return given


def play_turn(campaign: Campaign, number: int, run_resolution) -> Turn:
    turn = campaign.current_turn
    if turn.status == Turn.Status.DRAFT:
        turn = lifecycle.turn_open(turn, user=None)
    assert turn.number == number
    assert give_every_fleet_an_order(turn, number) > 0
    turn = run_resolution(turn)
    assert turn.status == Turn.Status.RESOLVED, turn.error
    assert turn.result == adjudicate(turn.scenario)  # reproducible from what was stored
    lifecycle.turn_publish(turn, user=None)
    return turn


@pytest.mark.django_db
def test_four_turns_on_the_bundled_map(django_capture_on_commit_callbacks) -> None:
    campaign = baltic()

    def resolve_eagerly(turn: Turn) -> Turn:
        with django_capture_on_commit_callbacks(execute=True):
            lifecycle.turn_lock(turn, user=None)
        turn.refresh_from_db()
        return turn

    battles = 0
    for number in range(1, 5):
        turn = play_turn(campaign, number, resolve_eagerly)
        battles += turn.battles.count()
        # The world in the database is the result's state, ship by ship.
        ships = {
            s["id"]: (s["health"], s["owner"])
            for f in turn.result["state"]["fleets"]
            for s in f["ships"]
        }
        stored = {
            key: (health, owner)
            for key, health, owner in Ship.objects.filter(campaign=campaign).values_list(
                "key", "health", "owner__key"
            )
        }
        assert stored == ships
        treasuries = {f["id"]: f["treasury"] for f in turn.result["state"]["factions"]}
        assert treasuries == dict(
            Faction.objects.filter(campaign=campaign)
            .exclude(key="pirates")
            .values_list("key", "treasury")
        )
    assert battles > 0
    assert campaign.current_turn.number == 5
