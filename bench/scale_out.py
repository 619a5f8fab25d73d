"""Many campaigns, many workers (issue 5): `python -m bench.scale_out [--quick] [--write-docs]`.

20 generated campaigns (1,000 fleets of 10 ships each, each from its own generator seed: its own
map, factions and orders) in one PostgreSQL database; every turn locked in one transaction, so the
20 resolutions are queued on Redis at the same moment, the way a deadline sweep or a busy evening
does it; then resolved by 1 worker process, and, from the same starting state (the database copied
afresh from a template for every round), by 2 (`celery -A config worker --pool=solo`, separate
processes on the same broker and database). Rounds alternate 1, 2, 1, 2, … and the medians are
reported.

Timed: from the commit that queues the tasks to the last turn's `resolved_at` (the workers
stamp it in the writing transaction). Checked after every round, for every turn: resolved, one
`resolve` entry in the audit log, `attempts == 1`, its result the one the engine gives for that
campaign's own scenario when it is resolved alone before any worker runs (compared as canonical
JSON, byte for byte), its battle and ledger rows exactly those of its result; and no campaign's
fleets, ships or treasuries touched (resolving writes none of them: publishing does).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bench import service
from bench.docs import machine, write_section

DOCS = service.ROOT / "docs" / "benchmarks.md"
MARKERS = ("<!-- bench:scale-out:start -->", "<!-- bench:scale-out:end -->")
DATABASE = "admiralty_load_scale"
TEMPLATE = "admiralty_load_scale_template"
SUCCEEDED = re.compile(r"Task campaign\.tasks\.turn_resolve_task\[[^\]]+\] succeeded in ([0-9.]+)s")


@dataclass(frozen=True, slots=True)
class Config:
    campaigns: int
    fleets: int
    rounds: int  # per worker count
    worker_counts: tuple[int, ...] = (1, 2)


@dataclass(slots=True)
class Round:
    workers: int
    lock_s: float  # the transaction that locks every turn (before the clock starts)
    wall_s: float  # first task queued to last turn resolved
    task_s: list[float]  # each task's time, as its worker logged it
    per_worker: list[int]  # turns each worker resolved
    failures: list[str] = field(default_factory=list)


def build(config: Config) -> tuple[dict[int, str], dict[int, str], int]:
    """The campaigns imported into DATABASE, which then becomes the template of every round;
    each turn's expected result (resolved here, alone, before any worker) as canonical JSON, a
    digest of each campaign's world rows, and the number of ships."""
    from bench.generate import Spec
    from campaign.models import Turn
    from engine.naval import adjudicate
    from fleets.mapping import orders_document, world_document

    expected, worlds, ships = {}, {}, 0
    for k in range(config.campaigns):
        spec = Spec(fleets=config.fleets, seed=100 + k)
        campaign = service.generated_campaign(spec, f"scale-{k:02d}", orders=True)
        turn = Turn.objects.get(campaign=campaign, number=1)
        scenario = {
            **world_document(campaign),
            "seed": turn.seed,
            "orders": orders_document(turn),
        }
        expected[turn.pk] = canonical(adjudicate(scenario))
        worlds[campaign.pk] = world_digest(campaign.pk)
        ships += sum(len(f["ships"]) for f in scenario["fleets"])
    return expected, worlds, ships


def canonical(document: Any) -> str:
    """JSON with sorted keys: PostgreSQL's jsonb keeps no key order, so documents are compared
    in this form."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"))


def world_digest(campaign_id: int) -> str:
    """The campaign's fleets, ships and treasuries, hashed (resolving must not change them)."""
    from fleets.models import Faction, Fleet, Ship

    rows = [
        list(Fleet.objects.filter(campaign_id=campaign_id).order_by("id").values_list()),
        list(Ship.objects.filter(campaign_id=campaign_id).order_by("id").values_list()),
        list(
            Faction.objects.filter(campaign_id=campaign_id)
            .order_by("id")
            .values_list("id", "treasury")
        ),
    ]
    return hashlib.sha256(repr(rows).encode()).hexdigest()


def fresh_database() -> None:
    """DATABASE again as the template has it (Django reconnects on its next query)."""
    service.close_django()
    service.drop_database(DATABASE)
    service.admin_sql(f'CREATE DATABASE "{DATABASE}" TEMPLATE "{TEMPLATE}"')


