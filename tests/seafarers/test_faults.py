"""Faults around a seafaring game's actions, produced for real (marked `queue`; issue 14): the
worker SIGKILLed while it plays a bot's turn or sends the news (real worker processes on the
test's database and Redis, paused at a chosen moment by tests/seafarers/paused_worker.py); the
database connection dropped mid-action (PostgreSQL: pg_terminate_backend from another
connection) or the database file locked past the timeout (SQLite); Redis refusing connections or
never answering when an action is sent. No mocks: the pauses only hold real code still.
"""

from __future__ import annotations

import base64
import json
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import redis
from django.core import mail
from django.db import connection, connections
from django.utils import timezone

from engine.seafarers import adjudicate, bot_action
from seafarers import services
from seafarers.models import Action, Game, Outbox
from seafarers.outbox import outbox_sweep, outbox_task
from seafarers.scenario_files import game_document
from seafarers.services import GameRefused, action_submit, game_create, game_start
from tests.campaign.workers import (  # noqa: F401  (broker: a fixture)
    BROKER,
    Paused,
    broker,
    in_thread_worker,
    queue_drained,
    use_broker,
    worker_process,
)
from tests.seafarers.helpers import play_one, position

pytestmark = [pytest.mark.queue, pytest.mark.django_db(transaction=True)]

postgresql_only = pytest.mark.skipif(
    "connection.vendor != 'postgresql'",
    reason="SQLite has no server connection to drop; its file lock is tested instead",
)
sqlite_only = pytest.mark.skipif(
    "connection.vendor != 'sqlite'",
    reason="a database file locked by another process is SQLite's fault",
)
SEA_WORKER = [str(Path(__file__).with_name("paused_worker.py"))]
CLOSED_PORT = "redis://127.0.0.1:1/0"  # nothing listens there: connections are refused


class SeaPaused(Paused):
    """A seafaring worker process paused at PAUSE_AT (paused_worker.py; `none`: never), its
    e-mails written as files into `mails`."""

    def __init__(self, folder: Path, at: str, name: str = "paused") -> None:
        self.marker = folder / name
        self.mails = folder / f"{name}-mail"
        self.mails.mkdir()
        self.process = worker_process(
            SEA_WORKER, PAUSE_AT=at, PAUSE_MARKER=str(self.marker), EMAIL_FILE_PATH=str(self.mails)
        )


def mails_in(*folders: Path) -> list[tuple[str, str]]:
    """(subject, recipients) of every e-mail the worker processes wrote."""
    found = []
    for folder in folders:
        for path in sorted(folder.iterdir()):
            headers = dict(
                line.split(": ", 1)
                for line in path.read_text().splitlines()
                if line.startswith(("Subject: ", "To: "))
            )
            found.append((headers["Subject"], headers["To"]))
    return found


def mixed_game(people: dict[str, Any]) -> Game:
    """Small Isles: ann red, a bot blue, bob white; not started."""
    return game_create(
        name="Mixed", slug="mixed", moderator=people["mod"], board="small-isles",
        seats=["ann", None, "bob"],
    )  # fmt: skip


