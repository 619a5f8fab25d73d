"""The cyclic garbage collector paused while a map is drawn (maps/svg.py `map_svg`).

A first drawing of a large world makes hundreds of thousands of short-lived tuples and lists
(corners, boxes, places), and each few hundred of them set off a collection that walks every
container the process holds — in a web worker, all of Django's as well. Paused, the drawing
of the 1,000-province world was about a fourteenth faster (docs/benchmarks.md, "The area
map"); reference counting frees what the drawing drops as before, and the collector runs again
as soon as the drawing ends, however it ends. It is turned back on only by the drawing that
turned it off: a drawing in another thread meanwhile leaves it as it found it.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def collector_paused(draw: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(draw)
    def paused(*args: P.args, **kwargs: P.kwargs) -> R:
        was = gc.isenabled()
        gc.disable()
        try:
            return draw(*args, **kwargs)
        finally:
            if was:
                gc.enable()

    return paused
