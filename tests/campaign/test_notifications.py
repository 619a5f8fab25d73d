"""Deadlines, reminders and the published bulletin's webhook."""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from email import policy
from email.message import Message
from email.parser import BytesParser
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import ClassVar

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.utils import timezone

from campaign import lifecycle
from campaign.deadlines import check_deadlines
from campaign.models import AuditEntry, Membership, Turn
from campaign.webhooks import WebhookFailed, post_json
from engine.naval import ScenarioError
from fleets.campaign_files import read_campaign_file
from fleets.models import Order
from tests.conftest import resolve_with_the_swedes_attacking, skirmish_campaign_document

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


def form_parts(content_type: str, body: bytes) -> list[Message]:
    """The parts of a multipart/form-data body, read by the standard library's MIME parser."""
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
    message = BytesParser(policy=policy.HTTP).parsebytes(head + body)
    assert message.is_multipart()
    return list(message.iter_parts())


class Recorder(BaseHTTPRequestHandler):
    """A webhook: records each post — its Content-Type (without parameters), the message (the
    JSON body, or a multipart body's payload_json) and the raw request — and answers 204, a
    redirect, or `status` (then once: the next post gets 204)."""

    received: ClassVar[list[tuple[str, dict]]] = []
    raw: ClassVar[list[tuple[str, bytes]]] = []
    paths: ClassVar[list[str]] = []
    redirect_to: ClassVar[str | None] = None
    status: ClassVar[int | None] = None

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        content_type = self.headers["Content-Type"]
        Recorder.raw.append((content_type, body))
        if content_type.startswith("multipart/form-data"):
            (payload,) = (
                p
                for p in form_parts(content_type, body)
                if p.get_param("name", header="content-disposition") == "payload_json"
            )
            message = json.loads(payload.get_payload(decode=True))
        else:
            message = json.loads(body)
        Recorder.received.append((content_type.split(";")[0], message))
        Recorder.paths.append(self.path)
        if Recorder.redirect_to:
            self.send_response(307)
            self.send_header("Location", Recorder.redirect_to)
        elif Recorder.status:
            self.send_response(Recorder.status)
            Recorder.status = None
        else:
            self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def webhook_server():
    server = HTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    Recorder.received, Recorder.raw, Recorder.paths = [], [], []
    Recorder.redirect_to = Recorder.status = None
    yield f"http://127.0.0.1:{server.server_port}/hook"
    server.shutdown()


@pytest.mark.django_db
def test_publishing_posts_the_bulletin_to_the_webhook(
    skirmish, webhook_server, django_capture_on_commit_callbacks, settings
):
    settings.WEBHOOK_ALLOW_PRIVATE = True  # the test's server is on the loopback
    skirmish.webhook_url = webhook_server
    skirmish.save()
    turn = resolve_with_the_swedes_attacking(skirmish)
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.turn_publish(turn, user=None)
    assert len(Recorder.received) == 1
    content_type, body = Recorder.received[0]
    assert content_type == "multipart/form-data"  # the map attached (issue 11)
    assert set(body) == {"content", "allowed_mentions", "attachments"}  # Discord's message shape
    assert body["allowed_mentions"] == {"parse": []}  # "@everyone" in a name pings no one
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


def publish_with_webhook(campaign, url, capture):
    campaign.webhook_url = url
    campaign.save()
    turn = resolve_with_the_swedes_attacking(campaign)
    with capture(execute=True):
        lifecycle.turn_publish(turn, user=None)
    return turn


@pytest.mark.django_db
def test_a_webhook_on_the_loopback_is_refused_at_the_post(
    skirmish, webhook_server, django_capture_on_commit_callbacks, settings
):
    """Stored before the rule, or typed where no form checked it: checked again at the post,
    against what the host resolves to then ("localhost" is a name)."""
    assert settings.WEBHOOK_ALLOW_PRIVATE is False  # the default
    url = webhook_server.replace("127.0.0.1", "localhost")
    turn = publish_with_webhook(skirmish, url, django_capture_on_commit_callbacks)
    assert Recorder.received == []
    entry = AuditEntry.objects.get(turn=turn, action="webhook refused")
    assert entry.detail == {"code": "webhook_refused", "turn_status": "published"}
    assert entry.reason.startswith("The webhook's host localhost is a loopback address")
    turn.refresh_from_db()
    assert turn.status == Status.PUBLISHED  # the publication stands


def test_a_webhook_s_redirect_is_not_followed(webhook_server, settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    Recorder.redirect_to = webhook_server.replace("/hook", "/elsewhere")
    with pytest.raises(WebhookFailed, match="HTTP 307"):
        post_json(webhook_server, b"{}")
    assert Recorder.paths == ["/hook"]


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("http://127.0.0.1:8000/hook", "a loopback"),
        ("http://localhost/hook", "a loopback"),
        ("http://[::1]/hook", "a loopback"),
        ("http://[::ffff:127.0.0.1]/hook", "a loopback"),
        ("http://10.1.2.3/hook", "a private"),
        ("https://192.168.0.10/hook", "a private"),
        ("http://172.16.5.4/hook", "a private"),
        ("http://169.254.169.254/latest/meta-data", "a link-local"),
        ("http://224.0.0.1/hook", "a multicast"),
        ("http://0.0.0.0/hook", "an unspecified"),
        ("http://240.0.0.1/hook", "a reserved"),
        ("http://100.64.0.1/hook", "a non-public"),
    ],
)
@pytest.mark.django_db
def test_a_webhook_on_a_non_public_address_is_refused_where_it_is_entered(
    skirmish, url, kind, settings
):
    skirmish.webhook_url = url
    with pytest.raises(ValidationError) as refused:
        skirmish.full_clean()
    (message,) = refused.value.message_dict["webhook_url"]
    assert f"is {kind} address" in message
    assert "this site posts only to public addresses (WEBHOOK_ALLOW_PRIVATE" in message
    settings.WEBHOOK_ALLOW_PRIVATE = True
    skirmish.full_clean()  # the site allows them


@pytest.mark.django_db
def test_a_webhook_on_a_public_address_is_accepted(skirmish):
    skirmish.webhook_url = "https://93.184.215.14/api/webhooks/1/abc"  # a literal: no DNS here
    skirmish.full_clean()


@pytest.mark.django_db
def test_the_admin_form_says_why_a_webhook_is_refused(skirmish, admin_client):
    page = admin_client.get(f"/admin/campaign/campaign/{skirmish.pk}/change/")
    form = page.context["adminform"].form
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data.update(webhook_url="http://169.254.169.254/latest", reason="a new channel")
    data = {k: ("on" if v is True else v) for k, v in data.items() if v is not False}
    answer = admin_client.post(f"/admin/campaign/campaign/{skirmish.pk}/change/", data)
    assert answer.status_code == 200  # the form again, not saved
    assert "is a link-local address (169.254.169.254)" in answer.content.decode()
    skirmish.refresh_from_db()
    assert skirmish.webhook_url == ""


def test_a_campaign_file_with_a_private_webhook_is_refused():
    document = skirmish_campaign_document(settings={"webhook_url": "http://10.0.0.7/hook"})
    with pytest.raises(ScenarioError) as refused:
        read_campaign_file(document)
    (problem,) = refused.value.problems
    assert problem.path == "settings.webhook_url"
    assert "is a private address (10.0.0.7)" in problem.message
