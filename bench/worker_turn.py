"""Full turn resolution through a real Celery worker (issue 5), on SQLite and on PostgreSQL.

For each size, in a fresh database: the generated campaign (bench/generate.py) is imported, its
turn opened with every fleet's move as an order row; then, as the moderator's dashboard does it,
the turn is locked (`lifecycle.turn_lock`: the world and the orders stored, the task queued on
Redis after the commit), a real worker process (`celery -A config worker --pool=solo`, started by
bench/worker_entry.py, which records each task's time, queries and memory) resolves it, and the
turn is published (`lifecycle.turn_publish`: the result's state written back to the rows). Then it
is rolled back (untimed) and the same turn, with the same seed, goes round again. One untimed
round first (the worker's first task imports the engine; the worker's memory is read from it),
`repetitions` timed rounds, then one round with `tracemalloc` on in the worker for the task's peak
allocation (not timed). The engine alone (`resolve_turn` on the parsed stored scenario) and
`adjudicate` (parse, engine, result document: what the task computes) are timed in the same
process between the rounds, so the same load falls on both. Medians.

Each database runs in its own process (`python -m bench.worker_turn`), which `measure()` starts:
Django is set up once per process, and the figures should not depend on which ran first.
PostgreSQL is measured when a server answers at BENCH_DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/admiralty_bench; the database named there is dropped and
created afresh, so its name must start with "admiralty_bench"); the broker is BENCH_BROKER_URL
(default redis://127.0.0.1:6379/14), on a queue of the run's own, so nothing else is flushed.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/admiralty_bench"
DEFAULT_BROKER = "redis://127.0.0.1:6379/14"
TASK_TIMEOUT = 300.0  # seconds for one resolution, on a loaded machine
READY_TIMEOUT = 120.0


@dataclass(frozen=True, slots=True)
class WorkerRow:
    fleets: int
    ships: int
    database: str
    repetitions: int
    import_s: float
    lock_s: float  # turn_lock in the web process: world read, scenario stored, task queued
    queue_s: float  # from the task's publication (at the lock's commit) to its start in the worker
    task_s: float  # turn_resolve_task in the worker, prerun to postrun
    task_cpu_s: float  # the worker's CPU time in the task (the database server's is not in it)
    publish_s: float  # turn_publish in the web process, the turn read as the dashboard reads it
    lock_to_resolved_s: float  # from calling turn_lock to the task's end, across processes
    engine_s: float  # resolve_turn alone on the parsed stored scenario
    engine_cpu_s: float
    adjudicate_s: float  # parse + resolve_turn + result document, no database (gc paused)
    lock_queries: int
    task_queries: int
    publish_queries: int
    scenario_bytes: int
    result_bytes: int
    task_peak_bytes: int  # tracemalloc's peak during the task (a separate, untimed round)
    worker_idle_kb: int  # the worker's resident size before its first task
    worker_peak_kb: int  # the worker's high-water mark (ru_maxrss) after its untraced tasks

    @property
    def total_s(self) -> float:
        return self.lock_s + self.task_s + self.publish_s

    @property
    def task_ratio(self) -> float:
        return self.task_s / self.engine_s

    @property
    def total_ratio(self) -> float:
        return self.total_s / self.engine_s


@dataclass(frozen=True, slots=True)
class Skipped:
    database: str
    reason: str


# --- the parent: one child process per database ---------------------------------------------


def measure(sizes: tuple[int, ...], repetitions: int) -> tuple[list[WorkerRow], list[Skipped]]:
    """Every size on SQLite and, when a server answers, on PostgreSQL; what was skipped and why."""
    rows: list[WorkerRow] = []
    skipped: list[Skipped] = []
    broker = os.environ.get("BENCH_BROKER_URL", DEFAULT_BROKER)
    problem = _broker_problem(broker)
    if problem:
        return [], [Skipped("sqlite", problem), Skipped("postgresql", problem)]
    with tempfile.TemporaryDirectory(prefix="admiralty-bench-") as folder:
        rows += _child(f"sqlite:///{folder}/bench.sqlite3", broker, sizes, repetitions, folder)
        url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_POSTGRES)
        problem = _fresh_postgres(url)
        if problem:
            skipped.append(Skipped("postgresql", problem))
        else:
            try:
                rows += _child(url, broker, sizes, repetitions, folder)
            finally:
                _drop_postgres(url)
    return rows, skipped


def _child(
    url: str, broker: str, sizes: tuple[int, ...], repetitions: int, folder: str
) -> list[WorkerRow]:
    out = Path(folder) / "rows.json"
    command = [
        sys.executable,
        "-m",
        "bench.worker_turn",
        "--database-url",
        url,
        "--broker-url",
        broker,
        "--sizes",
        ",".join(map(str, sizes)),
        "--repetitions",
        str(repetitions),
        "--out",
        str(out),
    ]
    subprocess.run(command, cwd=ROOT, check=True)
    return [WorkerRow(**row) for row in json.loads(out.read_text())]


def _broker_problem(url: str) -> str | None:
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        return f"no Redis broker at {url} ({' '.join(str(error).split())}); set BENCH_BROKER_URL"
    return None


def _server_url(url: str) -> tuple[str, str]:
    """The URL of the server's maintenance database, and the benchmark database's name."""
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    return urlunsplit(parts._replace(scheme="postgresql", path="/postgres")), name


def _fresh_postgres(url: str) -> str | None:
    import psycopg

    server, name = _server_url(url)
    if not name.startswith("admiralty_bench"):
        return (
            f"BENCH_DATABASE_URL names {name!r}: the benchmark drops it, so its name must start"
            " with 'admiralty_bench'"
        )
    try:
        with psycopg.connect(server, autocommit=True, connect_timeout=3) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as error:
        return f"no PostgreSQL at {server} ({' '.join(str(error).split())}); set BENCH_DATABASE_URL"
    return None


def _drop_postgres(url: str) -> None:
    import psycopg

    server, name = _server_url(url)
    with psycopg.connect(server, autocommit=True, connect_timeout=3) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --- the child: Django set up on one database, a worker per size -----------------------------


def _setup(database_url: str, broker_url: str, queue: str) -> str:
    os.environ["DATABASE_URL"] = database_url
    os.environ["CELERY_BROKER_URL"] = broker_url  # not eager: the task goes through Redis
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command
    from django.db import connection

    django.setup()
    call_command("migrate", verbosity=0)
    from config.celery import app

    app.conf.task_default_queue = queue  # this run's own queue (the worker listens on it only)
    return str(connection.vendor)


@contextmanager
def _counted() -> Iterator[list[int]]:
    from django.db import connection

    count = [0]

    def wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        count[0] += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        yield count


class _Worker:
    """A worker process on the run's database and queue, and the records it writes."""

    def __init__(self, folder: Path, queue: str, name: str) -> None:
        self.log = folder / f"{name}.tasks.jsonl"
        self.trace_flag = folder / f"{name}.trace"
        ready = folder / f"{name}.ready"
        self.stderr = (folder / f"{name}.stderr").open("wb")
        env = {
            **os.environ,
            "BENCH_TASK_LOG": str(self.log),
            "BENCH_TRACE_FLAG": str(self.trace_flag),
            "BENCH_WORKER_READY": str(ready),
            "BENCH_QUEUE": queue,
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bench.worker_entry"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=self.stderr,
        )
        self.seen = 0
        deadline = time.monotonic() + READY_TIMEOUT
        while not ready.exists():
            self._check_alive()
            if time.monotonic() > deadline:
                raise SystemExit(f"the benchmark's worker was not ready in {READY_TIMEOUT:g} s")
            time.sleep(0.05)

    def _check_alive(self) -> None:
        if self.process.poll() is not None:
            self.stderr.flush()
            raise SystemExit(
                f"the benchmark's worker exited ({self.process.returncode}):\n"
                + Path(self.stderr.name).read_text()[-3000:]
            )

    def next_record(self, turn_id: int) -> dict[str, Any]:
        """Wait for the record of the next task the worker finishes (for this turn)."""
        deadline = time.monotonic() + TASK_TIMEOUT
        while True:
            lines = self.log.read_text().splitlines() if self.log.exists() else []
            if len(lines) > self.seen:
                record: dict[str, Any] = json.loads(lines[self.seen])
                self.seen += 1
                if record["turn"] != turn_id or record["retval"] != "resolved":
                    raise SystemExit(f"unexpected task record: {record}")
                return record
            self._check_alive()
            if time.monotonic() > deadline:
                raise SystemExit(f"turn {turn_id} was not resolved in {TASK_TIMEOUT:g} s")
            time.sleep(0.01)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.stderr.close()


