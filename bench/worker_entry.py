"""The benchmark's Celery worker: `celery -A config worker --pool=solo`, plus a record of each
`turn_resolve_task` it runs. Started by bench/worker_turn.py as `python -m bench.worker_entry`.

The production task is unchanged: the measure hangs on Celery's task_prerun/task_postrun signals,
connected only in this process. For each task one JSON line goes to BENCH_TASK_LOG: the task's own
wall and CPU time (prerun to postrun), its query count (Django's execute wrappers: COPY statements,
PostgreSQL's bulk writes in campaign/bulk.py, bypass them and are not counted), the process's
resident size before it and its high-water mark after it (`ru_maxrss`), and, when the file
BENCH_TRACE_FLAG exists as the task starts, the peak of Python allocations during the task
(`tracemalloc`, which slows allocation down: those runs are not timed).
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from celery.signals import task_postrun, task_prerun, worker_ready  # noqa: E402
from django.db import connection  # noqa: E402

from bench.service import WORKER_ARGS  # noqa: E402
from config.celery import app  # noqa: E402

LOG = Path(os.environ["BENCH_TASK_LOG"])
TRACE_FLAG = Path(os.environ["BENCH_TRACE_FLAG"])
READY = Path(os.environ["BENCH_WORKER_READY"])
TASK = "campaign.tasks.turn_resolve_task"

_run: dict[str, Any] = {}


def _rss_kb() -> int:
    """The resident size now (the high-water mark is `ru_maxrss`)."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") // 1024


def _count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
    _run["queries"] += 1
    return execute(sql, params, many, context)


@worker_ready.connect
def _ready(**_: Any) -> None:
    READY.write_text(str(os.getpid()))


@task_prerun.connect
def _start(task: Any = None, args: Any = None, **_: Any) -> None:
    if task is None or task.name != TASK:
        return
    traced = TRACE_FLAG.exists()
    _run.clear()
    _run.update(turn=args[0] if args else None, traced=traced, queries=0, rss_before_kb=_rss_kb())
    connection.execute_wrappers.append(_count)
    if traced:
        tracemalloc.start()
    _run["cpu"] = time.process_time()
    _run["start"] = time.perf_counter()
    _run["started_at"] = time.time()


@task_postrun.connect
def _end(task: Any = None, retval: Any = None, **_: Any) -> None:
    if task is None or task.name != TASK or "start" not in _run:
        return
    seconds = time.perf_counter() - _run.pop("start")
    cpu = time.process_time() - _run.pop("cpu")
    if _run["traced"]:
        _run["traced_peak_bytes"] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    if _count in connection.execute_wrappers:
        connection.execute_wrappers.remove(_count)
    record = {
        **_run,
        "retval": retval if isinstance(retval, str) else repr(retval),
        "seconds": seconds,
        "cpu_seconds": cpu,
        "ended_at": time.time(),
        "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }
    with LOG.open("a") as log:
        log.write(json.dumps(record) + "\n")
    _run.clear()


if __name__ == "__main__":
    # WORKER_ARGS less "-m celery -A config": the same worker, on the bench's own queue.
    app.worker_main([*WORKER_ARGS[4:], f"--queues={os.environ['BENCH_QUEUE']}"])
