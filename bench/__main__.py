"""`python -m bench [--quick] [--write-docs]`: run every case once and print the figures."""

from __future__ import annotations

import argparse
from pathlib import Path

from bench.cases import campaign, diplomacy_sized, odds
from bench.django_setup import setup_django
from bench.report import Results, figures, write_docs

SIZES = (500, 1000, 2000)
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
    battle_odds = odds(repetitions=1 if args.quick else 5)
    rows = []
    for fleets in sizes:
        print(f"… {fleets:,} fleets", flush=True)
        rows.append(campaign(fleets, repetitions=1 if args.quick else 5))
    # The same turn end to end through the database (Django set up only now: the cases above
    # measure the engine alone).
    vendor = setup_django()
    from bench.database import full_turn

    database = []
    for fleets in sizes:
        print(f"… {fleets:,} fleets through the {vendor} database", flush=True)
        database.append(full_turn(fleets, repetitions=1 if args.quick else 3, vendor=vendor))
    results = Results(campaigns=rows, diplomacy=diplomacy, odds=battle_odds, database=database)
    section = figures(results)
    print()
    print(section, end="")
    if args.write_docs:
        write_docs(DOCS, section)
        print(f"\nwrote the figures into {DOCS}")


if __name__ == "__main__":
    main()
