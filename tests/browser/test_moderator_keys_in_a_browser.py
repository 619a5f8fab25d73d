"""The moderator's issue-11 pages in a real headless Chromium: the dashboard's API keys and a
revocation (the key 401 at once, R-48), a membership deleted with its reason (R-49), and a
treasury edit refused while the turn waits to be published (R-50)."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from campaign.models import AuditEntry, Membership
from fleets.services import token_issue
from tests.browser.test_turn_in_a_browser import browser, campaign  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def api_me(base: str, key: str) -> int:
    request = urllib.request.Request(f"{base}/api/me", headers={"Authorization": f"Bearer {key}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_the_moderator_revokes_a_key_deletes_a_membership_and_is_told_the_world_waits(
    live_server,
    browser,  # noqa: F811
    campaign,  # noqa: F811
) -> None:
    base = live_server.url
    anna = Membership.objects.get(user__username="anna")
    key = token_issue(membership=anna)
    assert api_me(base, key) == 200

    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.goto(f"{base}/admin/login/")
    page.fill("#id_username", "mod")
    page.fill("#id_password", "sail-away")
    page.click("input[type=submit]")
    page.goto(f"{base}/admin/campaign/campaign/{campaign.pk}/dashboard/")
    row = page.locator("#api-keys tr", has_text="danes (anna)")
    assert "works" in row.inner_text()
    row.locator("input[name=reason]").fill("posted on the forum")
    row.locator("button", has_text="Revoke").click()
    page.locator(".messagelist", has_text="The key is revoked").wait_for()
    page.locator("#api-keys", has_text="No member has an API key.").wait_for()
    assert api_me(base, key) == 401

    page.goto(f"{base}/admin/campaign/membership/{anna.pk}/delete/")
    page.fill("#id_reason", "left the game")
    page.locator("input[type=submit]").click()
    page.locator(".messagelist").wait_for()
    assert not Membership.objects.filter(pk=anna.pk).exists()
    assert AuditEntry.objects.get(action="delete membership").reason == "left the game"

    page.goto(f"{base}/admin/campaign/campaign/{campaign.pk}/dashboard/")
    page.locator("button", has_text="Lock").click()
    page.locator("text=Draft result").wait_for()  # resolved in-process (embedded default)
    danes = campaign.factions.get(key="danes")
    page.goto(f"{base}/admin/fleets/faction/{danes.pk}/change/")
    page.locator(".messagelist", has_text="Turn 1 is resolved").wait_for()  # before typing
    page.fill("#id_treasury", "999")
    page.fill("#id_reason", "loan from the Dutch")
    page.locator("input[name=_save]").click()
    page.locator(".errornote, .errorlist", has_text="world_frozen").first.wait_for()
    danes.refresh_from_db()
    assert danes.treasury != 999