def wait_until(game: Game, predicate: Any, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        game.refresh_from_db()
        if predicate(game):
            return
        time.sleep(0.2)
    raise AssertionError(f"not reached: {game.status}, {game.log_length} actions")


def assert_whole(game: Game) -> None:
    """The game is its log (G1): indices 0 … n-1 with no gap, and the stored state is the
    engine's replay of the exported log."""
    game.refresh_from_db()
    indices = list(game.actions.order_by("index").values_list("index", flat=True))
    assert indices == list(range(game.log_length))
    assert adjudicate(game_document(game))["state"] == game.state


def blues_turn_once(game: Game) -> None:
    """Blue (the bot) placed its setup settlement and route once, then white's turn."""
    game.refresh_from_db()
    rows = list(game.actions.order_by("index").values_list("index", "sender", "action__player"))
    assert rows[2:4] == [(2, "bot", "blue"), (3, "bot", "blue")]
    assert game.log_length == 4
    assert game.state["turn"]["player"] == "white"
    assert_whole(game)


# The worker killed ----------------------------------------------------------------------------


def messages_in_redis() -> list[dict[str, Any]]:
    """The task messages Redis holds, waiting (the queue, oldest first) or delivered to a worker
    and not acknowledged (`unacked`): each one's task, arguments and ETA."""
    client = redis.Redis.from_url(BROKER)
    raws = list(reversed(client.lrange("celery", 0, -1)))
    raws += [json.dumps(json.loads(kept)[0]) for kept in client.hvals("unacked")]
    found = []
    for raw in raws:
        message = json.loads(raw)
        args = json.loads(base64.b64decode(message["body"]))[0]
        headers = message["headers"]
        found.append({"task": headers["task"], "args": args, "eta": headers["eta"]})
    return found


def assert_in_redis(game: Game) -> None:
    """Every queued outbox row of the game still has its task in Redis (waiting, or held for
    the worker that took it): a worker killed loses none of them."""
    rows = set(game.outbox.exclude(queued_at=None).values_list("pk", flat=True))
    held = {m["args"][0] for m in messages_in_redis() if m["task"].endswith("outbox_task")}
    assert rows <= held, (rows, held)


@pytest.mark.parametrize("moment", ["bot", "bot_between", "bot_done"])
@pytest.mark.usefixtures("broker")
def test_the_worker_killed_while_it_plays_a_bots_turn(people, tmp_path, moment) -> None:
    """SIGKILL inside the bot's action's transaction (written, not committed), between the
    bot's two setup actions (the first committed), or after the bot's turn committed but before
    its task finished: the game is whole, every task owed is still in Redis, and once the task
    comes back (acks_late: Redis delivers it again to the next worker) the bot's turn is there
    exactly once — each action at its index once (the row lock and the expected index), the
    rest of the turn played, nothing played again. The first worker is consuming before the
    game comes to the bot (it has sent ann's "your turn"), so it takes the bot's task as soon
    as it is queued: how a bot's task with a countdown lost the news its turn owed
    (test_the_bots_task_goes_without_an_eta)."""
    game = game_start(game=mixed_game(people), user=people["mod"])
    first = SeaPaused(tmp_path, moment, name="first")
    second = None
    try:
        wait_until(game, lambda g: not g.outbox.exists())  # ann's news sent: the worker is up
        play_one(game)
        play_one(game)  # red's route: the game comes to blue, a bot
        assert first.wait()["game"] == game.pk
        game.refresh_from_db()
        assert game.log_length == {"bot": 2, "bot_between": 3, "bot_done": 4}[moment]
        first.kill()
        assert_whole(game)
        assert_in_redis(game)
        second = SeaPaused(tmp_path, "none", name="second")
        # The killed worker's task comes back once the visibility timeout (4 s here) has passed,
        # at the new worker's next look for lost tasks (every second here).
        wait_until(game, lambda g: g.log_length >= 4 and not g.outbox.exists())
        queue_drained()
    finally:
        first.stop()
        if second is not None:
            second.stop()
    blues_turn_once(game)
    assert not Outbox.objects.exists()


@pytest.mark.usefixtures("broker")
def test_the_bots_task_goes_without_an_eta(people) -> None:
    """The bot's turn is queued to run at once, not with a countdown: a task with an ETA lets
    the worker (solo pool) ask Redis for the next message while it holds it, and a message
    Redis hands over while that task runs stays unread in the worker's socket, in neither the
    queue nor `unacked` — lost if the worker is killed then (kombu's BRPOP; it was the news of
    the bot's turn in `[bot_done]` above; docs/reliability.md)."""
    game = game_start(game=mixed_game(people), user=people["mod"])
    play_one(game)
    play_one(game)  # red's route: the game comes to blue, a bot
    bot = Outbox.objects.get(game=game, kind=Outbox.Kind.BOT)
    tasks = messages_in_redis()
    assert {"task": "seafarers.tasks.outbox_task", "args": [bot.pk], "eta": None} in tasks
    assert [t["eta"] for t in tasks] == [None] * game.outbox.count()


@pytest.mark.usefixtures("broker")
def test_the_worker_killed_while_it_sends_the_news(people, tmp_path) -> None:
    """SIGKILL just before the e-mail goes: the task comes back to the next worker, which sends
    it; once, since its row is deleted when done."""
    game = game_start(game=game_create(
        name="Isles", slug="isles", moderator=people["mod"], board="small-isles",
        seats=["ann", "bob", "cid"],
    ), user=people["mod"])  # fmt: skip
    first = SeaPaused(tmp_path, "news", name="first")
    second = None
    try:
        first.wait()  # ann's "your turn", from the start
        first.kill()
        assert mails_in(first.mails) == []
        second = SeaPaused(tmp_path, "none", name="second")
        wait_until(game, lambda g: not g.outbox.exists())
        queue_drained()
        outbox_task.delay(0)  # a delivery of a task already done (its row gone) does nothing
        queue_drained()
    finally:
        first.stop()
        if second is not None:
            second.stop()
    assert mails_in(first.mails, second.mails) == [
        ("Isles: your turn", "ann@example.org"),
    ]
    assert game.log_length == 0


@pytest.mark.usefixtures("broker")
def test_the_news_delivered_twice_goes_once(game, people) -> None:
    """Two deliveries of one news task (a redelivery after the work, before the ack): the
    first sends and deletes its row, the second finds none."""
    mail.outbox.clear()
    row = Outbox.objects.get(game=game, kind="news")
    outbox_task.delay(row.pk)
    with in_thread_worker():
        wait_until(game, lambda g: not g.outbox.exists(), 30)
        queue_drained()
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]


