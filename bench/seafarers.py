"""The seafaring engine's figures beside catanatron's, measured side by side in one run.

`python -m bench.seafarers [--quick]` (also run by `python -m bench`): four random players to the
win or 1,000 actions, ours on the bundled four-player board (examples/four-islands.seafarers.yaml,
its rules too) against catanatron 3.2.1 (base game, its own board; bench-only,
requirements-bench.txt); the longest-route recomputation after a build (median) against
catanatron's all-colours check mid-game; `legal_actions` mid-game (median); the memory of a
game's state. catanatron missing: its figures are reported as not measured.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from engine.seafarers import COMPILED, legal_actions, parse_scenario
from engine.seafarers.chance import seeded_roll
from engine.seafarers.game import apply_listed
from engine.seafarers.generator import generate_board, new_game
from engine.seafarers.routes import longest_route
from engine.seafarers.state import State

PLAYERS = ["red", "blue", "white", "orange"]
LIMIT = 1000
# Issue 23: catanatron's games per second at least 4x by the compiled build (issue 12 asked
# 3x), at least 2.5x by the same sources as plain Python (where no C compiler is at hand).
GAMES_RATIO_TARGET = 4.0
PLAIN_RATIO_TARGET = 2.5
ROUTE_RATIO_TARGET = 0.1  # at most 1/10 of catanatron's all-colours check
LEGAL_TARGET_US = 1000.0
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@dataclass
class Figures:
    games_per_second: float
    actions_per_game: float
    us_per_action: float
    route_median_us: float
    legal_median_us: float
    state_bytes: int
    board_bytes: int
    board: str
    game_median_ms: float
    catan_games_per_second: float | None = None
    catan_us_per_action: float | None = None
    catan_route_us: float | None = None
    catan_game_median_ms: float | None = None
    outputs_us_per_action: float = 0.0  # the outputs alone (see `outputs_alone`)
    build: str = "plain Python"  # the engine build measured (tools/compile_engine.py)
    plain: tuple[float, float, int] | None = None  # games/s, plain sources', catanatron's; games
    load: tuple[float, float] = (0.0, 0.0)  # the 1-minute load average at the start and end
    catan_note: str = ""


BUNDLED = EXAMPLES / "four-islands.seafarers.yaml"


def _board() -> tuple[dict[str, Any], str]:
    """The bundled four-player board's setup position (its rules too), else a generated board."""
    if BUNDLED.exists():
        document = yaml.safe_load(BUNDLED.read_text(encoding="utf-8"))
        if len(document.get("players", [])) == 4 and "board" in document:
            return document, BUNDLED.name
    return new_game(generate_board(1), PLAYERS, 0), "generated (engine.seafarers.generator, seed 1)"


def _who(state: State) -> str:
    if state.phase == "discard":
        return state.players[next(q for q, d in enumerate(state.discard) if d)]
    if state.phase == "gold":
        return state.players[next(q for q, g in enumerate(state.gold_picks) if g)]
    return state.players[state.player]


BUILDS = frozenset({"build_road", "build_ship", "move_ship", "build_settlement", "build_city"})


@dataclass
class Record:
    mid: list[State]
    builds: list[tuple[State, int, bool]]


def _play(start: State, seed: int, record: Record | None = None) -> int:
    """One game of four random players from `start` (seed `seed`), its number of actions;
    `record` gathers the mid-game position and the X10 recomputations' positions."""
    state = start.copy()
    state.seed = seed
    rng = random.Random(seed)
    count = 0
    taken = False
    while state.phase != "over" and count < LIMIT:
        if record is not None and count >= 300 and not taken and state.phase == "action":
            record.mid.append(state.copy())
            taken = True
        action = rng.choice(legal_actions(state, _who(state)))
        apply_listed(state, action)  # listed just now: applied without the checks
        count += 1
        if record is not None and count >= 200 and action["type"] in BUILDS:
            record.builds.append(
                (state.copy(), state.pindex[action["player"]], action["type"] == "build_settlement")
            )
    return count


Steps = list[tuple[list[dict[str, Any]], list[dict[str, Any]]]]


def _steps(start: State, seed: int) -> Steps:
    """One game as `_play` plays it: each action's list and the events it gave."""
    state = start.copy()
    state.seed = seed
    rng = random.Random(seed)
    steps: Steps = []
    while state.phase != "over" and len(steps) < LIMIT:
        listed = legal_actions(state, _who(state))
        steps.append((listed, apply_listed(state, rng.choice(listed))))
    return steps


def _made_anew(value: dict[str, Any]) -> dict[str, Any]:
    """A dict made again, its lists and dicts too (the edges, the cards): what an engine
    returning this API's actions and events builds for each."""
    out = {}
    for key, item in value.items():
        kind = type(item)
        out[key] = list(item) if kind is list else dict(item) if kind is dict else item
    return out


