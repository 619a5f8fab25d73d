"""What the two paused worker scripts share (tests/campaign/paused_worker.py for the naval
resolution, tests/seafarers/paused_worker.py for a seafaring game): Django set up in a worker
process, a pause at a chosen moment that the test sees through a marker file, and the worker
itself, with the production worker's options (solo pool). The environment:

- PAUSE_AT: where to pause (each script names its moments);
- PAUSE_MARKER: the file written when paused (JSON: what the script names — the turn or the
  game —, the process and, on PostgreSQL, the server process of its database connection); the
  worker goes on once PAUSE_MARKER.go exists (it removes it), or waits ten minutes for the test
  to kill it;
- PAUSE_EVERY: `1` to pause at every run, retries included (default: the first only);
- WORKER_LOGLEVEL: the worker's log level (default WARNING; INFO logs each retry).

A script puts the project on sys.path, imports this module, calls `django_setup()`, wraps the
code it pauses in with a `Pause`, then calls `worker_main()`.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path


def django_setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


class Pause:
    """Called at the chosen moment: writes the marker, then waits for the test's word."""

    def __init__(self) -> None:
        self.marker = Path(os.environ["PAUSE_MARKER"])
        self.release = Path(f"{self.marker}.go")
        self.at = os.environ["PAUSE_AT"]
        self.every = os.environ.get("PAUSE_EVERY") == "1"
        self.paused_before = False

    def __call__(self, **where: int) -> None:
        from django.db import connection

        if self.paused_before and not self.every:
            return
        self.paused_before = True
        backend = None
        if connection.vendor == "postgresql" and connection.connection is not None:
            backend = connection.connection.info.backend_pid
        written = self.marker.with_suffix(".tmp")
        written.write_text(json.dumps({**where, "pid": os.getpid(), "backend": backend}))
        written.rename(self.marker)  # the test sees the whole file or none
        deadline = time.monotonic() + 600
        while not self.release.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        self.release.unlink(missing_ok=True)


def worker_main() -> None:
    """The worker, as production runs it (bench/service.WORKER_ARGS): solo pool, no gossip,
    mingle or heartbeat; on the broker and database of the environment."""
    from config.celery import app

    app.worker_main(
        [
            "worker",
            "--pool=solo",
            f"--loglevel={os.environ.get('WORKER_LOGLEVEL', 'WARNING')}",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
    )
