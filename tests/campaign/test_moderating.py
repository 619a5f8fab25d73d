"""The header's "Moderator's desk" (/moderate/, campaign/views.py `moderating`): the games the
user moderates, of every ruleset, each with its dashboard and its desk, and where to make a new
one; the admin's index only for a superuser. Not staff: no such page (404), as the other staff
pages (world_campaign_new, seafarers_game_new)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from seafarers.services import game_create
from tests.queries import page_queries


@pytest.fixture
def sea(people):
    """A seafaring game moderated by this campaign's moderator, seated by its players."""
    return game_create(
        name="Small Isles",
        slug="isles",
        moderator=people["mod"],
        board="small-isles",
        seats=["danes", "swedes", "hanse"],
    ).campaign


def page(user, name: str = "moderating") -> tuple[int, str]:
    client = Client()
    client.force_login(user)
    response = client.get(reverse(name))
    return response.status_code, response.content.decode()


def links(html: str) -> dict[str, list[str]]:
    """href -> the words of each link to it."""
    found: dict[str, list[str]] = {}
    for href, words in re.findall(r'<a href="([^"]+)"[^>]*>(.*?)</a>', html, re.S):
        found.setdefault(href, []).append(words.strip())
    return found


def test_the_moderator_finds_each_game_with_its_dashboard_and_desk(
    people, open_skirmish, sea
) -> None:
    status, html = page(people["mod"])
    assert status == 200
    found = links(html)
    naval_dashboard = reverse("admin:campaign_dashboard", args=[open_skirmish.pk])
    assert naval_dashboard in found
    assert reverse("desk", args=[open_skirmish.slug]) in found
    assert reverse("seafarers_moderate", args=[sea.slug]) in found
    assert reverse("seafarers_desk", args=[sea.slug]) in found
    assert found[reverse("world_campaign_new")] == ["A new naval campaign"]
    assert found[reverse("seafarers_game_new")] == ["A new seafaring game"]
    assert open_skirmish.name in html
    assert "Small Isles" in html
    assert "Elsewhere" not in html  # the rival's campaign: not this moderator's
    assert reverse("admin:index") not in found  # only a superuser's
    # Under each game's ruleset, in the players' words (no file names).
    assert re.findall(r"<h2>(.*?)</h2>", html) == ["Naval campaign", "Seafarers"]


def test_another_moderator_sees_only_their_own(people, open_skirmish, sea) -> None:
    status, html = page(people["rival"])
    assert status == 200
    assert "Elsewhere" in html
    assert open_skirmish.name not in html
    assert "Small Isles" not in html
    found = links(html)
    assert reverse("world_campaign_new") in found
    assert reverse("seafarers_game_new") in found


def test_only_a_superuser_gets_the_admin_index(people, django_user_model) -> None:
    boss = django_user_model.objects.create_superuser("boss", "boss@example.org", "pw")
    status, html = page(boss)
    assert status == 200
    assert reverse("admin:index") in links(html)
    assert "You moderate no game yet" in html


def test_a_superuser_finds_every_game_and_may_run_it(
    people, open_skirmish, sea, django_user_model
) -> None:
    """Nothing out of reach: a superuser's desk lists the other moderators' games apart, and
    their links open (the seafaring moderator's page as the naval dashboard)."""
    boss = django_user_model.objects.create_superuser("boss", "boss@example.org", "pw")
    _, html = page(boss)
    assert "Other moderators' games" in html
    found = links(html)
    client = Client()
    client.force_login(boss)
    for href in (
        reverse("admin:campaign_dashboard", args=[open_skirmish.pk]),
        reverse("desk", args=[open_skirmish.slug]),
        reverse("seafarers_moderate", args=[sea.slug]),
        reverse("seafarers_desk", args=[sea.slug]),
    ):
        assert href in found, href
        assert client.get(href).status_code == 200, href
    assert "Elsewhere" in html  # the rival's too
    # A moderator is not a superuser: no one else's games.
    _, html = page(people["mod"])
    assert "Other moderators' games" not in html


def test_no_such_page_for_players_and_strangers(people, sea) -> None:
    for name in ("danes", "stranger"):
        assert page(people[name])[0] == 404, name
    response = Client().get(reverse("moderating"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_header_leads_staff_to_it(people) -> None:
    _, html = page(people["mod"], "home")
    assert links(html).get(reverse("moderating")) == ["Moderator's desk"]
    assert reverse("admin:index") not in links(html)
    _, html = page(people["danes"], "home")
    assert reverse("moderating") not in links(html)
    assert "Moderator's desk" not in html


def test_a_fixed_number_of_queries(people, sea) -> None:
    def count() -> int:
        status, queries = page_queries(people["mod"], reverse("moderating"))
        assert status == 200
        return queries

    one = count()
    for n in range(3):
        game_create(
            name=f"More {n}",
            slug=f"more-{n}",
            moderator=people["mod"],
            board="small-isles",
            seats=["danes", "swedes", "hanse"],
        )
    assert count() == one