def outputs_alone(start: State, seed: int) -> tuple[float, int]:
    """The outputs alone of one game (seconds, actions): its actions' lists and events, played
    first, made anew, the random player's choice from the same generator, and each roll's
    seeded dice (X22, docs/rulings.md S-1) — no rules. What this API costs any engine."""
    steps = _steps(start, seed)
    rng = random.Random(seed)
    rolls = 0
    t0 = time.perf_counter()
    for listed, events in steps:
        if rng.choice([_made_anew(a) for a in listed])["type"] == "roll":
            seeded_roll(seed, rolls)
            rolls += 1
        for event in events:
            _made_anew(event)
    return time.perf_counter() - t0, len(steps)


def route_times(record: Record) -> list[float]:
    """The X10 recomputation after each recorded build (the builder's route; every player's
    after a settlement), µs each."""
    route: list[float] = []
    for state, p, cut in record.builds[:2000]:
        players = range(len(state.players)) if cut else (p,)
        t0 = time.perf_counter()
        for q in players:
            longest_route(state, q)
        route.append((time.perf_counter() - t0) * 1e6)
    return route


def legal_median(states: list[State]) -> float:
    times = []
    for state in states:
        who = _who(state)
        t0 = time.perf_counter()
        legal_actions(state, who)
        times.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(times)


def memory(state: State) -> tuple[int, int]:
    """Bytes of one state (its board shared) and of the board, by tracemalloc."""
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    copy = state.copy()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del copy
    tracemalloc.start()
    before_board = tracemalloc.get_traced_memory()[0]
    parse_scenario(_board()[0])
    after_board = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return after - before, after_board - before_board


def _catanatron_game(seed: int) -> int:
    """One catanatron game of four random players (its own base board), its number of actions."""
    from catanatron import Color, Game, RandomPlayer

    colours = [Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE]
    game = Game([RandomPlayer(c) for c in colours], seed=seed)
    game.play()
    return len(game.state.actions)


def catanatron_route(games: int) -> float:
    """catanatron's all-colours longest-road check mid-game (µs, median)."""
    from catanatron import Color, Game, RandomPlayer

    colours = [Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE]
    checks = []
    for seed in range(games):
        game = Game([RandomPlayer(c) for c in colours], seed=1000 + seed)
        # mid-game as the anchor measured it: the first colour at 10 roads
        built = [f"P{i}_ROADS_AVAILABLE" for i in range(4)]
        while game.winning_color() is None and game.state.num_turns < 1000:
            game.play_tick()
            if max(15 - game.state.player_state[key] for key in built) >= 10:
                break
        board = game.state.board
        t0 = time.perf_counter()
        for colour in colours:
            board.continuous_roads_by_player(colour)
        checks.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(checks)


def _has_catanatron() -> str:
    try:
        import catanatron  # noqa: F401
    except ImportError:
        return "catanatron is not installed (pip install -r requirements-bench.txt)"
    return ""


