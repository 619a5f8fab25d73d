"""Replay at scale (issue 14): undo and export of a seafaring game of 2,000 actions, on SQLite
and on PostgreSQL.

`python -m bench.seafarers_replay [--quick] [--write-docs]` (also run by `python -m bench`). The
game: four seats on the bundled Four Islands board (examples/four-islands.seafarers.yaml, its
rules, but 1,000 points to win, so it has not ended by then), 2,000 actions played by the
engine's bot for whoever the game waits for (as bot_play would: rolls, production, discards, the
robber, trades, builds, development cards), imported as a game's log through game_create (which
replays it once, G1). Then, `repetitions` times:

- **undo** (`game_undo`, the moderator's, with this process's remembered positions cleared so it
  replays the whole log from the first position, G3), checked: the stored state is the engine's
  own after 1,999 actions as played, and a replay of the log minus its last action from the start;
- **export** (`game_document`, the seafarers-scenario/1 file, and its JSON text), checked:
  `adjudicate` on it gives the same state;
- **the action sent again** (`action_submit` by its seat's user, the position remembered from the
  undo), checked: the state is the one after 2,000 actions.

Beside them, the floor: the engine alone replaying the 1,999 actions (`replay`). Medians. Each
database in a process of its own (`--child`), with Celery eager (no worker: no bot seat plays).
PostgreSQL is measured when a server answers at BENCH_REPLAY_DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/admiralty_bench_sea_replay; dropped and created afresh).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "benchmarks.md"
DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/admiralty_bench_sea_replay"
ACTIONS, QUICK_ACTIONS = 2000, 200
SEED = 14  # the dice's seed (G2): the same game every run
SEATS = ("ann", "bob", "cid", "dee")
START, END = "<!-- bench:seafarers-replay:start -->", "<!-- bench:seafarers-replay:end -->"


# --- the long game (also tests/seafarers/test_replay_scale.py's) ------------------------------


def played_log(count: int) -> tuple[dict[str, Any], list[dict[str, Any]], dict[int, Any]]:
    """The first position, `count` actions played by the bot for whoever the game waits for, and
    the engine's state (as a document) after each of the last two."""
    from engine.seafarers import apply_action, bot_action, new_game, parse_scenario, state_to_dict
    from seafarers.boards import COLOURS, bundled_document
    from seafarers.positions import waiting_for

    bundled = bundled_document("four-islands")
    assert bundled is not None
    rules = {**(bundled.get("rules") or {}), "victory_points": 1000}
    first = new_game(bundled["board"], list(COLOURS[:4]), 0, rules)
    first["seed"] = SEED
    state = parse_scenario(first).state.copy()
    actions: list[dict[str, Any]] = []
    states: dict[int, Any] = {}
    for n in range(count):
        player = waiting_for(state)[0]
        action = bot_action(state, player, SEED + n)
        assert action is not None, f"no action for {player} after {n}"
        apply_action(state, dict(action))
        actions.append(action)
        if n >= count - 2:
            states[n + 1] = state_to_dict(state)
    return first, actions, states


def long_game(moderator: Any, first: dict[str, Any], actions: list[Any], slug: str = "long") -> Any:
    """The log as a game of four human seats (users ann, bob, cid, dee, who must exist)."""
    from seafarers.services import game_create

    return game_create(
        name="Long",
        slug=slug,
        moderator=moderator,
        seats=list(SEATS),
        document={**first, "actions": actions},
    )


# --- the parent: one child per database --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Row:
    database: str
    actions: int
    repetitions: int
    import_s: float
    undo_s: float
    export_s: float
    export_bytes: int
    resend_s: float
    floor_s: float  # the engine alone: replay of the log minus its last action

    @property
    def undo_ratio(self) -> float:
        return self.undo_s / self.floor_s


def measure(quick: bool = False) -> tuple[list[Row], list[str]]:
    """SQLite and, when a server answers, PostgreSQL: the rows, and what was not measured."""
    from bench.worker_turn import _drop_postgres, _fresh_postgres

    actions, repetitions = (QUICK_ACTIONS, 1) if quick else (ACTIONS, 5)
    rows, skipped = [], []
    with tempfile.TemporaryDirectory(prefix="admiralty-replay-") as folder:
        rows.append(_child(f"sqlite:///{folder}/replay.sqlite3", actions, repetitions, folder))
        url = os.environ.get("BENCH_REPLAY_DATABASE_URL", DEFAULT_POSTGRES)
        problem = _fresh_postgres(url)
        if problem:
            skipped.append(f"PostgreSQL not measured: {problem}")
        else:
            try:
                rows.append(_child(url, actions, repetitions, folder))
            finally:
                _drop_postgres(url)
    return rows, skipped