# The database connection dropped mid-action ---------------------------------------------------


@contextmanager
def held_in_the_transaction() -> Iterator[dict[str, Any]]:
    """The next action stops inside its transaction (the row and the state written, before the
    commit) until `go` is set; `at` is set when it is there, `backend` its server process."""
    where: dict[str, Any] = {"at": threading.Event(), "go": threading.Event()}
    after_change = services._after_change

    def then_hold(game: Game, state: Any, before: Any = None) -> None:
        after_change(game, state, before)
        if connection.vendor == "postgresql":
            where["backend"] = connection.connection.info.backend_pid
        where["at"].set()
        assert where["go"].wait(30)

    services._after_change = then_hold  # type: ignore[assignment]
    try:
        yield where
    finally:
        services._after_change = after_change  # type: ignore[assignment]


def send_in_thread(game: Game, user: Any, action: dict[str, Any], index: int) -> dict[str, Any]:
    outcome: dict[str, Any] = {}

    def send() -> None:
        try:
            outcome["row"] = action_submit(
                game=game, user=user, action=action, expected_index=index
            )
        except Exception as error:
            outcome["error"] = error
        finally:
            connections.close_all()

    outcome["thread"] = threading.Thread(target=send)
    outcome["thread"].start()
    return outcome


@postgresql_only
def test_the_database_connection_dropped_mid_action(game, people) -> None:
    """The server ends the session while the action's transaction is open: the game stays at
    its last whole action, the sender is told plainly (no traceback), and sending the same
    action again with the same expected index applies it once."""
    play_one(game)
    action = bot_action(position(game), "red", 9)
    with held_in_the_transaction() as held:
        sent = send_in_thread(game, people["ann"], action, 1)
        assert held["at"].wait(30)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [held["backend"]])
            assert cursor.fetchone() == (True,)
        game.refresh_from_db()
        assert (game.log_length, game.actions.count()) == (1, 1)  # rolled back by the server
        held["go"].set()
        sent["thread"].join(30)
    refusal = sent["error"]
    assert isinstance(refusal, GameRefused), refusal
    assert refusal.code == "database_unavailable"
    assert "may not have been applied" in refusal.message
    game.refresh_from_db()
    assert (game.log_length, game.actions.count()) == (1, 1)
    assert_whole(game)
    action_submit(game=game, user=people["ann"], action=action, expected_index=1)  # the retry
    with pytest.raises(GameRefused) as again:  # and a retry of the retry changes nothing
        action_submit(game=game, user=people["ann"], action=action, expected_index=1)
    assert again.value.code == "game_moved_on"
    game.refresh_from_db()
    assert game.log_length == 2
    assert game.actions.get(index=1).action == action
    assert_whole(game)


