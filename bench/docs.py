"""Shared by the load and scale-out benches: the machine's description, percentiles, and writing a
marked section of docs/benchmarks.md."""

from __future__ import annotations

import math
import os
import platform
import shlex
import sys
from pathlib import Path
from typing import Any


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


_VERSION: list[str] = []


def _postgres_version() -> str:
    """The database server's version (read once, while Django's connection is there)."""
    if _VERSION:
        return _VERSION[0]
    try:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            _VERSION.append(f"PostgreSQL {cursor.fetchone()[0]}")
    except Exception:
        return "PostgreSQL"
    return _VERSION[0]


def machine() -> list[str]:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return [
        f"- Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{_postgres_version()}",
        f"- {platform.platform()}; {cpu_model()}; {os.cpu_count()} CPUs; load average "
        f"{load:.1f} at the end",
        f"- Command: `{shlex.join(sys.orig_argv)}`",
    ]


def percentile(ordered: list[float], q: float) -> float:
    """The nearest-rank percentile of sorted values (q in 0..100; 100 is the maximum)."""
    if not ordered:
        return float("nan")
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def write_section(path: Path, markers: tuple[str, str], title: str, section: str) -> None:
    """Replace what lies between the markers; without them, append a section with them."""
    start_marker, end_marker = markers
    text = path.read_text()
    start, end = text.find(start_marker), text.find(end_marker)
    if start < 0 or end < start:
        text = text.rstrip("\n") + f"\n\n## {title}\n\n{start_marker}\n{end_marker}\n"
        start, end = text.find(start_marker), text.find(end_marker)
    path.write_text(text[: start + len(start_marker)] + "\n" + section + text[end:])


def load_bench_report(
    section: str,
    run: Any,
    *,
    docs: Path,
    markers: tuple[str, str],
    title: str,
    write_docs: bool,
    logs: str,
) -> int:
    """A load bench's ending (bench/load.py, bench/seafarers_load.py): its figures printed, the
    first errors, the figures written into the docs if asked; the exit status its checks'
    (`run.checks`: (what, passed, detail) each)."""
    print()
    print(section, end="")
    for error in run.errors[:20]:
        print("error:", error)
    if write_docs:
        write_section(docs, markers, title, section)
        print(f"\nwrote the figures into {docs}")
    print(f"({logs})")
    return 0 if all(passed for _, passed, _ in run.checks) else 1
