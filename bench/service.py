"""What the load and scale-out benches run against: a PostgreSQL database of their own (created,
migrated, dropped), Django in this process pointed at it, a generated campaign imported, and the
processes a host runs (gunicorn, Celery workers) started on the same database and Redis.

Used by `python -m bench.load` and `python -m bench.scale_out`; nothing here is timed.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
# The server the benches create their databases on, and the broker (its database is flushed
# before and after a run: give the benches one of their own).
SERVER_URL = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
BROKER_URL = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/10")
WORKER_ARGS = [
    "-m",
    "celery",
    "-A",
    "config",
    "worker",
    "--pool=solo",
    "--loglevel=WARNING",
    "--without-gossip",
    "--without-mingle",
    "--without-heartbeat",
]


def database_url(name: str) -> str:
    """The URL of database `name` on the benches' PostgreSQL server."""
    parts = urlsplit(SERVER_URL)
    return urlunsplit(parts._replace(path=f"/{name}"))


def admin_sql(sql: str) -> None:
    import psycopg

    with psycopg.connect(SERVER_URL, autocommit=True) as conn:
        conn.execute(sql)


def create_database(name: str) -> str:
    """A fresh, empty database (dropped first if a crashed run left it); its URL."""
    drop_database(name)
    admin_sql(f'CREATE DATABASE "{name}"')
    return database_url(name)


def drop_database(name: str) -> None:
    admin_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def flush_broker() -> None:
    import redis

    redis.Redis.from_url(BROKER_URL).flushdb()


def setup_django(url: str, *, broker: bool) -> None:
    """Django in this process on database `url` (tables created); with `broker`, tasks go to
    BROKER_URL (a lock queues its resolution there) instead of running in-process."""
    os.environ["DATABASE_URL"] = url
    if broker:
        os.environ["CELERY_BROKER_URL"] = BROKER_URL
    else:
        os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def close_django() -> None:
    """Close this process's database connections (before the database is dropped)."""
    from django.db import connections

    connections.close_all()


def generated_campaign(
    spec: Any, slug: str, *, owners: int | None = None, orders: bool = False
) -> Any:
    """A generated campaign (bench/generate.py) imported, its first turn open; with `orders`,
    every fleet's generated move given (as order rows) and the generator's seed set for the
    lock. `owners`: give the fleets to the first `owners` factions in turn (each its share)."""
    from bench.generate import generate
    from campaign import lifecycle
    from campaign.models import Turn
    from fleets.campaign_files import read_campaign_file
    from fleets.importing import campaign_import
    from fleets.models import Order
    from fleets.services import order_slot

    doc = generate(spec)
    moves = doc.pop("orders")
    seed = doc.pop("seed")
    if owners:
        keys = [f["id"] for f in doc["factions"]][:owners]
        for i, fleet in enumerate(doc["fleets"]):
            fleet["owner"] = keys[i % len(keys)]
    doc.update(format="naval-campaign/1", name=slug, slug=slug)
    _place(doc)
    campaign = campaign_import(read_campaign_file(doc))
    turn = lifecycle.turn_open(campaign.current_turn, user=None)
    if orders:
        Turn.objects.filter(pk=turn.pk).update(seed=seed)
        owner = {f["id"]: f["owner"] for f in doc["fleets"]}
        factions = {f.key: f for f in campaign.factions.all()}
        Order.objects.bulk_create(
            Order(turn=turn, faction=factions[owner[o["fleet"]]], slot=order_slot(o), payload=o)
            for o in moves
        )
    return campaign


def _place(doc: dict[str, Any]) -> None:
    """Positions for the map: the sea provinces on a ring (as the generator links them), each
    land province just outside the first sea its port opens onto."""
    import math

    seas = [p for p in doc["map"]["provinces"] if p["kind"] == "sea"]
    at = {}
    for i, sea in enumerate(seas):
        angle = 2 * math.pi * i / len(seas)
        at[sea["id"]] = (500 + 450 * math.cos(angle), 500 + 450 * math.sin(angle))
        sea["x"], sea["y"] = at[sea["id"]]
    waters = {p["province"]: p["waters"][0] for p in doc["map"]["ports"]}
    for province in doc["map"]["provinces"]:
        if province["kind"] == "land":
            x, y = at[waters[province["id"]]]
            province["x"], province["y"] = 500 + (x - 500) * 1.08, 500 + (y - 500) * 1.08


def free_port(preferred: int) -> int:
    """`preferred` if nothing listens there, else a port the system picks."""
    for port in (preferred, 0):
        with socket.socket() as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(s.getsockname()[1])
    raise RuntimeError("no free port")


def process_env(url: str, **extra: str) -> dict[str, str]:
    """The environment of a server or worker process on database `url` and the benches' broker."""
    return {
        **os.environ,
        "DATABASE_URL": url,
        "CELERY_BROKER_URL": BROKER_URL,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        **extra,
    }


def start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """A child process in its own process group (stopped with everything it forked)."""
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, *args],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def stop(process: subprocess.Popen[bytes], timeout: float = 20) -> None:
    """SIGTERM to the process's group (gunicorn's workers too), SIGKILL if it lingers."""
    import signal

    if process.poll() is not None:
        return
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


def wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited ({process.returncode}):\n{log.read_text()}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port} after {seconds} s")
