"""The moderator's new-game page (issue 13, "Setting up"): a game from a bundled board, the seeded
generator or a scenario file, with its seats and the format's `rules` settings; every wrong input
refused plainly, with its code, and nothing created."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaign.models import AuditEntry, Campaign, Membership
from seafarers.models import Game

pytestmark = pytest.mark.django_db
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NEW = reverse("seafarers_game_new")


@pytest.fixture
def staff(people, client):
    people["mod"].is_staff = True
    people["mod"].save()
    client.force_login(people["mod"])
    return client


def post(client, **fields):
    data = {"name": "Isles", "slug": "isles", "source": "board", "board": "small-isles"}
    data.update({"pirate": "keep", **fields})
    return client.post(NEW, data)


def test_a_game_from_a_bundled_board_with_a_bot_and_rules(staff, people):
    response = post(staff, seat_0="ann", bot_1="on", seat_2="bob", victory_points="11")
    game = Game.objects.get(campaign__slug="isles")
    assert response.status_code == 302
    assert response["Location"] == reverse("seafarers_moderate", args=["isles"])
    assert game.status == Game.Status.NEW
    seats = list(game.seats.values_list("player", "membership__user__username", "bot"))
    assert seats == [("red", "ann", False), ("blue", None, True), ("white", "bob", False)]
    # The moderator's points to win over the board's 12; the board's other rules kept.
    assert game.first_position["rules"]["victory_points"] == 11
    assert game.first_position["rules"]["setup_islands"] == ["home"]
    assert game.first_position["board"]["pirate"] == "3,-1"
    assert Membership.objects.get(campaign=game.campaign, role="moderator").user == people["mod"]
    settings = AuditEntry.objects.get(campaign=game.campaign, action="game_settings")
    assert settings.detail["seats"] == ["ann", "bot", "bob"]
    assert settings.detail["source"] == "small-isles"
    assert game.reminder_hours == 24  # left blank: the default


def test_the_reminder_time_is_the_moderator_s(staff):
    """Issue 13: "a reminder when a player has not acted for the game's reminder time"."""
    post(staff, seat_0="ann", seat_1="bob", seat_2="cid", reminder_hours="6")
    game = Game.objects.get(campaign__slug="isles")
    assert game.reminder_hours == 6
    settings = AuditEntry.objects.get(campaign=game.campaign, action="game_settings")
    assert settings.detail["reminder_hours"] == 6


def test_the_pirate_off_and_setup_anywhere(staff):
    post(staff, seat_0="ann", seat_1="bob", seat_2="cid", pirate="off", setup_islands="anywhere")
    game = Game.objects.get(campaign__slug="isles")
    assert "pirate" not in game.first_position["board"]  # X16: no pirate hex, no pirate
    assert game.state["board"].get("pirate") is None
    assert game.first_position["rules"]["setup_islands"] is None
    assert game.first_position["rules"]["svp_new_island"] == 2  # the board's own


def test_the_generator_gives_the_same_board_for_the_same_seed(staff):
    for slug in ("one", "two"):
        post(staff, slug=slug, source="generator", generator_seed="42", seat_0="ann", bot_1="on")
    one, two = (Game.objects.get(campaign__slug=s) for s in ("one", "two"))
    assert one.first_position["board"] == two.first_position["board"]
    post(staff, slug="three", source="generator", generator_seed="43", seat_0="ann", bot_1="on")
    three = Game.objects.get(campaign__slug="three")
    assert three.first_position["board"] != one.first_position["board"]


@pytest.mark.parametrize(
    ("fields", "code", "words"),
    [
        ({"seat_0": "ann", "seat_1": "nobody", "seat_2": "bob"}, "unknown_user", "'nobody'"),
        ({"seat_0": "ann", "seat_2": "bob"}, "bad_seats", "no empty seat between"),
        ({"seat_0": "ann", "seat_1": "bob", "bot_1": "on"}, "bad_seats", "not both"),
        ({"seat_0": "ann", "seat_1": "ann"}, "bad_seats", "one seat at most"),
        ({"seat_0": "ann"}, "bad_seats", "2 to 6 seats"),
        ({"seat_0": "ann", "seat_1": "bob", "source": "generator"}, "bad_source", "seed"),
        ({"seat_0": "ann", "seat_1": "bob", "source": "file"}, "bad_source", "scenario file"),
        ({"seat_0": "ann", "seat_1": "bob", "victory_points": "99"}, "", "less than or equal"),
        ({"seat_0": "ann", "seat_1": "bob", "reminder_hours": "0"}, "", "greater than or equal"),
        # The board has 3 players; a bundled board's seats make its players.
        ({"seat_0": "ann", "seat_1": "bob", "slug": "Not a slug!"}, "", "valid “slug”"),
    ],
)
def test_wrong_input_is_refused_plainly_and_creates_nothing(staff, fields, code, words):
    response = post(staff, **fields)
    assert response.status_code == 200
    text = response.content.decode()
    assert words in text.replace("&#x27;", "'")
    if code:
        assert f"({code})" in text
    assert not Campaign.objects.exists()


def test_an_unknown_setup_island_is_a_problem_with_its_place(staff):
    response = post(staff, seat_0="ann", seat_1="bob", seat_2="cid", setup_islands="home, atlantis")
    text = response.content.decode()
    assert "rules.setup_islands" in text
    assert "atlantis" in text
    assert not Campaign.objects.exists()


def test_a_taken_slug_is_refused(staff, game):
    response = post(staff, seat_0="ann", seat_1="bob", seat_2="cid")  # "isles" is the fixture's
    assert "(slug_taken)" in response.content.decode()
    assert Campaign.objects.count() == 1


def test_a_file_with_actions_becomes_the_game_log_paused(staff):
    path = EXAMPLES / "small-isles-opening.seafarers.json"
    document = json.loads(path.read_text())
    upload = SimpleUploadedFile(path.name, path.read_bytes(), content_type="application/json")
    response = post(
        staff, source="file", file=upload, seat_0="ann", bot_1="on", seat_2="bob", board=""
    )
    assert response.status_code == 302
    game = Game.objects.get(campaign__slug="isles")
    assert (
        list(game.actions.order_by("index").values_list("action", flat=True)) == document["actions"]
    )
    assert game.log_length == len(document["actions"])
    assert game.first_position["seed"] == document["seed"]  # the log was played with it
    # No bot moves before the moderator has looked (docs/rulings.md S-31).
    assert game.status == Game.Status.PAUSED


def test_a_bad_file_is_refused_with_every_problem_and_its_place(staff):
    document = json.loads((EXAMPLES / "small-isles-opening.seafarers.json").read_text())
    document["rules"]["victory_points"] = "ten"
    document["players"][0]["hand"] = {"gold": 1}
    document["surprise"] = 1
    text = json.dumps(document, indent=1)
    upload = SimpleUploadedFile("bad.seafarers.json", text.encode(), "application/json")
    response = post(staff, source="file", file=upload, seat_0="ann", seat_1="bob", seat_2="cid")
    page = response.content.decode()
    assert "rules.victory_points" in page
    assert "players[0].hand" in page
    assert "surprise" in page
    assert "(line " in page  # each with its line in the file
    assert not Campaign.objects.exists()


def test_a_file_whose_rules_are_not_an_object_with_a_rule_set(staff):
    document = json.loads((EXAMPLES / "small-isles-opening.seafarers.json").read_text())
    document["rules"] = [12]
    upload = SimpleUploadedFile("r.json", json.dumps(document).encode(), "application/json")
    response = post(
        staff,
        source="file",
        file=upload,
        seat_0="ann",
        seat_1="bob",
        seat_2="cid",
        victory_points="10",
    )
    assert response.status_code == 200
    assert "rules" in response.content.decode()
    assert not Campaign.objects.exists()


def test_a_file_whose_action_is_refused_names_the_action(staff):
    document = json.loads((EXAMPLES / "small-isles-opening.seafarers.json").read_text())
    document["actions"][3] = {"type": "end_turn", "player": "red"}
    upload = SimpleUploadedFile("log.json", json.dumps(document).encode(), "application/json")
    response = post(staff, source="file", file=upload, seat_0="ann", seat_1="bob", seat_2="cid")
    assert "actions[3]" in response.content.decode()
    assert not Campaign.objects.exists()


def test_not_a_seafaring_file_and_not_utf8(staff):
    upload = SimpleUploadedFile("x.json", b'{"format": "admiralty-scenario/1"}')
    response = post(staff, source="file", file=upload, seat_0="ann", seat_1="bob")
    assert "(wrong_format)" in response.content.decode()
    upload = SimpleUploadedFile("x.json", b"\xff\xfe")
    response = post(staff, source="file", file=upload, seat_0="ann", seat_1="bob")
    assert "(invalid_file)" in response.content.decode()
    assert not Campaign.objects.exists()


def test_the_page_is_for_staff(client, people):
    assert client.get(NEW).status_code == 302  # to the login page
    assert "/accounts/login/" in client.get(NEW)["Location"]
    client.force_login(people["ann"])
    assert client.get(NEW).status_code == 404
    assert post(client, seat_0="ann", seat_1="bob", seat_2="cid").status_code == 404
    assert not Campaign.objects.exists()


def test_the_admin_add_goes_to_the_page(staff, game):
    response = staff.get(reverse("admin:seafarers_game_add"))
    assert response.status_code == 302
    assert response["Location"] == NEW
    listing = staff.get(reverse("admin:seafarers_game_changelist"))
    assert reverse("seafarers_moderate", args=["isles"]) in listing.content.decode()


def test_the_admin_lists_only_the_games_one_moderates_and_changes_nothing(client, game, people):
    dee = people["dee"]
    dee.is_staff = True
    dee.save()
    client.force_login(dee)  # staff, moderating nothing
    listing = client.get(reverse("admin:seafarers_game_changelist"))
    assert listing.status_code == 200
    assert "isles" not in listing.content.decode()
    assert client.get(reverse("admin:seafarers_game_change", args=[game.pk])).status_code in (
        302,
        403,
        404,
    )
    client.force_login(people["mod"])
    people["mod"].is_staff = True
    people["mod"].save()
    page = client.get(reverse("admin:seafarers_game_change", args=[game.pk]))
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()  # read only
    row = game.seats.first()
    assert client.post(reverse("admin:seafarers_seat_delete", args=[row.pk]), {"post": "yes"})
    assert game.seats.filter(pk=row.pk).exists()
    actions = client.get(reverse("admin:seafarers_action_changelist"))
    assert actions.status_code == 200


def test_the_rules_fields_have_plain_labels_and_cite_their_clauses(staff):
    """The rules settings are labelled in words, not by the format's keys; the help text
    cites the clause (X20, X19, B20). The fields keep the keys as names, which posts use."""
    page = staff.get(NEW).content.decode()
    labels = dict(re.findall(r'<label for="id_(\w+)">([^<]*)</label>', page))
    assert labels["victory_points"] == "Victory points to win"
    assert labels["svp_new_island"] == "Special victory point for a new island"
    assert labels["setup_islands"] == "Islands for the setup settlements"
    for key in ("victory_points", "svp_new_island", "setup_islands"):
        assert key not in labels[key]
    assert 'name="victory_points"' in page
    assert 'name="svp_new_island"' in page
    helps = re.findall(r"<span class=\"helptext\" id=\"id_(\w+)_helptext\">([^<]*)</span>", page)
    said = dict(helps)
    assert "(seafarers.md X20)" in said["victory_points"]
    assert "(seafarers.md X19)" in said["svp_new_island"]
    assert "(seafarers.md B20)" in said["setup_islands"]