def _timed(run: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of one call, after a full garbage collection."""
    gc.collect()
    start, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - start, time.process_time() - cpu


def one_size(fleets: int, repetitions: int, vendor: str, queue: str, folder: Path) -> WorkerRow:
    from celery.signals import after_task_publish

    published: list[float] = []  # time.time() of each task this process handed to the broker

    def _published(**_: Any) -> None:
        published.append(time.time())

    after_task_publish.connect(_published, weak=False)
    from bench.database import imported_campaign
    from bench.generate import Spec
    from bench.measure import engine_turn
    from campaign import lifecycle
    from campaign.gc_pause import cyclic_gc_paused
    from campaign.models import Turn
    from engine.naval import adjudicate, parse_scenario

    campaign, import_s = imported_campaign(Spec(fleets=fleets), f"bench-{fleets}")
    turn = lifecycle.turn_open(campaign.current_turn, user=None)
    Turn.objects.filter(pk=turn.pk).update(seed=1)
    turn_id = turn.pk
    worker = _Worker(folder, queue, f"{vendor}-{fleets}")  # after the import: a worker's memory

    def round_trip() -> dict[str, Any]:
        """Lock, the worker resolves, publish (as the dashboard's buttons do); roll back."""
        turn = campaign.current_turn_for_action()
        if turn is None or turn.pk != turn_id or turn.status != Turn.Status.OPEN:
            raise SystemExit(f"the benchmark's turn is not open: {turn}")
        gc.collect()
        published.clear()
        with _counted() as lock_queries:
            called = time.time()
            start = time.perf_counter()
            lifecycle.turn_lock(turn, user=None)
            lock_s = time.perf_counter() - start
        if not published:
            raise SystemExit("turn_lock published no task")
        task = worker.next_record(turn_id)
        turn = campaign.current_turn_for_action()
        if turn is None or turn.status != Turn.Status.RESOLVED:
            raise SystemExit(f"the worker said resolved, the turn says otherwise: {turn}")
        gc.collect()
        with _counted() as publish_queries:
            start = time.perf_counter()
            lifecycle.turn_publish(turn, user=None)
            publish_s = time.perf_counter() - start
        lifecycle.turn_rollback(
            Turn.objects.get(pk=turn_id), user=None, reason="benchmark: once more"
        )
        return {
            **task,
            "lock_s": lock_s,
            "lock_queries": lock_queries[0],
            "publish_s": publish_s,
            "publish_queries": publish_queries[0],
            # The task is published at the lock's commit, inside turn_lock, and a free worker
            # starts it before turn_lock returns: measured from the lock's return, the wait came
            # out negative (-5.3 ms). Both ends are time.time(), the clock the two processes
            # share (perf_counter's and monotonic's zero is each process's own).
            "queue_s": task["started_at"] - published[-1],
            "lock_to_resolved_s": task["ended_at"] - called,
        }

    try:
        first = round_trip()  # untimed: the worker's first task; its memory high-water mark
        archived = campaign.turns.get(pk=turn_id).archived_results.latest("id")
        scenario, result = archived.scenario, archived.result
        parsed = parse_scenario(scenario)
        engine_turn(parsed)  # warm-up

        def computed() -> None:
            with cyclic_gc_paused():  # as the task computes it
                adjudicate(scenario)

        rounds, engine, whole = [], [], []
        for _ in range(repetitions):
            rounds.append(round_trip())
            engine.append(_timed(lambda: engine_turn(parsed)))
            whole.append(_timed(computed))
        worker.trace_flag.touch()
        traced = round_trip()
        worker.trace_flag.unlink()
    finally:
        worker.stop()
        after_task_publish.disconnect(_published)

    def median(key: str) -> float:
        return statistics.median(r[key] for r in rounds)

    return WorkerRow(
        fleets=fleets,
        ships=sum(len(f["ships"]) for f in scenario["fleets"]),
        database=vendor,
        repetitions=repetitions,
        import_s=import_s,
        lock_s=median("lock_s"),
        queue_s=median("queue_s"),
        task_s=median("seconds"),
        task_cpu_s=median("cpu_seconds"),
        publish_s=median("publish_s"),
        lock_to_resolved_s=median("lock_to_resolved_s"),
        engine_s=statistics.median(wall for wall, _ in engine),
        engine_cpu_s=statistics.median(cpu for _, cpu in engine),
        adjudicate_s=statistics.median(wall for wall, _ in whole),
        lock_queries=int(median("lock_queries")),
        task_queries=int(median("queries")),
        publish_queries=int(median("publish_queries")),
        scenario_bytes=len(json.dumps(scenario)),
        result_bytes=len(json.dumps(result)),
        task_peak_bytes=int(traced["traced_peak_bytes"]),
        worker_idle_kb=int(first["rss_before_kb"]),
        worker_peak_kb=max(int(r["maxrss_kb"]) for r in [first, *rounds]),
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.worker_turn", description=__doc__)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--broker-url", required=True)
    parser.add_argument("--sizes", required=True, help="fleets, comma-separated")
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--out", required=True, type=Path)
    args = parser.parse_args(argv)
    queue = f"bench-turn-{os.getpid()}"
    vendor = _setup(args.database_url, args.broker_url, queue)
    rows = []
    try:
        with tempfile.TemporaryDirectory(prefix="admiralty-worker-") as folder:
            for fleets in map(int, args.sizes.split(",")):
                print(f"… {fleets:,} fleets through a worker on {vendor}", flush=True)
                rows.append(one_size(fleets, args.repetitions, vendor, queue, Path(folder)))
    finally:
        import redis

        client = redis.Redis.from_url(args.broker_url)
        for key in [queue, *client.scan_iter(f"_kombu.binding*{queue}")]:
            client.delete(key)  # the run's own queue and its bindings, nothing else
    args.out.write_text(json.dumps([asdict(r) for r in rows]))


if __name__ == "__main__":
    main()