def _child(url: str, actions: int, repetitions: int, folder: str) -> Row:
    out = Path(folder) / "row.json"
    command = [sys.executable, "-m", "bench.seafarers_replay", "--child", url, "--out", str(out)]
    command += ["--actions", str(actions), "--repetitions", str(repetitions)]
    env = {**os.environ, "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend"}
    env.pop("CELERY_BROKER_URL", None)  # eager: nothing queued, no worker needed
    subprocess.run(command, cwd=ROOT, check=True, env=env)
    return Row(**json.loads(out.read_text()))


# --- the child ----------------------------------------------------------------------------------


def _run_child(url: str, actions: int, repetitions: int) -> Row:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from engine.seafarers import adjudicate, state_to_dict
    from seafarers import services
    from seafarers.positions import replay
    from seafarers.scenario_files import game_document

    call_command("migrate", verbosity=0)
    first, log, states = played_log(actions)
    make = get_user_model().objects.create_user
    moderator = make(username="mod", password="x")
    users = {name: make(username=name, password="x") for name in SEATS}
    started = time.perf_counter()
    game = long_game(moderator, first, log, slug=f"long-{os.getpid()}")
    import_s = time.perf_counter() - started
    seat_user = {
        s.player: users[s.user.username] for s in game.seats.select_related("membership__user")
    }
    undo, export, resend, floor, size = [], [], [], [], 0
    for _ in range(repetitions):
        services._POSITIONS.clear()  # the undo replays the whole log
        started = time.perf_counter()
        services.game_undo(game=game, user=moderator, reason="bench")
        undo.append(time.perf_counter() - started)
        game.refresh_from_db()
        assert game.state == states[actions - 1], "the undo is not the replay"
        started = time.perf_counter()
        text = json.dumps(game_document(game))
        export.append(time.perf_counter() - started)
        size = len(text.encode())
        assert adjudicate(json.loads(text))["state"] == states[actions - 1]
        started = time.perf_counter()
        again = state_to_dict(replay(first, log[:-1]))
        floor.append(time.perf_counter() - started)
        assert again == states[actions - 1]
        last = log[-1]
        started = time.perf_counter()
        services.action_submit(
            game=game, user=seat_user[last["player"]], action=last, expected_index=actions - 1
        )
        resend.append(time.perf_counter() - started)
        game.refresh_from_db()
        assert game.state == states[actions], "the action sent again differs"
    return Row(
        database=str(connection.vendor),
        actions=actions,
        repetitions=repetitions,
        import_s=import_s,
        undo_s=statistics.median(undo),
        export_s=statistics.median(export),
        export_bytes=size,
        resend_s=statistics.median(resend),
        floor_s=statistics.median(floor),
    )


# --- the report ---------------------------------------------------------------------------------


def section(rows: list[Row], skipped: list[str]) -> str:
    lines = [
        "| database | actions | import | undo | export (file) | action after undo "
        "| engine replay (floor) | undo ÷ floor |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.database} | {r.actions:,} | {r.import_s * 1000:,.0f} ms "
            f"| {r.undo_s * 1000:,.0f} ms | {r.export_s * 1000:,.1f} ms "
            f"({r.export_bytes / 1024:,.0f} KiB) | {r.resend_s * 1000:,.1f} ms "
            f"| {r.floor_s * 1000:,.0f} ms | {r.undo_ratio:.2f}× |"
        )
    reps = rows[0].repetitions if rows else 0
    lines += ["", f"Medians of {reps} repetitions; import is one run. Every repetition checked."]
    lines += [f"- {s}" for s in skipped]
    return "\n".join(lines) + "\n"


def write_docs(text: str) -> None:
    document = DOCS.read_text()
    start, end = document.find(START), document.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"{DOCS}: the markers {START} … {END} are missing")
    DOCS.write_text(document[: start + len(START)] + "\n" + text + document[end:])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.seafarers_replay", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="200 actions, once (CI smoke run)")
    parser.add_argument("--write-docs", action="store_true", help=f"write into {DOCS.name}")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--actions", type=int, default=ACTIONS, help=argparse.SUPPRESS)
    parser.add_argument("--repetitions", type=int, default=5, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        row = _run_child(args.child, args.actions, args.repetitions)
        Path(args.out).write_text(json.dumps(asdict(row)))
        return
    if args.quick and args.write_docs:
        parser.error("--write-docs needs a full run, not --quick")
    rows, skipped = measure(quick=args.quick)
    text = section(rows, skipped)
    print(text, end="")
    if args.write_docs:
        write_docs(text)
        print(f"\nwrote the figures into {DOCS}")


if __name__ == "__main__":
    main()
