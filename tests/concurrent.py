"""Calls released together, each in its own thread and so on its own database connection: how
the tests make two clicks, two moderators or a whole table act at once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run each call in its own thread, released together; what each returned or raised."""
    start = threading.Barrier(len(calls))
    outcomes: list[Any] = [None] * len(calls)

    def run(n: int) -> None:
        try:
            start.wait(60)
            outcomes[n] = calls[n]()
        except Exception as error:
            outcomes[n] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return outcomes
