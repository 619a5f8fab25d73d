"""The world editor in a real headless Chromium (issue 11): a staff user makes a campaign on the
new-campaign page, builds a tiny world table by table, sees the check name a problem in words
and lose it when the missing adjacency is added, and opens turn 1, which the dashboard then
shows open. Takes the README's screenshot of the editor (into SCREENSHOT_DIR when set, as
`test_turn_in_a_browser.py` does)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from campaign.models import AuditEntry, Campaign, Membership, Turn
from tests.browser.test_turn_in_a_browser import browser, log_in  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def add(page: Any, table: str, reason: str = "building the Sound", **fields: str) -> None:
    """Fill and send a table's add form on the editor; back on the editor with its message."""
    section = page.locator(f"section#{table}")
    section.locator("details").evaluate("details => { details.open = true; }")
    for name, value in fields.items():
        field = section.locator(f"[name='{table}-{name}']")
        if field.first.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    section.locator(f"[name='{table}-reason']").fill(reason)
    with page.expect_navigation():
        section.locator("button[type=submit]").click()
    page.locator(".messages li", has_text="is added").wait_for()


def test_a_moderator_builds_a_world_and_opens_turn_1(
    live_server,
    browser,  # noqa: F811
    django_user_model,
    tmp_path,
) -> None:
    shots = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    mod = django_user_model.objects.create_user(
        "mod", "mod@example.org", "sail-away", is_staff=True
    )
    base = live_server.url
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    log_in(page, base, "mod")
    page.goto(f"{base}/campaigns/new/")
    page.fill("#id_name", "The Sound")
    page.fill("#id_slug", "the-sound")
    with page.expect_navigation():
        page.locator("button", has_text="Make the campaign").click()
    page.locator("h1", has_text="The Sound: the world").wait_for()
    campaign = Campaign.objects.get(slug="the-sound")
    assert Membership.objects.get(campaign=campaign).user == mod
    page.locator("#check", has_text="a campaign needs at least one faction").wait_for()

    for key, name, kind, x, y in (
        ("kattegat", "Kattegat", "sea", "330", "300"),
        ("oresund", "Øresund", "sea", "620", "520"),
        ("zealand", "Zealand", "land", "400", "600"),
    ):
        add(page, "province", key=key, name=name, kind=kind, x=x, y=y)
    add(page, "adjacency", a="kattegat", b="oresund")
    add(page, "adjacency", a="kattegat", b="zealand")
    add(page, "faction", key="danes", name="Denmark–Norway", colour="#c8102e", treasury="600")
    add(page, "faction", key="swedes", name="Sweden", colour="#005293", treasury="500")
    add(page, "relation", low="danes", high="swedes", state="war")
    add(page, "ship-type", key="frigate", cost="120", attack="4", health="10")
    section = page.locator("section#port")
    section.locator("details").evaluate("details => { details.open = true; }")
    section.locator("[name='port-key']").fill("copenhagen")
    section.locator("[name='port-name']").fill("Copenhagen")
    section.locator("[name='port-province']").select_option("zealand")
    section.locator("[name='port-owner']").select_option("danes")
    section.locator("input[name='port-waters'][value='oresund']").check()
    section.locator("[name='port-reason']").fill("the capital")
    with page.expect_navigation():
        section.locator("button[type=submit]").click()
    page.locator(".messages li", has_text="is added").wait_for()
    add(
        page, "fleet", key="d1", owner="danes", at="port:copenhagen", ships="2", ship_type="frigate"
    )
    # Øresund is not next to Zealand yet: the check says so, in words, with a link to the port.
    problem = page.locator("#check li", has_text="Port Copenhagen (copenhagen): its waters")
    problem.wait_for()
    assert "'oresund' is not adjacent to 'zealand' (X1)" in problem.inner_text()
    assert page.locator("button", has_text="Open the first turn").count() == 0
    # The fix, half typed when the picture is taken.
    section = page.locator("section#adjacency")
    section.locator("details").evaluate("details => { details.open = true; }")
    section.locator("[name='adjacency-a']").select_option("oresund")
    section.locator("[name='adjacency-b']").select_option("zealand")
    section.locator("[name='adjacency-reason']").fill("the Sound touches Zealand")
    page.locator("#map img").evaluate("img => img.complete && img.naturalWidth > 0")
    page.screenshot(path=str(shots / "world-editor.png"), full_page=True)
    with page.expect_navigation():
        section.locator("button[type=submit]").click()
    # A delete that would take a port with it is refused, its code and why on the row's page.
    page.locator("section#province tr", has_text="zealand").locator("a", has_text="edit").click()
    page.locator("h1", has_text="The province zealand").wait_for()
    page.fill("#id_delete-reason", "no land")
    with page.expect_navigation():
        page.locator("button", has_text="Delete the province").click()
    page.locator(".messages li.error", has_text="in_use").wait_for()
    assert "ports in it: copenhagen" in page.locator(".messages").inner_text()
    page.screenshot(path=str(shots / "world-editor-row.png"), full_page=True)
    page.goto(f"{base}/c/the-sound/world/check/")
    page.locator("text=No problems").wait_for()
    page.fill("#id_open_reason", "the season opens")
    with page.expect_navigation():
        page.locator("button", has_text="Open the first turn").click()
    page.locator("h2", has_text="Turn 1").wait_for()  # the dashboard
    page.locator(".status", has_text="open").wait_for()
    turn = Turn.objects.get(campaign=campaign)
    assert (turn.number, turn.status) == (1, "open")
    assert AuditEntry.objects.get(campaign=campaign, action="open").reason == "the season opens"
    added = AuditEntry.objects.filter(campaign=campaign, action__startswith="world add")
    assert added.count() == 12  # every row, with its reason
