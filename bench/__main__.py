"""`python -m bench [--quick] [--write-docs]`: run every case once and print the figures."""

from __future__ import annotations

import argparse
from pathlib import Path

from bench import maps, mila, seafarers, seafarers_replay, worker_turn
from bench.cases import campaign, diplomacy_sized, odds
from bench.report import Results, figures, write_docs

SIZES = (250, 1000, 2000)
DOCS = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument(
        "--quick", action="store_true", help="smallest size, 1 repetition (CI smoke run)"
    )
    parser.add_argument(
        "--write-docs", action="store_true", help=f"rewrite the figures section of {DOCS.name}"
    )
    args = parser.parse_args(argv)
    if args.quick and args.write_docs:
        parser.error("--write-docs needs a full run, not --quick")
    sizes = SIZES[:1] if args.quick else SIZES
    # The small cases first, in a fresh process, as the reference figures were measured.
    print("… Diplomacy-sized turn and battle odds", flush=True)
    diplomacy = diplomacy_sized(repetitions=20 if args.quick else 200)
    # MILA diplomacy's process() on the standard map, right after (bench/mila.py; bench-only).
    print("… MILA diplomacy's process(), random games", flush=True)
    anchor, anchor_skipped = mila.measure(quick=args.quick)
    battle_odds = odds(repetitions=1 if args.quick else 5)
    rows = []
    for fleets in sizes:
        print(f"… {fleets:,} fleets", flush=True)
        rows.append(campaign(fleets, repetitions=1 if args.quick else 5))
    # The same turns in full through a real worker, on SQLite and PostgreSQL: each database in a
    # process of its own (bench/worker_turn.py), so this one never sets Django up.
    database, skipped = worker_turn.measure(sizes, repetitions=1 if args.quick else 5)
    for skip in skipped:
        print(f"… {skip.database} through a worker: not measured: {skip.reason}", flush=True)
    results = Results(
        campaigns=rows,
        diplomacy=diplomacy,
        odds=battle_odds,
        database=database,
        skipped=skipped,
        mila=anchor,
        mila_skipped=anchor_skipped,
    )
    section = figures(results)
    print()
    print(section, end="")
    # The seafaring engine beside catanatron, measured in this same run (bench/seafarers.py).
    print("… seafaring engine and catanatron, four random players", flush=True)
    print()
    print(seafarers.section(seafarers.measure(quick=args.quick)), end="")
    # Undo and export of a seafaring game of 2,000 actions, on SQLite and PostgreSQL (issue 14).
    print("… seafaring replay at scale: undo and export", flush=True)
    print()
    replay_rows, replay_skipped = seafarers_replay.measure(quick=args.quick)
    replay_section = seafarers_replay.section(replay_rows, replay_skipped)
    print(replay_section, end="")
    # The naval area map of a 1,000-province world (issue 20 §1).
    print("… the area map of 1,000 provinces", flush=True)
    print()
    print(maps.section(maps.measure_map(repetitions=1 if args.quick else 5)), end="")
    if args.write_docs:
        if skipped:
            raise SystemExit("not writing the docs: a database was not measured (see above)")
        write_docs(DOCS, section)
        seafarers_replay.write_docs(replay_section)
        print(f"\nwrote the figures into {DOCS}")


if __name__ == "__main__":
    main()
