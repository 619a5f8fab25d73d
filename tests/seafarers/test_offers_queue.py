""" "An offer for you" and the reminders through a real Redis broker and a real Celery worker
(marked `queue`; issue 13): queued after the commit, sent by the worker by e-mail and to the
game's webhook — the offer's terms to its seat only, the channel told only who offered whom.
TEST_BROKER_URL names the Redis database."""

from __future__ import annotations

import json
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import ClassVar

import pytest
from celery.signals import task_postrun
from django.core import mail

from campaign.models import AuditEntry
from engine.seafarers import state_to_dict
from seafarers.models import Action, Game, Reminder
from seafarers.offers import offer_propose
from seafarers.positions import replay
from seafarers.reminders import reminders_task
from seafarers.services import game_create, game_start
from tests.campaign.workers import broker, in_thread_worker  # noqa: F401  (broker: a fixture)
from tests.seafarers.offer_helpers import trade_turn

pytestmark = [pytest.mark.queue, pytest.mark.django_db(transaction=True)]
SEED = 5


class Recorder(BaseHTTPRequestHandler):
    received: ClassVar[list[dict]] = []

    def do_POST(self):
        self.received.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def webhook(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True  # the test's server is on the loopback
    server = HTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Recorder.received = []
    yield f"http://127.0.0.1:{server.server_port}/hook"
    server.shutdown()


def eventually(predicate, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError("not reached")


def test_the_worker_tells_the_offer_and_the_reminder(broker, people, webhook) -> None:  # noqa: F811
    game = game_create(
        name="Isles", slug="isles", moderator=people["mod"], board="small-isles",
        seats=["ann", "bob", "cid"],
    )  # fmt: skip
    game.campaign.webhook_url = webhook
    game.campaign.save()
    with in_thread_worker():
        game = game_start(game=game, user=people["mod"])
        game.first_position = {**game.first_position, "seed": SEED}
        game.state = state_to_dict(replay(game.first_position, []))
        game.save()
        t = trade_turn(game)
        eventually(lambda: len(mail.outbox) == len(Recorder.received) > 0)  # the news so far
        mail.outbox.clear()
        Recorder.received.clear()
        proposer = game.seats.get(player=t["current"]).user
        offer_propose(game=game, user=proposer, to=t["other"], give=t["give"], get=t["get"])
        eventually(lambda: len(mail.outbox) == 1 and len(Recorder.received) == 1)
        [message] = mail.outbox
        assert message.subject == "Isles: an offer for you"
        assert message.to == [game.seats.get(player=t["other"]).user.email]
        [(resource, count)] = t["give"].items()
        assert f"{count} {resource}" in message.body
        posted = Recorder.received[0]["content"]
        assert posted == f"**Isles**: {t['current']} has made {t['other']} a trade offer."
        assert Recorder.received[0]["allowed_mentions"] == {"parse": []}

        # A day later nobody has acted: the beat's task, on the worker, reminds the player.
        day = timedelta(hours=25)
        for model, rows in (
            (Action, Action.objects.filter(game=game)),
            (AuditEntry, AuditEntry.objects.filter(campaign_id=game.campaign_id)),
            (Game, Game.objects.filter(pk=game.pk)),
        ):
            for row in rows:
                model.objects.filter(pk=row.pk).update(created_at=row.created_at - day)
        mail.outbox.clear()
        reminders_task.delay()
        eventually(lambda: len(mail.outbox) == 1)
        assert mail.outbox[0].subject == "Isles: a reminder"
        assert mail.outbox[0].to == [proposer.email]
        runs: list[int] = []

        def ran(sender=None, retval=None, **_):
            if sender is not None and sender.name == "seafarers.tasks.reminders_task":
                runs.append(retval)

        task_postrun.connect(ran, weak=False)
        try:
            reminders_task.delay()  # a second beat: the same wait, no second reminder
            eventually(lambda: runs == [0])
        finally:
            task_postrun.disconnect(ran)
    assert Reminder.objects.count() == 1
    assert len(mail.outbox) == 1