@postgresql_only
@pytest.mark.usefixtures("broker")
def test_the_database_connection_dropped_mid_bot_action_is_retried(people, tmp_path) -> None:
    """The worker's session ended inside the bot's transaction: the task is retried on a new
    connection and the bot's turn is played once."""
    game = game_start(game=mixed_game(people), user=people["mod"])
    worker = SeaPaused(tmp_path, "bot")
    try:
        play_one(game)
        play_one(game)
        backend = worker.wait()["backend"]
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [backend])
        game.refresh_from_db()
        assert game.log_length == 2
        worker.go_on()  # its next statement fails: DatabaseUnavailable, retried in 1 s
        # Redelivery after a kill waits for the visibility timeout (4 s here) and for kombu's
        # next restore of unacknowledged messages in the new worker, which a loaded CI machine
        # delays (once past 60 s): a deadline, returned from as soon as it holds.
        wait_until(game, lambda g: g.log_length >= 4 and not g.outbox.exists(), seconds=180)
        queue_drained()
    finally:
        worker.stop()
    blues_turn_once(game)


@contextmanager
def file_locked() -> Iterator[None]:
    """Another process's write transaction on the database file (a backup, a long admin edit)."""
    other = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


@sqlite_only
def test_the_database_file_locked_past_the_timeout_mid_action(game, people, monkeypatch) -> None:
    """SQLite's counterpart: the file locked by another process for longer than the timeout
    (1 s here) when an action is sent: refused plainly, nothing written; sent again once the
    lock is gone, applied once."""
    monkeypatch.setitem(connection.settings_dict["OPTIONS"], "timeout", 1)
    connection.close()  # the next connection waits 1 s for a lock, not 20
    action = bot_action(position(game), "red", 3)
    with file_locked():
        started = time.monotonic()
        with pytest.raises(GameRefused) as refused:
            action_submit(game=game, user=people["ann"], action=action, expected_index=0)
        assert time.monotonic() - started < 5
    assert refused.value.code == "database_unavailable"
    game.refresh_from_db()
    assert (game.log_length, game.actions.count()) == (0, 0)
    action_submit(game=game, user=people["ann"], action=action, expected_index=0)
    game.refresh_from_db()
    assert game.log_length == 1
    assert_whole(game)


# Redis down when an action is sent -----------------------------------------------------------


@contextmanager
def silent_redis() -> Iterator[str]:
    """A Redis address that accepts connections and never answers (a stuck server)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)  # never accepted: the kernel completes the handshake, nobody replies
    try:
        yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"
    finally:
        server.close()


@pytest.mark.parametrize("down", ["refusing", "silent"])
@pytest.mark.usefixtures("broker")
def test_redis_down_when_an_action_is_sent(people, down) -> None:
    """The action stands and the sender is answered within seconds; the bot's turn and the
    news it owes wait in the outbox, and the periodic sweep sends them once Redis is back:
    the bot plays once, each player is told once."""
    mail.outbox.clear()
    with silent_redis() as silent:
        use_broker(CLOSED_PORT if down == "refusing" else silent)
        started = time.monotonic()
        game = game_start(game=mixed_game(people), user=people["mod"])  # ann's "your turn"
        play_one(game)
        play_one(game)  # red's route: blue's (the bot's) turn is owed
        took = time.monotonic() - started
        assert outbox_sweep(timezone.now() + timedelta(hours=1)) == 0  # still down
    assert took < (3 if down == "refusing" else 15), took  # three changes, each bounded
    game.refresh_from_db()
    assert game.log_length == 2  # the actions stand
    assert list(Outbox.objects.order_by("pk").values_list("kind", "queued_at")) == [
        ("news", None),  # ann's "your turn", from the start
        ("news", None),  # blue's (a bot's: no e-mail)
        ("bot", None),
    ]
    assert outbox_sweep() == 0  # too young: their change may still be sending them
    use_broker(BROKER)
    with in_thread_worker():
        assert outbox_sweep(timezone.now() + timedelta(minutes=1)) == 3
        # Redelivery after a kill waits for the visibility timeout (4 s here) and for kombu's
        # next restore of unacknowledged messages in the new worker, which a loaded CI machine
        # delays (once past 60 s): a deadline, returned from as soon as it holds.
        wait_until(game, lambda g: g.log_length >= 4 and not g.outbox.exists(), seconds=180)
        queue_drained()
    blues_turn_once(game)
    assert [m.to for m in mail.outbox] == [["ann@example.org"], ["bob@example.org"]]
    assert [m.subject for m in mail.outbox] == ["Mixed: your turn"] * 2
    assert Action.objects.filter(game=game).count() == 4
