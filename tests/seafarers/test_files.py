"""A seafaring game through the platform's campaign files (issue 13): `campaign_import` reads a
seafarers-scenario/1 file by its `format` through the registry — its problems listed with their
paths, its actions the game's log — and `campaign_export` writes the first position and every
action, which `adjudicate` replays to the stored state byte for byte (G1, G2)."""

from __future__ import annotations

import copy
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from campaign.models import Campaign
from campaign.rulesets import Cadence, ruleset_of
from engine.seafarers import adjudicate
from seafarers.models import Game
from seafarers.services import game_resume
from tests.seafarers.helpers import play_until

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
OPENING = ROOT / "examples" / "small-isles-opening.seafarers.json"


def import_file(path: Path) -> Campaign:
    out = StringIO()
    call_command("campaign_import", str(path), stdout=out, stderr=StringIO())
    slug = out.getvalue().split()[-1]
    return Campaign.objects.get(slug=slug)


def export(campaign: Campaign, tmp_path: Path) -> dict:
    path = tmp_path / "export.json"
    call_command("campaign_export", campaign.slug, "-o", str(path), stdout=StringIO())
    return json.loads(path.read_text())


def test_the_bundled_game_imports_with_its_log(tmp_path):
    campaign = import_file(OPENING)
    assert campaign.ruleset == "seafarers"
    assert ruleset_of(campaign).cadence is Cadence.SEQUENTIAL
    game = campaign.seafaring_game
    document = json.loads(OPENING.read_text())
    assert game.log_length == len(document["actions"]) == 40
    assert game.status == Game.Status.PAUSED  # its seats go to players before it goes on
    assert list(game.actions.values_list("action", flat=True)) == document["actions"]
    assert json.dumps(game.state) == json.dumps(adjudicate(document)["state"])
    assert set(game.seats.values_list("bot", flat=True)) == {True}


def test_export_replays_to_the_stored_state_byte_for_byte(game, people, tmp_path):
    play_until(game, lambda s: s.number >= 3)
    game.refresh_from_db()
    exported = export(game.campaign, tmp_path)
    assert exported["seed"] == game.first_position["seed"]  # G2: the seed goes with the file
    assert len(exported["actions"]) == game.log_length
    assert json.dumps(adjudicate(exported)["state"]) == json.dumps(game.state)
    # And importing the export gives the same game.
    path = tmp_path / "export.json"
    again = import_file(path).seafaring_game
    assert json.dumps(again.state) == json.dumps(game.state)
    assert list(again.actions.values_list("action", "events")) == list(
        game.actions.values_list("action", "events")
    )


def test_a_bad_file_lists_every_problem_with_its_place(tmp_path):
    document = json.loads(OPENING.read_text())
    bad = copy.deepcopy(document)
    bad["players"][0]["hand"] = {"gold": 2}
    bad["turn"]["phase"] = "dancing"
    bad["weather"] = "fair"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    err = StringIO()
    with pytest.raises(CommandError) as raised:
        call_command("campaign_import", str(path), stdout=StringIO(), stderr=err)
    assert raised.value.returncode == 2
    text = err.getvalue()
    assert "weather" in text
    assert "players[0].hand" in text
    assert "turn.phase" in text
    assert not Campaign.objects.exists()  # nothing half-imported


def test_a_refused_action_in_the_log_is_a_problem_at_its_place(tmp_path):
    document = json.loads(OPENING.read_text())
    document["actions"][5] = {"type": "end_turn", "player": "red"}
    path = tmp_path / "refused.json"
    path.write_text(json.dumps(document))
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("campaign_import", str(path), stdout=StringIO(), stderr=err)
    assert "actions[5]" in err.getvalue()
    assert not Game.objects.exists()


def test_an_imported_game_resumes_where_it_stood(
    people, tmp_path, django_capture_on_commit_callbacks
):
    campaign = import_file(OPENING)
    game = campaign.seafaring_game
    from campaign.models import Membership

    Membership.objects.create(user=people["mod"], campaign=campaign, role="moderator")
    with django_capture_on_commit_callbacks(execute=True):
        game_resume(game=game, user=people["mod"])  # bots hold every seat: they play (eager)
    game.refresh_from_db()
    assert game.log_length > 40
    assert (
        list(game.actions.values_list("action", flat=True))[:40]
        == json.loads(OPENING.read_text())["actions"]
    )


def test_the_demo_game_is_set_up_once():
    out = StringIO()
    call_command("seafarers_demo", stdout=out)
    call_command("seafarers_demo", stdout=StringIO())  # again: nothing new
    game = Game.objects.get()
    assert game.status == Game.Status.SETUP
    assert list(game.seats.values_list("player", "membership__user__username", "bot")) == [
        ("red", "sailor1", False),
        ("blue", "sailor2", False),
        ("white", "sailor3", False),
        ("orange", None, True),
    ]
    assert "red: sailor1, blue: sailor2, white: sailor3, orange: bot" in out.getvalue()


def test_the_admin_import_page_reads_a_seafaring_file(admin_client, admin_user):
    """The admin's import page dispatches on `format` too: problems listed with their paths;
    a good file becomes a game moderated by the importer."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    document = json.loads(OPENING.read_text())
    bad = {**document, "weather": "fair"}
    page = admin_client.post(
        "/admin/campaign/campaign/import/",
        {"file": SimpleUploadedFile("bad.json", json.dumps(bad).encode())},
    )
    assert page.status_code == 200
    assert "weather" in page.content.decode()
    assert not Campaign.objects.exists()
    page = admin_client.post(
        "/admin/campaign/campaign/import/",
        {"file": SimpleUploadedFile("good.json", OPENING.read_bytes())},
    )
    assert page.status_code == 302
    campaign = Campaign.objects.get()
    assert campaign.ruleset == "seafarers"
    assert campaign.memberships.get().user == admin_user
    assert campaign.seafaring_game.log_length == 40
