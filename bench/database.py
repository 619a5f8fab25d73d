"""A generated campaign in the database, its turn ready to lock.

The full turn through the database — lock, resolution, publish — is measured through a real
Celery worker in bench/worker_turn.py (issue 5), which replaced the in-process phases measured
here before (issue 3): the same three service calls, now with the task queued on Redis and run by
a worker process, as in production.
"""

from __future__ import annotations

import time

from bench.generate import Spec, generate
from campaign.models import Campaign
from fleets.campaign_files import read_campaign_file
from fleets.importing import campaign_import
from fleets.models import Order
from fleets.services import order_slot


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
