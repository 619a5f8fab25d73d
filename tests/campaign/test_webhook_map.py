"""The bulletin posted on publish with the turn's public map attached (issue 11): multipart/
form-data as Discord's webhooks take files — `payload_json` and `files[0]` — sent to a real local
HTTP server that records the request (test_notifications.Recorder). A map that cannot be drawn,
or that the webhook refuses, costs only the picture: the bulletin is posted alone."""

from __future__ import annotations

import json

import pytest

from campaign import lifecycle
from campaign.models import Turn
from campaign.notifications import post_bulletin
from campaign.webhooks import WebhookFailed, WebhookFile, multipart_body, post_with_files
from fleets.models import PublicMap
from fleets.public_maps import turn_public_svg
from maps.png import svg_png
from tests.campaign.test_notifications import Recorder, form_parts, webhook_server
from tests.conftest import resolve_with_the_swedes_attacking

__all__ = ["webhook_server"]  # the fixture, used here
PNG = b"\x89PNG\r\n\x1a\n"


def disposition(part, key):
    return part.get_param(key, header="content-disposition")


@pytest.mark.django_db
def test_publishing_posts_the_bulletin_with_the_public_map_attached(
    skirmish, webhook_server, django_capture_on_commit_callbacks, settings
):
    settings.WEBHOOK_ALLOW_PRIVATE = True  # the test's server is on the loopback
    skirmish.webhook_url = webhook_server
    skirmish.save()
    turn = resolve_with_the_swedes_attacking(skirmish)
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.turn_publish(turn, user=None)
    assert len(Recorder.raw) == 1
    content_type, body = Recorder.raw[0]
    assert content_type.startswith("multipart/form-data; boundary=")
    payload, picture = form_parts(content_type, body)
    assert disposition(payload, "name") == "payload_json"
    assert payload.get_content_type() == "application/json"
    message = json.loads(payload.get_payload(decode=True))
    assert message["content"].startswith("# Skirmish in the Sound — turn 1")
    assert message["allowed_mentions"] == {"parse": []}  # pings no one
    assert message["attachments"] == [
        {
            "id": 0,
            "filename": "turn-1-map.png",
            "description": "Map of Skirmish in the Sound after turn 1, its battles marked",
        }
    ]
    assert disposition(picture, "name") == "files[0]"
    assert disposition(picture, "filename") == "turn-1-map.png"
    assert picture.get_content_type() == "image/png"
    png = picture.get_payload(decode=True)
    assert png.startswith(PNG)
    # The public map (no fleet under fog), the same bytes the public link serves, drawn once.
    turn = Turn.objects.get(pk=turn.pk)
    assert png == svg_png(turn_public_svg(turn))
    assert bytes(PublicMap.objects.get(turn=turn).png) == png


@pytest.mark.django_db
def test_a_map_that_cannot_be_drawn_does_not_lose_the_bulletin(skirmish, webhook_server, settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    turn = lifecycle.turn_publish(resolve_with_the_swedes_attacking(skirmish), user=None)
    # A stored result the map cannot read (its world after the turn gone); the bulletin, which
    # is written from the events, still can be.
    result = dict(Turn.objects.get(pk=turn.pk).result)
    del result["state"]
    Turn.objects.filter(pk=turn.pk).update(result=result)
    skirmish.webhook_url = webhook_server
    skirmish.save()
    post_bulletin(turn.pk)  # what the task runs
    assert [kind for kind, _ in Recorder.received] == ["application/json"]
    ((_, message),) = Recorder.received
    assert message["content"].startswith("# Skirmish in the Sound — turn 1")
    assert set(message) == {"content", "allowed_mentions"}


@pytest.mark.django_db
def test_a_webhook_that_refuses_the_picture_gets_the_bulletin_alone(
    skirmish, webhook_server, settings
):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    turn = lifecycle.turn_publish(resolve_with_the_swedes_attacking(skirmish), user=None)
    skirmish.webhook_url = webhook_server
    skirmish.save()
    Recorder.status = 413  # "request entity too large": the file is over the channel's limit
    post_bulletin(turn.pk)
    assert [kind for kind, _ in Recorder.received] == ["multipart/form-data", "application/json"]
    assert Recorder.received[1][1]["content"] == Recorder.received[0][1]["content"]


@pytest.mark.django_db
def test_a_webhook_that_fails_otherwise_raises_for_the_task_to_retry(
    skirmish, webhook_server, settings
):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    turn = lifecycle.turn_publish(resolve_with_the_swedes_attacking(skirmish), user=None)
    skirmish.webhook_url = webhook_server
    skirmish.save()
    Recorder.status = 503
    with pytest.raises(WebhookFailed, match="HTTP 503"):
        post_bulletin(turn.pk)
    assert len(Recorder.received) == 1  # not posted again without the picture: the task retries


def test_a_file_s_bytes_cannot_end_its_part(webhook_server, settings):
    """The boundary is random and never in the file; the standard library's parser reads back
    exactly the bytes sent, whatever they hold."""
    settings.WEBHOOK_ALLOW_PRIVATE = True
    nasty = PNG + b"\r\n--admiralty-\r\nContent-Disposition: form-data; name=x\r\n\r\n" * 3
    post_with_files(webhook_server, "hello @everyone", [WebhookFile("a.png", nasty)])
    content_type, body = Recorder.raw[0]
    boundary = content_type.split("boundary=")[1]
    assert boundary.encode() not in nasty
    parts = form_parts(content_type, body)
    assert len(parts) == 2
    assert parts[1].get_payload(decode=True) == nasty
    assert Recorder.received[0][1]["allowed_mentions"] == {"parse": []}


def test_a_file_name_that_is_not_plain_is_refused():
    with pytest.raises(ValueError, match="not a plain file name"):
        WebhookFile('map.png"; name="payload_json', b"")
    body, content_type = multipart_body("x" * 3000, [])
    assert (
        len(json.loads(form_parts(content_type, body)[0].get_payload(decode=True))["content"])
        == 2000
    )
