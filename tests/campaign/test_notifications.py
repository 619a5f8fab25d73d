"""Deadlines, reminders and the published bulletin's webhook."""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import ClassVar

import pytest
from django.core import mail
from django.utils import timezone

from campaign import lifecycle
from campaign.deadlines import check_deadlines
from campaign.models import AuditEntry, Membership, Turn
from fleets.models import Order
from tests.conftest import resolve_with_the_swedes_attacking

Status = Turn.Status


def member(django_user_model, campaign, name, faction_key=None):
    user = django_user_model.objects.create_user(name, f"{name}@example.org", "pw")
    faction = campaign.factions.get(key=faction_key) if faction_key else None
    role = Membership.Role.PLAYER if faction else Membership.Role.MODERATOR
    Membership.objects.create(user=user, campaign=campaign, role=role, faction=faction)
    return user


@pytest.mark.django_db
def test_players_without_orders_are_reminded_once(skirmish, django_user_model, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    member(django_user_model, skirmish, "anna", "danes")
    member(django_user_model, skirmish, "sven", "swedes")
    member(django_user_model, skirmish, "mod")
    turn = lifecycle.turn_open(
        skirmish.current_turn, user=None, deadline=timezone.now() + timedelta(hours=10)
    )
    danes = skirmish.factions.get(key="danes")
    Order.objects.create(
        turn=turn, faction=danes, slot="fleet:d1", payload={"fleet": "d1", "type": "hold"}
    )
    counts = check_deadlines()
    assert counts["reminded"] == 2  # hanse and swedes gave no orders (pirates are not asked)
    assert [m.to for m in mail.outbox] == [["sven@example.org"]]  # hanse has no players
    assert "turn 1" in mail.outbox[0].subject
    check_deadlines()
    assert len(mail.outbox) == 1  # once per deadline


@pytest.mark.django_db
def test_a_passed_deadline_tells_the_moderator_or_locks(skirmish, django_user_model, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    member(django_user_model, skirmish, "mod")
    turn = lifecycle.turn_open(
        skirmish.current_turn, user=None, deadline=timezone.now() - timedelta(minutes=1)
    )
    assert check_deadlines()["moderators_told"] == 1
    assert check_deadlines()["moderators_told"] == 0  # told once
    assert mail.outbox[0].to == ["mod@example.org"]
    turn.refresh_from_db()
    assert turn.status == Status.OPEN
    skirmish.auto_resolve = True
    skirmish.save()
    assert check_deadlines()["locked"] == 1
    turn.refresh_from_db()
    assert turn.status == Status.LOCKED
    assert AuditEntry.objects.get(turn=turn, action="lock").reason == "the deadline passed"


class Recorder(BaseHTTPRequestHandler):
    received: ClassVar[list[tuple[str, dict]]] = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        Recorder.received.append((self.headers["Content-Type"], json.loads(body)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def webhook_server():
    server = HTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    Recorder.received = []
    yield f"http://127.0.0.1:{server.server_port}/hook"
    server.shutdown()


@pytest.mark.django_db
def test_publishing_posts_the_bulletin_to_the_webhook(
    skirmish, webhook_server, django_capture_on_commit_callbacks
):
    skirmish.webhook_url = webhook_server
    skirmish.save()
    turn = resolve_with_the_swedes_attacking(skirmish)
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.turn_publish(turn, user=None)
    assert len(Recorder.received) == 1
    content_type, body = Recorder.received[0]
    assert content_type == "application/json"
    assert set(body) == {"content"}  # Discord's message shape
    # The same public bulletin as on the site (reports/), titled with the campaign and turn.
    assert body["content"].startswith("# Skirmish in the Sound — turn 1")
    assert "Battle at oresund" in body["content"]


@pytest.mark.django_db
def test_a_turn_locked_too_long_is_queued_again(skirmish, django_capture_on_commit_callbacks):
    turn = lifecycle.turn_open(skirmish.current_turn, user=None)
    lifecycle.turn_lock(turn, user=None)  # its task was lost: the callback never ran
    Turn.objects.filter(pk=turn.pk).update(locked_at=timezone.now() - timedelta(minutes=20))
    with django_capture_on_commit_callbacks(execute=True):
        counts = check_deadlines()
    assert counts["requeued"] == 1
    turn.refresh_from_db()
    assert turn.status == Status.RESOLVED
    assert AuditEntry.objects.filter(turn=turn, action="requeue").exists()
