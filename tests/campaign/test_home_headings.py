"""The players' home page heads each ruleset's games with the game's name, in the players'
words: no rulebook file name ("naval.md") in a heading."""

from __future__ import annotations

import re

from django.test import Client
from django.urls import reverse

from campaign.models import Membership
from seafarers.services import game_create


def test_the_headings_are_the_games_names_without_file_names(people) -> None:
    danes = people["danes"]
    game_create(
        name="Small Isles",
        slug="isles",
        moderator=people["mod"],
        board="small-isles",
        seats=["danes", "swedes", "hanse"],
    )
    assert Membership.objects.filter(user=danes, campaign__slug="isles").exists()
    client = Client()
    client.force_login(danes)
    html = client.get(reverse("home")).content.decode()
    headings = re.findall(r"<h2>(.*?)</h2>", html)
    assert headings == ["Naval campaign", "Seafarers"]
    assert ".md" not in html
