"""The dashboard's export (issue 13): the game as a seafarers-scenario/1 file — its first position
with the seed and every action — which `adjudicate` replays to the game's position exactly, and
which, imported again (the new-game page, the platform's import), gives the same game."""

from __future__ import annotations

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from campaign.rulesets import campaign_file_importer
from engine.seafarers import legal_actions
from seafarers.models import Game
from seafarers.moderate_forms import action_key
from seafarers.services import game_undo
from tests.seafarers.helpers import play_one, play_until, position

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(client, game, people):
    """The Small Isles game into its turns: setup, rolls, an action by the moderator, special
    points, and an undo (whose action is gone from the file)."""
    people["mod"].is_staff = True
    people["mod"].save()
    client.force_login(people["mod"])
    play_until(game, lambda s: not s.in_setup())
    for _ in range(12):
        play_one(game)
    waiting = position(game)
    player = waiting.players[waiting.player]
    action = legal_actions(waiting, player)[0]
    client.post(
        reverse("seafarers_act_for", args=["isles", player]),
        {
            f"act-{player}-index": game.log_length,
            f"act-{player}-action": action_key(action),
            f"act-{player}-reason": "away",
        },
    )
    game.refresh_from_db()
    node = game.state["players"][0]["settlements"][0]
    client.post(
        reverse("seafarers_award", args=["isles"]),
        {"index": game.log_length, "building": f"red {node}", "points": 1, "reason": "goal"},
    )
    play_one(game)
    game_undo(game=game, user=people["mod"], reason="a misclick")
    game.refresh_from_db()
    assert game.actions.filter(sender="moderator").count() == 2
    return game


def exported(client) -> tuple[bytes, dict]:
    response = client.get(reverse("seafarers_export", args=["isles"]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == 'attachment; filename="isles.seafarers.json"'
    return response.content, json.loads(response.content)


def test_adjudicate_on_the_export_reproduces_the_game(client, played, tmp_path):
    body, document = exported(client)
    assert document["format"] == "seafarers-scenario/1"
    assert document["seed"] == played.first_position["seed"]
    assert document["actions"] == list(
        played.actions.order_by("index").values_list("action", flat=True)
    )
    assert sum(1 for a in document["actions"] if a.get("by_moderator")) == 2  # G4 kept
    path = tmp_path / "isles.seafarers.json"
    path.write_bytes(body)
    out = io.StringIO()
    call_command("adjudicate", str(path), stdout=out)
    result = json.loads(out.getvalue())
    assert result["refused"] == []
    assert result["state"] == played.state  # exactly: the dice and the steals included


def test_campaign_export_writes_the_dashboards_export_byte_for_byte(client, played, tmp_path):
    body, _ = exported(client)
    path = tmp_path / "isles.json"
    call_command("campaign_export", "isles", "-o", str(path), stdout=io.StringIO())
    assert path.read_bytes() == body


def test_importing_the_export_gives_the_same_game(client, played, people):
    body, document = exported(client)
    upload = SimpleUploadedFile("isles.seafarers.json", body, "application/json")
    response = client.post(
        reverse("seafarers_game_new"),
        {
            "name": "Again",
            "slug": "again",
            "source": "file",
            "file": upload,
            "seat_0": "ann",
            "seat_1": "bob",
            "seat_2": "cid",
            "pirate": "keep",
        },
    )
    assert response.status_code == 302
    again = Game.objects.get(campaign__slug="again")
    assert again.first_position == played.first_position
    assert again.state == played.state
    assert again.log_length == played.log_length
    assert list(again.actions.order_by("index").values_list("action", "sender")) == list(
        played.actions.order_by("index").values_list("action", "sender")
    )
    # And through the platform's import (campaign_import, the admin's import page).
    campaign = campaign_file_importer(document)(document, people["mod"])
    assert Game.objects.get(campaign=campaign).state == played.state
    # Exported once more, the imported game is the same file.
    client.force_login(people["mod"])
    response = client.get(reverse("seafarers_export", args=["again"]))
    assert json.loads(response.content) == document
