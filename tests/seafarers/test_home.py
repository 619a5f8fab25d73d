"""The players' home page lists every game of the user beside the naval campaigns, through the
ruleset seam (campaign/rulesets.py `games_of`; the platform imports no game): whose turn it is,
the user's turn marked, a link to the game's desk and its log."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from campaign.models import Membership
from seafarers.services import game_create, game_pause
from tests.queries import page_queries
from tests.seafarers.helpers import play_one


def home(user) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("home"))
    assert response.status_code == 200
    return response.content.decode()


def row_of(html: str, name: str) -> str:
    rows = [r for r in re.findall(r"<tr[^>]*>.*?</tr>", html, re.S) if f">{name}</a>" in r]
    assert len(rows) == 1, (name, rows)
    return rows[0]


def test_a_seat_sees_its_game_and_whose_turn(people, game) -> None:
    ann, bob = home(people["ann"]), home(people["bob"])  # red (ann) places the first settlement
    red, blue = row_of(ann, "Small Isles"), row_of(bob, "Small Isles")
    assert 'class="your-turn"' in red
    assert "your turn" in red
    assert "setup: red to act" in red
    assert "your-turn" not in blue
    assert "your turn" not in blue
    assert "setup: red to act" in blue
    assert "<td>red</td>" in red
    assert "<td>blue</td>" in blue
    assert 'href="/g/isles/"' in red  # the desk
    assert f'href="{reverse("seafarers_log", args=["isles"])}"' in red
    play_one(game)
    play_one(game)  # red's settlement and road: blue's turn to settle
    assert "your turn" in row_of(home(people["bob"]), "Small Isles")
    assert "your turn" not in row_of(home(people["ann"]), "Small Isles")


def test_the_moderator_and_strangers(people, game) -> None:
    moderator = row_of(home(people["mod"]), "Small Isles")
    assert "<td>moderator</td>" in moderator
    assert "your turn" not in moderator
    assert "Small Isles" not in home(people["dee"])
    assert "You are not in any game yet" in home(people["dee"])


def test_paused_and_not_started_games_wait_for_nobody(people, game) -> None:
    game_create(
        name="Later",
        slug="later",
        moderator=people["mod"],
        board="small-isles",
        seats=["ann", "bob", "cid"],
    )
    game_pause(game=game, user=people["mod"], reason="holiday")
    html = home(people["ann"])
    assert "not started" in row_of(html, "Later")
    assert "your turn" not in row_of(html, "Later")
    assert "paused" in row_of(html, "Small Isles")
    assert "your turn" not in row_of(html, "Small Isles")


@pytest.mark.django_db
def test_naval_campaigns_beside_seafaring_games(people, game, open_skirmish) -> None:
    danes = open_skirmish.factions.get(key="danes")
    Membership.objects.create(
        user=people["ann"], campaign=open_skirmish, role=Membership.Role.PLAYER, faction=danes
    )
    html = home(people["ann"])
    naval = row_of(html, open_skirmish.name)
    assert "turn 1: open" in naval
    assert "your orders are due" in naval
    assert "your turn" in naval
    assert f'href="{reverse("desk", args=[open_skirmish.slug])}"' in naval
    assert html.index(open_skirmish.name) < html.index("Small Isles")  # naval, then seafaring
    assert "your turn" in row_of(html, "Small Isles")


def test_the_home_page_reads_a_fixed_number_of_queries(people, game) -> None:
    def count() -> int:
        return page_queries(people["ann"], reverse("home"))[1]

    one = count()
    for n in range(3):
        game_create(
            name=f"More {n}",
            slug=f"more-{n}",
            moderator=people["mod"],
            board="small-isles",
            seats=["ann", "bob", "cid"],
        )
    assert count() == one


@pytest.mark.django_db
def test_the_demo_players_log_in_and_find_their_game() -> None:
    """`make run`'s demo game (seafarers_demo): its pages and players printed with their
    password, which works; red's player sees it is their turn to place a settlement."""
    out = StringIO()
    call_command("seafarers_demo", "--address", "http://127.0.0.1:8001/", stdout=out)
    call_command("seafarers_demo", stdout=StringIO())  # again: the same game, nothing new
    printed = out.getvalue()
    assert "http://127.0.0.1:8001/g/four-islands-demo/log/" in printed
    assert "players (password admiralty): red: sailor1" in printed
    client = Client()
    assert client.login(username="sailor1", password="admiralty")
    row = row_of(client.get(reverse("home")).content.decode(), "Four Islands (demo)")
    assert "your turn" in row
    assert "setup: red to act" in row
    assert client.get(reverse("seafarers_log", args=["four-islands-demo"])).status_code == 200
