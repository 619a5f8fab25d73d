"""A seafaring game's language (issue 22; Campaign.language), chosen by its moderator: on the
new-game page, and changed on the dashboard (audited `campaign_language`, a stale page refused
`game_moved_on` like the other buttons, the same language refused `unchanged`, a language the
site does not have refused and nothing changed). Stored and shown for now."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import AuditEntry, Campaign
from seafarers.models import Game

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
URL = reverse("seafarers_game_action", args=["isles", "language"])


@pytest.fixture
def mod(client, people):
    people["mod"].is_staff = True
    people["mod"].save()
    client.force_login(people["mod"])
    return client


def change(client, game, language, reason="", index=None, **extra):
    game.refresh_from_db()
    shown = game.log_length if index is None else index
    return client.post(URL, {"index": shown, "language": language, "reason": reason}, **extra)


def language_now(game) -> str:
    return Campaign.objects.get(pk=game.campaign_id).language


def test_a_new_game_in_spanish(mod) -> None:
    data = {"name": "Islas", "slug": "islas", "source": "board", "board": "small-isles"}
    data.update(pirate="keep", seat_0="ann", seat_1="bob", language="es")
    response = mod.post(reverse("seafarers_game_new"), data)
    assert response.status_code == 302
    game = Game.objects.get(campaign__slug="islas")
    assert game.campaign.language == "es"
    settings = AuditEntry.objects.get(campaign=game.campaign, action="game_settings")
    assert settings.detail["language"] == "es"
    form = mod.get(reverse("seafarers_game_new")).content.decode()
    assert '<option value="sv">Svenska</option>' in form


def test_the_dashboard_shows_the_language_and_changes_it(mod, game) -> None:
    page = mod.get(reverse("seafarers_moderate", args=["isles"])).content.decode()
    assert 'Now <span lang="en">English</span>' in page
    answer = change(mod, game, "sv", reason="the Swedish club", **HTMX).content.decode()
    assert "The game&#x27;s language is now Svenska." in answer
    assert 'Now <span lang="sv">Svenska</span>' in answer
    assert language_now(game) == "sv"
    entry = AuditEntry.objects.get(action="campaign_language")
    assert (entry.detail, entry.reason) == ({"old": "en", "new": "sv"}, "the Swedish club")
    assert "The game&#x27;s language: Svenska (was English)" in answer


def test_a_plain_form_redirects_with_the_outcome(mod, game) -> None:
    response = change(mod, game, "ru")
    assert response.status_code == 302
    assert "language is now Русский" in mod.get(response["Location"]).content.decode()
    assert language_now(game) == "ru"


@pytest.mark.parametrize(
    ("language", "index", "code"),
    [("en", None, "unchanged"), ("ru", 99, "game_moved_on"), ("xx", None, "invalid_request")],
)
def test_a_refused_change_changes_nothing(mod, game, language, index, code) -> None:
    answer = change(mod, game, language, index=index, **HTMX).content.decode()
    assert code in answer
    assert language_now(game) == "en"
    assert not AuditEntry.objects.filter(action="campaign_language").exists()


def test_only_the_moderator_changes_it(client, people, game) -> None:
    client.force_login(people["ann"])
    assert change(client, game, "ru").status_code == 404
    assert language_now(game) == "en"
