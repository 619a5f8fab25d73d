"""The naval map of a 1,000-province world (issue 20 §1): how long the area map takes, drawn cold
(no cache: the first request after a world changes) and warm (the world's geometry and label
plan kept, as maps/map_cache.py and fleets/map_views.py keep them), and the geometry alone
(positions, regions, ports: maps/geometry.measure).

The world is bench/generate.py's 900 seas and 100 lands with no positions (the default
sunflower layout, maps/geometry.default_positions), 200 fleets. Medians of `repetitions` runs
(bench.measure.median_seconds), all in this process, one after the other."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bench.generate import Spec, generate
from bench.measure import median_seconds
from maps import Layout, map_svg
from maps.geometry import measure
from maps.model import read_model


@dataclass(frozen=True, slots=True)
class MapTimes:
    provinces: int
    fleets: int
    geometry_ms: float
    cold_ms: float
    warm_ms: float
    kilobytes: float


def measure_map(repetitions: int = 5, fleets: int = 200) -> MapTimes:
    doc = generate(Spec(fleets=fleets, sea=900, land=100))
    layout = Layout()
    model = read_model(doc, None, True)
    geometry_ms = 1000 * median_seconds(lambda: measure(model, layout, doc), repetitions)
    cold_ms = 1000 * median_seconds(lambda: map_svg(doc, layout), repetitions)
    shared: dict[Any, Any] = {}
    svg = map_svg(doc, layout, shared=shared)
    warm_ms = 1000 * median_seconds(lambda: map_svg(doc, layout, shared=shared), repetitions)
    return MapTimes(
        len(model.kinds),
        len(model.fleets),
        geometry_ms,
        cold_ms,
        warm_ms,
        len(svg.encode()) / 1024,
    )


def section(t: MapTimes) -> str:
    return (
        f"### The area map, {t.provinces:,} provinces and {t.fleets:,} fleets\n\n"
        "| part | median |\n|---|---|\n"
        f"| the geometry: positions, regions, ports | {t.geometry_ms:.0f} ms |\n"
        f"| the whole map, cold | {t.cold_ms:.0f} ms |\n"
        f"| the whole map, geometry and label plan kept | {t.warm_ms:.0f} ms |\n"
        f"| SVG size | {t.kilobytes:,.0f} kB |\n"
    )


if __name__ == "__main__":
    print(section(measure_map()), end="")