def plain_games(games: int) -> tuple[float, float, int] | None:
    """Games/s of the plain sources and of catanatron, alternating as in `measure`, measured in
    a process of its own (ADMIRALTY_PURE_ENGINE=1: the package's modules cannot be loaded
    twice in one process); None when catanatron is missing."""
    env = dict(os.environ, ADMIRALTY_PURE_ENGINE="1")
    command = [sys.executable, "-m", "bench.seafarers", "--plain-games", str(games)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    answer = json.loads(done.stdout)
    return None if answer is None else (answer[0], answer[1], games)


def _plain_main(games: int) -> None:
    """`--plain-games N`: this process's games/s, ours and catanatron's, as JSON."""
    start = parse_scenario(_board()[0]).state
    if _has_catanatron():
        print(json.dumps(None))
        return
    ours = theirs = 0.0
    for seed in range(games):
        t0 = time.perf_counter()
        _play(start, seed)
        ours += time.perf_counter() - t0
        t0 = time.perf_counter()
        _catanatron_game(seed)
        theirs += time.perf_counter() - t0
    print(json.dumps([games / ours, games / theirs]))


def measure(quick: bool = False) -> Figures:
    """Ours and catanatron's games alternate, one each in turn, so both see the same load."""
    board, name = _board()
    games = 5 if quick else 100
    start = parse_scenario(board).state
    note = _has_catanatron()
    load_before = os.getloadavg()[0]
    ours: list[float] = []
    theirs: list[float] = []
    actions = catan_actions = 0
    alone = [0.0, 0]  # the outputs alone: seconds, actions (the first 20 games)
    for seed in range(games):
        t0 = time.perf_counter()
        actions += _play(start, seed)
        ours.append(time.perf_counter() - t0)
        if seed < 20:
            spent, count = outputs_alone(start, seed)
            alone[0] += spent
            alone[1] += count
        if not note:
            t0 = time.perf_counter()
            catan_actions += _catanatron_game(seed)
            theirs.append(time.perf_counter() - t0)
    # The positions for the other figures, from a replay of the first games (not timed above).
    record = Record([], [])
    for seed in range(min(games, 20)):
        _play(start, seed, record)
    mid = record.mid
    figures = Figures(
        games_per_second=games / sum(ours),
        actions_per_game=actions / games,
        us_per_action=sum(ours) / actions * 1e6,
        route_median_us=statistics.median(route_times(record)),
        legal_median_us=legal_median(mid),
        state_bytes=memory(mid[0])[0],
        board_bytes=memory(mid[0])[1],
        board=name,
        load=(load_before, os.getloadavg()[0]),
        game_median_ms=statistics.median(ours) * 1e3,
        outputs_us_per_action=alone[0] / alone[1] * 1e6,
    )
    if note:
        figures.catan_note = note
    else:
        figures.catan_games_per_second = games / sum(theirs)
        figures.catan_us_per_action = sum(theirs) / catan_actions * 1e6
        figures.catan_game_median_ms = statistics.median(theirs) * 1e3
        figures.catan_route_us = catanatron_route(5 if quick else 100)
    if COMPILED:  # and the same sources as plain Python, for comparison
        figures.build = "compiled by mypyc (tools/compile_engine.py)"
        if not note:
            figures.plain = plain_games(5 if quick else 50)
    return figures


def section(f: Figures) -> str:
    lines = ["## Seafaring engine (issue 12)", ""]
    lines.append(
        f"Board: {f.board}; four random players to the win or {LIMIT} actions; ours and "
        f"catanatron's games alternate; the engine's build: {f.build}; load average "
        f"{f.load[0]:.1f} at the start, {f.load[1]:.1f} at the end ({os.cpu_count()} CPUs)."
    )
    lines.append("")
    lines.append("| Figure | Ours | catanatron 3.2.1 | Target | Met |")
    lines.append("|---|---|---|---|---|")
    cg = f.catan_games_per_second
    ratio = f.games_per_second / cg if cg else None
    target = GAMES_RATIO_TARGET if f.build != "plain Python" else PLAIN_RATIO_TARGET
    lines.append(
        f"| games/s | {f.games_per_second:.1f} ({f.actions_per_game:.0f} actions/game, "
        f"{f.us_per_action:.0f} µs/action, median game {f.game_median_ms:.1f} ms) | "
        + (
            f"{cg:.1f} ({f.catan_us_per_action:.0f} µs/action, median game "
            f"{f.catan_game_median_ms:.1f} ms)"
            if cg
            else "not measured"
        )
        + f" | ≥ {target:g}× catanatron | "
        + ((("yes" if ratio >= target else "no") + f" ({ratio:.2f}×)") if ratio else "—")
        + " |"
    )
    if f.plain is not None:
        plain = f.plain[0] / f.plain[1]
        lines.append(
            f"| games/s, the same sources as plain Python (`ADMIRALTY_PURE_ENGINE=1`, "
            f"{f.plain[2]} games each after, in a process of their own) | {f.plain[0]:.1f} | "
            f"{f.plain[1]:.1f} | ≥ {PLAIN_RATIO_TARGET:g}× catanatron | "
            f"{'yes' if plain >= PLAIN_RATIO_TARGET else 'no'} ({plain:.2f}×) |"
        )
    cr = f.catan_route_us
    lines.append(
        f"| route recomputation after a build (X10), median | {f.route_median_us:.1f} µs | "
        + (f"{cr:.0f} µs (all colours)" if cr else "not measured")
        + f" | ≤ {ROUTE_RATIO_TARGET:g}× catanatron's | "
        + (
            (
                ("yes" if f.route_median_us <= ROUTE_RATIO_TARGET * cr else "no")
                + f" ({f.route_median_us / cr:.3f}×)"
            )
            if cr
            else "—"
        )
        + " |"
    )
    met = "yes" if f.legal_median_us < LEGAL_TARGET_US else "no"
    lines.append(
        f"| `legal_actions`, action phase mid-game, median | {f.legal_median_us:.0f} µs | — "
        f"| < {LEGAL_TARGET_US:.0f} µs | {met} |"
    )
    cu = f.catan_us_per_action
    budget = (
        f"; {GAMES_RATIO_TARGET:g}× catanatron leaves {cu / GAMES_RATIO_TARGET:.0f} µs/action "
        "for all"
        if cu
        else ""
    )
    # Made anew by this module's plain Python: a share of ours only when ours is plain too.
    share = "" if COMPILED else f"{f.outputs_us_per_action / f.us_per_action:.0%} of ours"
    lines.append(
        f"| the outputs alone, in plain Python: the same lists and events made anew, the "
        f"choice, the seeded dice; no rules | {f.outputs_us_per_action:.0f} µs/action "
        f"({share}{budget.removeprefix('; ') if not share else budget}) | — | — | — |"
    )
    lines.append(
        f"| memory of a game's state | {f.state_bytes / 1024:.1f} KiB (board shared, "
        f"{f.board_bytes / 1024:.0f} KiB once) | — | — | — |"
    )
    if f.catan_note:
        lines.append("")
        lines.append(f"catanatron: {f.catan_note}.")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.seafarers", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a few games only (smoke run)")
    parser.add_argument("--plain-games", type=int, help=argparse.SUPPRESS)  # plain_games'
    args = parser.parse_args(argv)
    if args.plain_games:
        _plain_main(args.plain_games)
        return
    print(section(measure(args.quick)), end="")


if __name__ == "__main__":
    main()