def one_round(
    workers: int, expected: dict[int, str], worlds: dict[int, str], logs: Path, n: int
) -> Round:
    from django.db import transaction

    from campaign import lifecycle
    from campaign.models import Turn

    fresh_database()
    service.flush_broker()
    url = service.database_url(DATABASE)
    env = service.process_env(url, DEBUG="false", SECRET_KEY="bench-scale-out")
    files = [logs / f"round{n}-worker{i + 1}.log" for i in range(workers)]
    processes = [
        service.start([*service.WORKER_ARGS, "--loglevel=INFO", "-n", f"w{i + 1}-{n}@%h"], env, f)
        for i, f in enumerate(files)
    ]
    try:
        wait_for_workers(workers, processes)
        turns = list(Turn.objects.filter(pk__in=expected).only("id", "status", "seed"))
        start = time.perf_counter()
        with transaction.atomic():  # every task is queued when this commits
            for turn in turns:
                lifecycle.turn_lock(turn, user=None, reason="scale-out bench")
        queued = time.time()
        lock_s = time.perf_counter() - start
        last = wait_until_resolved(list(expected), timeout=600)
        wall_s = last - queued
    finally:
        for p in processes:
            service.stop(p)
    logged = [[float(t) for t in SUCCEEDED.findall(f.read_text())] for f in files]
    result = Round(
        workers=workers,
        lock_s=lock_s,
        wall_s=wall_s,
        task_s=[t for each in logged for t in each],
        per_worker=[len(each) for each in logged],
    )
    result.failures = check(expected, worlds)
    return result


def wait_for_workers(count: int, processes: list[Any], seconds: float = 60) -> None:
    """Until `count` workers answer a ping (so the clock does not time their start-up)."""
    from config.celery import app

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for p in processes:
            if p.poll() is not None:
                raise RuntimeError(f"a worker exited with {p.returncode}")
        if len(app.control.ping(timeout=1.0) or []) >= count:
            return
    raise RuntimeError(f"{count} workers did not answer within {seconds} s")


def wait_until_resolved(turn_ids: list[int], timeout: float) -> float:
    """The latest `resolved_at` (a Unix time) once every turn is resolved."""
    from campaign.models import Turn

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = list(Turn.objects.filter(pk__in=turn_ids).values_list("status", "resolved_at"))
        if all(status == Turn.Status.RESOLVED for status, _ in rows):
            return max(at for _, at in rows if isinstance(at, datetime)).timestamp()
        failed = [s for s, _ in rows if s == Turn.Status.FAILED]
        if failed:
            raise RuntimeError(f"{len(failed)} turn(s) failed")
        time.sleep(0.05)
    raise RuntimeError(f"the turns were not all resolved within {timeout} s")


def check(expected: dict[int, str], worlds: dict[int, str]) -> list[str]:
    """What went wrong in this round (nothing, we hope)."""
    from battles.models import Battle
    from campaign.models import AuditEntry, Turn
    from fleets.models import LedgerLine

    failures = []
    for turn in Turn.objects.filter(pk__in=expected).order_by("id"):
        where = f"turn {turn.pk} ({turn.campaign_id})"
        resolves = AuditEntry.objects.filter(turn=turn, action="resolve").count()
        if turn.status != Turn.Status.RESOLVED or resolves != 1 or turn.attempts != 1:
            failures.append(f"{where}: {turn.status}, {resolves} resolves, {turn.attempts} tries")
        if canonical(turn.result) != expected[turn.pk]:
            failures.append(f"{where}: its result is not its own scenario's")
        events = turn.result["events"] if turn.result else []
        battles = sum(e["type"] == "battle" for e in events)
        lines = sum("amount" in e for e in events)
        if (Battle.objects.filter(turn=turn).count(), turn.ledger.count()) != (battles, lines):
            failures.append(f"{where}: battle or ledger rows are not its result's")
    others = Battle.objects.exclude(turn__in=expected).count()
    others += LedgerLine.objects.exclude(turn__in=expected).count()
    if others:
        failures.append(f"{others} battle or ledger rows of no locked turn")
    for campaign_id, digest in worlds.items():
        if world_digest(campaign_id) != digest:
            failures.append(f"campaign {campaign_id}: fleets, ships or treasuries changed")
    return failures


# -- the figures --------------------------------------------------------------------------------


