"""The reminder's time changed from the seafaring dashboard (issue 13, docs/rulings.md S-38):
with a reason (audited `reminder_hours`, the old and new hours), a stale page refused
`game_moved_on` like the other buttons, bad hours refused with their code; htmx and plain."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import AuditEntry
from seafarers.models import Game
from tests.seafarers.helpers import play_one

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
URL = reverse("seafarers_game_action", args=["isles", "reminder"])


@pytest.fixture
def mod(client, people):
    client.force_login(people["mod"])
    return client


def change(client, game, hours, reason="players asked", index=None, **extra):
    game.refresh_from_db()
    shown = game.log_length if index is None else index
    return client.post(URL, {"index": shown, "hours": hours, "reason": reason}, **extra)


def hours_now(game) -> int:
    return Game.objects.get(pk=game.pk).reminder_hours


def test_the_dashboard_shows_the_reminder_and_changes_it(mod, game) -> None:
    page = mod.get(reverse("seafarers_moderate", args=["isles"])).content.decode()
    assert "Now after 24 h" in page
    assert 'name="hours" value="24"' in page
    answer = change(mod, game, 6, **HTMX).content.decode()
    assert "now reminded after 6 h" in answer
    assert "Now after 6 h" in answer
    assert hours_now(game) == 6
    entry = AuditEntry.objects.get(action="reminder_hours")
    assert (entry.detail, entry.reason, entry.user.username) == (
        {"old": 24, "new": 6},
        "players asked",
        "mod",
    )
    assert '<strong title="reminder_hours">Reminders after 6 h (were after 24 h)</strong>' in answer


def test_a_plain_form_redirects_with_the_outcome(mod, game) -> None:
    response = change(mod, game, 48)
    assert response.status_code == 302
    page = mod.get(response["Location"]).content.decode()
    assert "now reminded after 48 h" in page
    assert hours_now(game) == 48


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"reason": "  "}, "reason_required"),
        ({"hours": 0}, "invalid_request"),
        ({"hours": 24 * 14 + 1}, "invalid_request"),
        ({"hours": "soon"}, "invalid_request"),
        ({"hours": 24}, "unchanged"),
    ],
)
def test_refusals_change_nothing(mod, game, data, code) -> None:
    fields = {"hours": 6, "reason": "players asked"} | data
    answer = change(mod, game, fields["hours"], fields["reason"], **HTMX).content.decode()
    assert f"<code>{code}</code></small>" in answer
    assert hours_now(game) == 24
    assert not AuditEntry.objects.filter(action="reminder_hours").exists()


def test_a_stale_page_is_refused_game_moved_on(mod, game) -> None:
    game.refresh_from_db()
    shown = game.log_length
    play_one(game)  # red settles meanwhile
    answer = change(mod, game, 6, index=shown, **HTMX).content.decode()
    assert "<code>game_moved_on</code></small>" in answer
    assert hours_now(game) == 24
    plain = change(mod, game, 6, index=shown)
    assert plain.status_code == 302
    assert hours_now(game) == 24
    assert not AuditEntry.objects.filter(action="reminder_hours").exists()


def test_only_the_moderator_changes_it(client, game, people) -> None:
    client.force_login(people["ann"])  # a seat's player
    assert change(client, game, 1).status_code == 404
    assert hours_now(game) == 24
