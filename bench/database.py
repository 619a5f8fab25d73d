"""A campaign turn end to end through the Django side (issue 3: at most 3× the engine alone).

On a generated campaign in a fresh database (bench/django_setup.py): lock (the world read from the
rows and stored with the orders and the seed), resolve (the engine on the stored scenario; events,
battles and ledger written), publish (the result's state written back to the rows). Each phase is
timed on its own, by calling the services; the turn is rolled back between repetitions.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction

from bench.generate import Spec, generate
from bench.measure import engine_turn, median_seconds
from campaign import lifecycle
from campaign.campaign_files import read_campaign_file
from campaign.importing import campaign_import
from campaign.mapping import orders_document, world_document
from campaign.models import Campaign, Turn
from campaign.resolution import turn_resolve
from engine import parse_scenario
from fleets.models import Order
from fleets.services import order_slot


@dataclass(frozen=True, slots=True)
class DatabaseRow:
    fleets: int
    ships: int
    database: str
    repetitions: int
    import_s: float
    lock_s: float
    resolve_s: float
    publish_s: float
    engine_s: float  # resolve_turn alone on the same scenario, in the same run

    @property
    def total_s(self) -> float:
        return self.lock_s + self.resolve_s + self.publish_s

    @property
    def ratio(self) -> float:
        return self.total_s / self.engine_s


def full_turn(fleets: int, repetitions: int, vendor: str) -> DatabaseRow:
    campaign, import_s = _imported(fleets)
    turn = lifecycle.turn_open(campaign.current_turn, user=None)
    Turn.objects.filter(pk=turn.pk).update(seed=1)
    times: dict[str, list[float]] = {"lock": [], "resolve": [], "publish": []}
    for _ in range(repetitions):
        turn.refresh_from_db()
        times["lock"].append(_timed(lambda: _lock(turn)))
        times["resolve"].append(_timed(lambda: turn_resolve(turn_id=turn.pk)))
        turn.refresh_from_db()
        scenario = turn.scenario
        times["publish"].append(_timed(lambda: lifecycle.turn_publish(turn, user=None)))
        turn.refresh_from_db()
        lifecycle.turn_rollback(turn, user=None, reason="benchmark: once more")
    parsed = parse_scenario(scenario)
    return DatabaseRow(
        fleets=fleets,
        ships=sum(len(f["ships"]) for f in scenario["fleets"]),
        database=vendor,
        repetitions=repetitions,
        import_s=import_s,
        lock_s=statistics.median(times["lock"]),
        resolve_s=statistics.median(times["resolve"]),
        publish_s=statistics.median(times["publish"]),
        engine_s=median_seconds(lambda: engine_turn(parsed), repetitions),
    )


def _imported(fleets: int) -> tuple[Campaign, float]:
    return imported_campaign(Spec(fleets=fleets), f"bench-{fleets}")


def imported_campaign(spec: Spec, slug: str) -> tuple[Campaign, float]:
    """A generated campaign imported, its first turn given every fleet's move (as order rows);
    and the import's time. Also used by the tests of resolution's query counts."""
    doc = generate(spec)
    orders = doc.pop("orders")
    doc.pop("seed")
    doc.update(format="naval-campaign/1", name=slug, slug=slug)
    for province in doc["map"]["provinces"]:
        province["x"] = province["y"] = 500
    source = read_campaign_file(doc)
    start = time.perf_counter()
    campaign = campaign_import(source)
    import_s = time.perf_counter() - start
    turn = campaign.current_turn
    owners = {f["id"]: f["owner"] for f in doc["fleets"]}
    factions = {f.key: f for f in campaign.factions.all()}
    Order.objects.bulk_create(
        Order(turn=turn, faction=factions[owners[o["fleet"]]], slot=order_slot(o), payload=o)
        for o in orders
    )
    return campaign, import_s


def _lock(turn: Turn) -> None:
    """What `lifecycle.turn_lock` does, less queueing the task (eager Celery would run the
    resolution inside the timing; it is timed as its own phase)."""
    with transaction.atomic():
        scenario = {
            **world_document(turn.campaign),
            "seed": turn.seed,
            "orders": orders_document(turn),
        }
        lifecycle.transition(turn, action="lock", user=None, scenario=scenario)


def _timed(run: Callable[[], object]) -> float:
    gc.collect()
    start = time.perf_counter()
    run()
    return time.perf_counter() - start
