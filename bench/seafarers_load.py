"""Seafaring games under load (issue 14): `python -m bench.seafarers_load [--quick] [--write-docs]`.

A fresh PostgreSQL database with N games of four seats on the bundled Four Islands board (each
with its own fixed seed, G2), served by gunicorn on a local port; three seats of each game are
human players, threads of this process with `http.client` (a closed loop, no think time), and the
fourth is a bot seat played by a real Celery worker process on Redis (the outbox's bot task,
seafarers/outbox.py). Each player acts through the seafaring API with its seat key
(seafarers/keys.py): `GET …/legal`, then one of the legal actions chosen at random (a generator
seeded per client; `domestic_trade` is left out, it needs an offer, X24) sent with
`POST …/actions` and the log length it saw as `expected_index`; a `game_moved_on` (another seat
acted first, as in a discard for a 7) is read again, never counted as lost. Half the seats
send the action they chose through the desk's form post instead (`POST /g/<slug>/act/`, with
the session, the CSRF token and the log length the desk was drawn at; a quarter as htmx, whose
answer is the desk, a quarter as a plain form, whose answer is a redirect when taken), counted
in the same check as the API's; a trade with the bank goes through the API (its form asks the
rate). While the game waits
for someone else the player reads `legal` again after a short pause. Every few of its actions it
loads its desk, the board page (`/g/<slug>/`, with the session of its user), and the floor view
(bench/floor_view.py: the same stack rendering an empty page). A game stops being driven
when its log reaches the run's length; the bench then waits until the worker owes no bot turn.

Afterwards the database is checked against what the clients were told: each game's log is the
indices 0…n−1 with n its stored length; its player rows are exactly, in order, the actions the
clients were told were accepted (index and action; none lost, none twice); every other row is
the bot seat's; and replaying the log from the first position gives the stored state.

The server time of each route is gunicorn's access log (as bench/load.py); the target, as issue
11's for the naval desk: the board page's and an accepted action's server-time p50 each at most
5× the floor view's, measured in the same run, so that it holds on a busy machine too.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import tempfile
import threading
import time
import traceback
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import service
from bench.docs import load_bench_report, machine, percentile
from bench.http import Connection, Route, Sample, Unexpected, gunicorn_args, server_times

DOCS = service.ROOT / "docs" / "benchmarks.md"
MARKERS = ("<!-- bench:seafarers-load:start -->", "<!-- bench:seafarers-load:end -->")
DATABASE = "admiralty_seafarers_load_bench"  # not the naval bench's: CI may run both
BOARD = "four-islands"  # the bundled four-player board
TARGET_RATIO = 5.0  # board page and action each at most 5× the floor view (server-time p50)
DESK_EVERY = 4  # a player loads its desk (and the floor view) every this many of its actions
POLL_SECONDS = 0.25  # the pause before reading `legal` again while the game waits for another
MOVED_ON = "game_moved_on"
# How the seats act: half through the API, half through the desk's form post (htmx or plain).
MODES = ("api", "htmx", "api", "form")
SECRET_KEY = "bench-seafarers-load"


@dataclass(slots=True)
class Player:
    game: int  # the game's number in the run
    slug: str
    seat: str  # the seat's player id (red, blue, …)
    key: str  # the seat's API key
    session: str  # the user's session cookie (for the desk)
    rng: random.Random
    mode: str = "api"  # api, or htmx / form: the desk's form post (the API only to read)
    accepted: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (index, action)
    by_desk: int = 0  # of them, sent through the desk's form post
    moved_on: int = 0  # actions refused as game_moved_on (another seat acted first)
    samples: list[Sample] = field(default_factory=list)


class Client:
    """One seat's connection (bench/http.py): the user's session for the pages, the seat's key
    for the API (and no cookie there: a key's request carries none)."""

    def __init__(self, player: Player, port: int, cookie_name: str) -> None:
        self.p = player
        self.http = Connection(port, player.samples)
        self.http.cookies[cookie_name] = player.session
        self.csrf = ""

    def request(
        self,
        kind: str,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        expect: tuple[int, ...] = (200,),
        form: dict[str, Any] | None = None,
        htmx: bool = False,
    ) -> tuple[int, str]:
        api = path.startswith("/api/")
        headers = {"Authorization": f"Bearer {self.p.key}"} if api else {}
        if htmx:
            headers["HX-Request"] = "true"
            headers["X-CSRFToken"] = self.csrf
        response = self.http.request(
            kind,
            method,
            path,
            headers=headers,
            body=body,
            form=form,
            expect=expect,
            cookies=not api,
        )
        return response.status, response.text


TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
REFUSED = re.compile(r'data-code="([^"]+)"')


def desk_form(action: dict[str, Any]) -> dict[str, str] | None:
    """The desk's form post for a legal action (seafarers/play_forms.py reads it back), or None
    for one the bench sends through the API only (a trade with the bank asks its rate)."""
    from seafarers.play_forms import COUNTED, PLACE_KEYS, PLAIN

    kind = action["type"]
    if kind in PLACE_KEYS:  # the board's targets post the action as JSON
        return {"type": "place", "action": json.dumps(action)}
    if kind in PLAIN:
        return {"type": kind}
    if kind in COUNTED:
        return {"type": kind, **{r: str(n) for r, n in action[COUNTED[kind]].items()}}
    if kind == "play_monopoly":
        return {"type": kind, "resource": action["resource"]}
    if kind == "play_year_of_plenty":
        take = [r for r, n in sorted(action["take"].items()) for _ in range(n)]
        return {"type": kind, "first": take[0], "second": take[-1]}
    return None


def act_on_desk(
    client: Client, action: dict[str, Any], fields: dict[str, str], expected: int
) -> dict[str, Any] | None:
    """The action posted as the desk posts it (htmx, or a plain form: a redirect when taken);
    the action as the desk reads it when accepted, None when the game moved on."""
    from seafarers.play_forms import read_action

    p = client.p
    form = {
        **fields,
        "csrfmiddlewaretoken": client.csrf,
        "expected": str(expected),
        "control": "board",  # the one control every seat's desk shows (its refusal beside it)
    }
    htmx = p.mode == "htmx"
    status, text = client.request(
        f"action ({p.mode})",
        "POST",
        f"/g/{p.slug}/act/",
        form=form,
        htmx=htmx,
        expect=(200,) if htmx else (200, 302),
    )
    refused = REFUSED.search(text) if (htmx or status == 200) else None
    if refused is None and not htmx and status == 200:
        raise Unexpected(f"{p.slug}/{p.seat}: the desk neither took nor refused {action}")
    if refused is not None:
        if refused.group(1) != MOVED_ON:
            raise Unexpected(f"{p.slug}/{p.seat}: the desk refused {action}: {refused.group(1)}")
        return None
    return read_action(form, player=p.seat, rates=[4] * 5)


def play(client: Client, length: int, errors: list[str], idle_limit: float) -> None:
    """One seat's part until its game's log reaches `length` (or the game ends)."""
    p = client.p
    api = f"/api/games/{p.slug}"
    try:
        desk(client)
        idle_since = time.monotonic()
        while True:
            _, text = client.request("legal (API)", "GET", f"{api}/legal")
            legal = json.loads(text)
            if legal["log_length"] >= length:
                return
            actions = [a for a in legal["actions"] if a.get("type") != "domestic_trade"]
            if not actions:
                if time.monotonic() - idle_since > idle_limit:
                    _, text = client.request("state (API)", "GET", f"{api}/state")
                    if json.loads(text)["status"] not in ("setup", "playing"):
                        return  # the game is over before the run's length
                    raise Unexpected(f"{p.slug}/{p.seat}: waited {idle_limit:.0f} s for a turn")
                time.sleep(POLL_SECONDS)
                continue
            idle_since = time.monotonic()
            action = p.rng.choice(actions)
            fields = desk_form(action) if p.mode != "api" else None
            if fields is not None:
                taken = act_on_desk(client, action, fields, legal["log_length"])
                if taken is None:
                    p.moved_on += 1
                    continue
                p.accepted.append((legal["log_length"], taken))
                p.by_desk += 1
                if len(p.accepted) % DESK_EVERY == 0:
                    desk(client)
                continue
            body = {"action": action, "expected_index": legal["log_length"]}
            status, text = client.request(
                "action (API)", "POST", f"{api}/actions", body=body, expect=(201, 400)
            )
            answer = json.loads(text)
            if status == 400:
                if answer.get("code") != MOVED_ON:
                    raise Unexpected(f"{p.slug}/{p.seat}: a legal action refused: {text}")
                p.moved_on += 1
                continue
            if answer["index"] != legal["log_length"]:
                raise Unexpected(f"{p.slug}/{p.seat}: stored at {answer['index']}")
            p.accepted.append((answer["index"], action))
            if len(p.accepted) % DESK_EVERY == 0:
                desk(client)
    except Exception as error:  # recorded; the run fails its checks
        errors.append(f"{p.slug}/{p.seat}: {error}")
        if not isinstance(error, Unexpected):
            errors.append(traceback.format_exc())


def desk(client: Client) -> None:
    """The seat's desk (the board page), then the floor view on the same stack."""
    _, page = client.request("desk", "GET", f"/g/{client.p.slug}/")
    token = TOKEN.search(page)
    if token is None:
        raise Unexpected(f"{client.p.slug}/{client.p.seat}: no CSRF token on the desk")
    client.csrf = token.group(1)
    client.request("floor", "GET", f"/bench/floor/{client.p.slug}/")


# -- the run ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Config:
    games: int
    length: int  # the log length each game is driven to
    workers: int  # gunicorn sync workers
    bots: bool  # the fourth seat a bot on the worker
    port: int


@dataclass(slots=True)
class Run:
    config: Config
    wall: float = 0.0  # seconds, the players' part
    settle: float = 0.0  # seconds, waiting for the worker's last bot turns
    actions: int = 0  # log rows written in the run (players' and bots')
    accepted: int = 0  # the players' actions the server took (API and desk)
    by_desk: int = 0  # of them, through the desk's form post
    samples: list[Sample] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    checks: list[tuple[str, bool, str]] = field(default_factory=list)
    server: dict[str, list[float]] = field(default_factory=dict)


def prepare(config: Config) -> tuple[list[Any], list[Player], str]:
    """The games (each seeded by its number), the users with their sessions, the seat keys."""
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client as DjangoClient

    from engine.seafarers import state_to_dict
    from seafarers.keys import seat_key_issue
    from seafarers.models import Game
    from seafarers.positions import replay
    from seafarers.services import BOT, game_create, game_start

    moderator = User.objects.create(username="moderator")
    humans = 3 if config.bots else 4
    users = User.objects.bulk_create(
        User(username=f"g{g:03d}p{s}") for g in range(config.games) for s in range(humans)
    )
    sessions = {}
    for user in users:  # a logged-in session each, made here (no password hashing in the run)
        django_client = DjangoClient()
        django_client.force_login(user)
        sessions[user.pk] = django_client.cookies[settings.SESSION_COOKIE_NAME].value
    games, players = [], []
    for g in range(config.games):
        names: list[str | None] = [u.username for u in users[g * humans : (g + 1) * humans]]
        seats = names + ([BOT] if config.bots else [])
        slug = f"sea{g:03d}"
        game = game_create(
            name=f"Load {g}", slug=slug, moderator=moderator, board=BOARD, seats=seats
        )
        game = game_start(game=game, user=moderator)
        # A fixed seed instead of the drawn one (G2): the same dice on every run.
        game.first_position = {**game.first_position, "seed": 1000 + g}
        game.state = state_to_dict(replay(game.first_position, []))
        game.save()
        games.append(game)
        for seat in Game.objects.get(pk=game.pk).seats.filter(bot=False).order_by("order"):
            players.append(
                Player(
                    game=g,
                    slug=slug,
                    seat=seat.player,
                    key=seat_key_issue(seat=seat),
                    session=sessions[seat.user_id],
                    rng=random.Random(f"{g}:{seat.player}"),
                    mode=MODES[(g + seat.order) % len(MODES)],
                )
            )
    return games, players, settings.SESSION_COOKIE_NAME


def drive(config: Config, players: list[Player], cookie: str, run: Run) -> None:
    threads = [
        threading.Thread(
            target=play,
            args=(Client(p, config.port, cookie), config.length, run.errors, 120.0),
            daemon=True,
        )
        for p in players
    ]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    run.wall = time.perf_counter() - start
    run.samples = [s for p in players for s in p.samples]


def settle(games: list[Any], run: Run, limit: float = 60.0) -> None:
    """Wait until the worker owes no bot turn (the outbox's rows are deleted when done)."""
    from seafarers.models import Outbox

    start = time.perf_counter()
    ids = [g.pk for g in games]
    while time.perf_counter() - start < limit:
        if not Outbox.objects.filter(game_id__in=ids, kind=Outbox.Kind.BOT).exists():
            break
        time.sleep(0.25)
    else:
        run.errors.append(f"the worker still owed bot turns after {limit:.0f} s")
    run.settle = time.perf_counter() - start


def check(games: list[Any], players: list[Player], run: Run) -> None:
    """The database against what the clients were told."""
    from engine.seafarers import state_to_dict
    from engine.seafarers.refusals import Refused
    from seafarers.models import Action, Game
    from seafarers.positions import replay

    told: dict[int, list[tuple[int, dict[str, Any]]]] = defaultdict(list)
    for p in players:
        told[p.game].extend(p.accepted)
    gaps, differ, strangers, replays, shortfall = [], [], [], [], []
    rows_total = players_total = 0
    for g, game in enumerate(games):
        game = Game.objects.get(pk=game.pk)
        rows = list(Action.objects.filter(game=game).order_by("index"))
        rows_total += len(rows)
        if [r.index for r in rows] != list(range(game.log_length)):
            gaps.append(game.campaign.slug)
        stored = [(r.index, r.action) for r in rows if r.sender == Action.Sender.PLAYER]
        players_total += len(stored)
        if stored != sorted(told[g], key=lambda x: x[0]):
            differ.append(game.campaign.slug)
        bots = set(game.seats.filter(bot=True).values_list("player", flat=True))
        if any(
            r.sender != Action.Sender.PLAYER
            and (r.sender != Action.Sender.BOT or r.action.get("player") not in bots)
            for r in rows
        ):
            strangers.append(game.campaign.slug)
        try:
            replayed = state_to_dict(replay(game.first_position, [r.action for r in rows]))
        except Refused:  # a row the engine refuses: the log does not replay at all
            replayed = None
        if replayed != game.state:
            replays.append(game.campaign.slug)
        if game.log_length < run.config.length and game.status in ("setup", "playing"):
            shortfall.append(game.campaign.slug)
    accepted = sum(len(p.accepted) for p in players)
    run.actions, run.accepted = rows_total, accepted
    run.by_desk = sum(p.by_desk for p in players)
    run.checks += [
        (
            "Each game's log is the indices 0…n−1, n its stored length",
            not gaps,
            f"{len(games)} games, {rows_total:,} rows" + (f"; not: {gaps[:5]}" if gaps else ""),
        ),
        (
            "The players' rows are exactly, in order, the actions the clients were told were"
            " accepted, through the API or the desk's form post (none lost, none twice)",
            not differ and players_total == accepted,
            f"{players_total:,} rows, {accepted:,} accepted ({run.by_desk:,} by the desk)"
            + (f"; differ: {differ[:5]}" if differ else ""),
        ),
        (
            "Every other row is the bot seat's, sent by the worker",
            not strangers,
            f"{rows_total - players_total:,} bot rows"
            + (f"; others in: {strangers[:5]}" if strangers else ""),
        ),
        (
            "Each log replays from the first position to the stored state",
            not replays,
            f"{len(games) - len(replays)} of {len(games)}",
        ),
        (
            f"Each game reached {run.config.length} actions (or ended)",
            not shortfall,
            ", ".join(shortfall[:5]) or "all",
        ),
    ]
    errors = [s for s in run.samples if s.error]
    run.checks.append(
        (
            "No failed request",
            not errors and not run.errors,
            f"{len(errors)} failed" + (f": {run.errors[:3]}" if run.errors else ""),
        )
    )


# -- the server's side: gunicorn's access log -----------------------------------------------------

ROUTES: list[Route] = [
    Route("GET", r"/bench/floor/[^/]+/", "floor view", "200"),
    Route("GET", r"/g/[^/]+/", "board page (desk)", "200"),
    Route("POST", r"/api/games/[^/]+/actions", "action (API, accepted)", "201"),
    Route("POST", r"/api/games/[^/]+/actions", "action (API, moved on)", "400"),
    Route("POST", r"/g/[^/]+/act/", "action (desk, htmx)", "200"),
    Route("POST", r"/g/[^/]+/act/", "action (desk form, taken)", "302"),
    Route("GET", r"/api/games/[^/]+/legal", "legal (API)", "200"),
    Route("GET", r"/api/games/[^/]+/state", "state (API)", "200"),
]
FLOOR, BOARD_PAGE, ACTION = ROUTES[0].name, ROUTES[1].name, ROUTES[2].name


def target_checks(run: Run) -> None:
    floor = sorted(run.server.get(FLOOR, []))
    for name in (BOARD_PAGE, ACTION):
        times = sorted(run.server.get(name, []))
        if not floor or not times:
            run.checks.append((f"{name} at most {TARGET_RATIO:g}× the floor view", False, "none"))
            continue
        p50 = percentile(times, 50) / percentile(floor, 50)
        p95 = percentile(times, 95) / percentile(floor, 95)
        run.checks.append(
            (
                f"Target: {name}'s server-time p50 at most {TARGET_RATIO:g}× the floor view's",
                p50 <= TARGET_RATIO,
                f"{p50:.1f}× (p95: {p95:.1f}× the floor's p95)",
            )
        )


# -- the figures --------------------------------------------------------------------------------


def figures(run: Run) -> str:
    c = run.config
    seats = "three human seats and a bot seat on one Celery worker" if c.bots else "four humans"
    out = ["Machine and command:", "", *machine(), ""]
    players = c.games * (3 if c.bots else 4)
    out += [
        f"{c.games} games of four seats ({seats}; {players} player threads), each driven to"
        f" {c.length} actions; gunicorn with {c.workers} sync workers, PostgreSQL and Redis on"
        " the same machine; the clients are threads of the bench process (closed loop, no think"
        " time).",
        "",
        "| log rows written | players' | by the desk's form | wall s | actions/s | requests"
        " | requests/s | moved on (API) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    accepted = run.accepted
    moved = sum(1 for s in run.samples if s.kind == "action (API)" and s.status == 400)
    wall = run.wall or 1.0
    n = len(run.samples)
    out.append(
        f"| {run.actions:,} | {accepted:,} | {run.by_desk:,} | {run.wall:.1f} "
        f"| **{run.actions / wall:.1f}** "
        f"| {n:,} | {n / wall:.1f} | {moved:,} |"
    )
    out += [
        "",
        f"(The worker's last bot turns took {run.settle:.1f} s more; actions/s counts every"
        " row, the bot's too, over the players' wall time.)",
        "",
        "Time in the server by route (ms; gunicorn's access log: from reading the request to"
        " writing the response, without the wait for a free worker):",
        "",
        "| route | count | p50 | p95 | max | p50 ÷ floor's p50 | p95 ÷ floor's p95 |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    floor = sorted(run.server.get(FLOOR, []))
    for name in [*[r.name for r in ROUTES], "other"]:
        times = sorted(run.server.get(name, []))
        if not times:
            continue
        cells = " | ".join(f"{percentile(times, q) * 1000:.0f}" for q in (50, 95, 100))
        ratios = (
            " | ".join(f"{percentile(times, q) / percentile(floor, q):.1f}×" for q in (50, 95))
            if floor
            else "– | –"
        )
        out.append(f"| {name} | {len(times):,} | {cells} | {ratios} |")
    out += [
        "",
        "Latency on the client (ms; from sending to the last byte, with the wait for a worker):",
        "",
        "| request | count | errors | p50 | p95 | max |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    kinds = ("desk", "floor", "legal (API)", "action (API)", "action (htmx)", "action (form)")
    for kind in (*kinds, "state (API)"):
        chosen = [s for s in run.samples if s.kind == kind]
        if not chosen:
            continue
        times = sorted(s.seconds for s in chosen)
        cells = " | ".join(f"{percentile(times, q) * 1000:.0f}" for q in (50, 95, 100))
        out.append(f"| {kind} | {len(chosen):,} | {sum(bool(s.error) for s in chosen)} | {cells} |")
    out += ["", "Checks against the database afterwards, and the target:", ""]
    for name, passed, detail in run.checks:
        out.append(f"- {name}: {'**yes**' if passed else '**NO**'} ({detail})")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.seafarers_load", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--quick", action="store_true", help="3 games of 24 actions (smoke)")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--length", type=int, default=80, help="actions each game is driven to")
    parser.add_argument("--workers", type=int, default=5, help="gunicorn sync workers")
    parser.add_argument("--no-bots", action="store_true", help="four human seats, no worker")
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument(
        "--database", default=DATABASE, help="the database to create, use and drop (its name)"
    )
    parser.add_argument(
        "--write-docs", action="store_true", help=f"write the figures into {DOCS.name}"
    )
    args = parser.parse_args(argv)
    if args.quick and args.write_docs:
        parser.error("--write-docs needs a full run, not --quick")
    config = Config(
        games=3 if args.quick else args.games,
        length=24 if args.quick else args.length,
        workers=2 if args.quick else args.workers,
        bots=not args.no_bots,
        port=service.free_port(args.port),
    )
    run = Run(config)
    logs = Path(tempfile.mkdtemp(prefix="admiralty-seafarers-load-"))
    server = worker = None
    database = args.database
    url = service.create_database(database)
    try:
        service.flush_broker()
        # The server's key here too: the sessions made in prepare() carry a hash made with it.
        os.environ["SECRET_KEY"] = SECRET_KEY
        service.setup_django(url, broker=True)
        print(f"… {config.games} games in {database}", flush=True)
        games, players, cookie = prepare(config)
        env = service.process_env(
            url,
            DEBUG="false",
            SECRET_KEY=SECRET_KEY,
            ALLOWED_HOSTS="127.0.0.1,localhost",
            HTTPS="false",  # plain HTTP on a local port (a production host's proxy ends TLS)
        )
        if config.bots:
            worker = service.start(service.WORKER_ARGS, env, logs / "worker.log")
        server_args = gunicorn_args(config.port, config.workers, logs / "access.log")
        log = logs / "gunicorn.log"
        server_env = {**env, "DJANGO_SETTINGS_MODULE": "bench.floor_view_settings"}
        server = service.start(server_args, server_env, log)
        service.wait_for_port(config.port, server, log, 60)
        print(f"… gunicorn on port {config.port}; {len(players)} players", flush=True)
        drive(config, players, cookie, run)
        print(f"  played: {run.wall:.1f} s", flush=True)
        if config.bots:
            settle(games, run)
        check(games, players, run)
        run.server = server_times(logs / "access.log", ROUTES)
        target_checks(run)
        machine()  # the database server's version, read while connected
    finally:
        for process in (server, worker):
            if process is not None:
                service.stop(process)
        service.close_django()
        service.drop_database(database)
        service.flush_broker()
    return load_bench_report(
        figures(run),
        run,
        docs=DOCS,
        markers=MARKERS,
        title="Seafaring games under load (issue 14)",
        write_docs=args.write_docs,
        logs=f"server and worker logs: {logs}",
    )


if __name__ == "__main__":
    raise SystemExit(main())
