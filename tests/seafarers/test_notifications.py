"""The players told by e-mail and the campaign's webhook (issue 13): "your turn", "you owe a
discard" (B11), "you owe a gold pick" (GD4), "the game is won" (X20) — once each, when it
comes to them, sent by the (eager) worker after the commit."""

from __future__ import annotations

import itertools
import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import ClassVar

import pytest
from django.core import mail

from engine.seafarers import state_to_dict
from seafarers.models import Game
from seafarers.positions import replay
from seafarers.services import game_create, game_start
from tests.seafarers.helpers import play_one

pytestmark = pytest.mark.django_db
SEED = 5  # a game in which a 7 makes players discard and a gold field produces


class Recorder(BaseHTTPRequestHandler):
    received: ClassVar[list[dict]] = []

    def do_POST(self):
        self.received.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def webhook():
    server = HTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Recorder.received = []
    yield f"http://127.0.0.1:{server.server_port}/hook"
    server.shutdown()


def test_the_players_are_told_what_comes_to_them(
    people, webhook, django_capture_on_commit_callbacks, settings
):
    settings.WEBHOOK_ALLOW_PRIVATE = True  # the test's server is on the loopback
    game = game_create(
        name="Isles",
        slug="isles",
        moderator=people["mod"],
        board="small-isles",
        seats=["ann", "bob", "cid"],
    )
    game.campaign.webhook_url = webhook
    game.campaign.save()
    with django_capture_on_commit_callbacks(execute=True):
        game = game_start(game=game, user=people["mod"])
        # A fixed seed instead of the drawn one, so the game (and what it tells) is known.
        game.first_position = {**game.first_position, "seed": SEED}
        game.state = state_to_dict(replay(game.first_position, []))
        game.save()
        while game.status != Game.Status.OVER:
            play_one(game)
    subjects = [(m.subject.split(": ", 1)[1], m.to) for m in mail.outbox]
    kinds = {subject for subject, _ in subjects}
    assert "your turn" in kinds
    assert "you owe a discard" in kinds
    assert "you owe a gold pick" in kinds
    assert sum(s.endswith(" won") for s in kinds) == 1
    won = next(m for m in mail.outbox if m.subject.endswith(" won"))
    assert sorted(won.to) == ["ann@example.org", "bob@example.org", "cid@example.org"]
    # "your turn" when the turn comes to a player, not once per action in it: never twice in
    # a row to the same player unless the game went to others (a discard, a gold pick) between.
    for (first, to), (second, to_next) in itertools.pairwise(subjects):
        assert not (first == second == "your turn" and to == to_next)
    assert (
        sum(s == "your turn" for s, _ in subjects)
        >= game.actions.filter(action__type="end_turn").count()
    )
    assert len(Recorder.received) == len(mail.outbox)
    assert Recorder.received[-1]["content"].startswith("**Isles: ")
    assert all(r["allowed_mentions"] == {"parse": []} for r in Recorder.received)  # no pings