def figures(config: Config, rounds: list[Round], ships: int) -> str:
    by: dict[int, list[Round]] = {
        w: [r for r in rounds if r.workers == w] for w in config.worker_counts
    }
    wall = {w: statistics.median(r.wall_s for r in rs) for w, rs in by.items()}
    out = ["Machine and command:", "", *machine(), ""]
    out += [
        f"{config.campaigns} campaigns of {config.fleets:,} fleets ({ships:,} ships in all) in one"
        " PostgreSQL database, every turn locked in one transaction (the tasks queued on Redis at"
        f" its commit); {config.rounds} round(s) per worker count, alternating, each from a fresh"
        " copy of the database; medians.",
        "",
        "| workers | wall s | turns/s | task s (median) | task s (max) | turns per worker "
        "| lock s | rounds |",
        "|---:|---:|---:|---:|---:|---|---:|---:|",
    ]
    for w, rs in by.items():
        tasks = sorted(t for r in rs for t in r.task_s)
        shares = " · ".join("/".join(str(n) for n in r.per_worker) for r in rs)
        out.append(
            f"| {w} | {wall[w]:.2f} | {config.campaigns / wall[w]:.2f} "
            f"| {statistics.median(tasks):.2f} | {max(tasks):.2f} | {shares} "
            f"| {statistics.median(r.lock_s for r in rs):.2f} | {len(rs)} |"
        )
    walls = "; ".join(
        f"{w} worker{'s' * (w > 1)}: " + ", ".join(f"{r.wall_s:.2f}" for r in rs)
        for w, rs in by.items()
    )
    low, high = min(config.worker_counts), max(config.worker_counts)
    out += [
        "",
        f"Every round's wall time (s): {walls}.",
        "",
        f"**Speed-up, {high} workers against {low}: {wall[low] / wall[high]:.2f}×** (median wall"
        " times). The workers, PostgreSQL and this process share the machine's"
        f" {_cpus()} CPUs.",
        "",
        "Checks after every round, for every turn:",
        "",
    ]
    failures = [f for r in rounds for f in r.failures]
    turns = config.campaigns * len(rounds)
    out.append(
        f"- Resolved exactly once (one `resolve` audit entry, attempts = 1), its result equal to"
        f" its own scenario's resolved alone (canonical JSON), its battle and ledger rows its"
        f" result's; no campaign's fleets, ships or treasuries touched: "
        f"{'**yes**' if not failures else '**NO**'} ({turns} turns in {len(rounds)} rounds"
        + (f"; {len(failures)} failures: {failures[:3]}" if failures else "")
        + ")"
    )
    return "\n".join(out) + "\n"


def _cpus() -> int:
    import os

    return os.cpu_count() or 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.scale_out", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--quick", action="store_true", help="4 campaigns of 200 fleets, 1 round")
    parser.add_argument("--campaigns", type=int, default=20)
    parser.add_argument("--fleets", type=int, default=1000, help="fleets per campaign")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per worker count")
    parser.add_argument(
        "--write-docs", action="store_true", help=f"write the figures into {DOCS.name}"
    )
    args = parser.parse_args(argv)
    if args.quick and args.write_docs:
        parser.error("--write-docs needs a full run, not --quick")
    config = Config(
        campaigns=4 if args.quick else args.campaigns,
        fleets=200 if args.quick else args.fleets,
        rounds=1 if args.quick else args.rounds,
    )
    logs = Path(tempfile.mkdtemp(prefix="admiralty-scale-out-"))
    rounds: list[Round] = []
    try:
        service.drop_database(TEMPLATE)
        url = service.create_database(DATABASE)
        service.setup_django(url, broker=True)
        machine()  # the database server's version, read while connected
        print(f"… {config.campaigns} campaigns of {config.fleets:,} fleets", flush=True)
        expected, worlds, ships = build(config)
        service.close_django()
        service.admin_sql(f'CREATE DATABASE "{TEMPLATE}" TEMPLATE "{DATABASE}"')
        order = [w for _ in range(config.rounds) for w in config.worker_counts]
        for n, workers in enumerate(order, 1):
            print(f"… round {n} of {len(order)}: {workers} worker(s)", flush=True)
            r = one_round(workers, expected, worlds, logs, n)
            print(f"  {r.wall_s:.2f} s, turns per worker {r.per_worker}", flush=True)
            rounds.append(r)
    finally:
        service.close_django()
        service.drop_database(DATABASE)
        service.drop_database(TEMPLATE)
        service.flush_broker()
    section = figures(config, rounds, ships)
    print()
    print(section, end="")
    if args.write_docs:
        write_section(DOCS, MARKERS, "Many campaigns, many workers", section)
        print(f"\nwrote the figures into {DOCS}")
    print(f"(worker logs: {logs})")
    return 0 if not any(r.failures for r in rounds) else 1


if __name__ == "__main__":
    raise SystemExit(main())
