"""The forum export (issue 11) in a real headless Chromium: a player opens it from the turn's
report, finds the public bulletin first with its map drawn from the public PNG link, copies the
bulletin, and sees the private report apart, marked; the PNG link opens in a browser that is not
logged in; the moderator replaces the link and the old one is a 404. It takes a screenshot of the
export page: into the test's temporary folder, or SCREENSHOT_DIR when set (docs/img/)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from campaign import lifecycle
from campaign.models import AuditEntry
from tests.browser.test_turn_in_a_browser import browser, campaign, log_in  # noqa: F401
from tests.conftest import resolve_with_the_swedes_attacking

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_forum_export_in_the_browser(
    live_server,
    browser,  # noqa: F811
    campaign,  # noqa: F811
    tmp_path,
) -> None:
    shots = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    base = live_server.url
    lifecycle.turn_publish(resolve_with_the_swedes_attacking(campaign), user=None)

    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, permissions=["clipboard-read", "clipboard-write"]
    )
    player = context.new_page()
    log_in(player, base, "sven")  # the Swedes
    player.goto(f"{base}/c/{campaign.slug}/turns/1/")
    player.locator("a", has_text="For the forum").click()
    player.locator("h1", has_text="Turn 1 for the forum").wait_for()

    bulletin, private = player.locator("#bulletin"), player.locator("#private")
    assert bulletin.bounding_box()["y"] < private.bounding_box()["y"]  # the one to post first
    assert "this is the one to post" in bulletin.inner_text()
    stamp = private.locator(".stamp")
    assert stamp.is_visible()
    assert stamp.inner_text().lower() == "private — do not post"
    image = bulletin.locator("img.public-map")
    image.scroll_into_view_if_needed()
    player.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=image.element_handle()
    )
    assert image.evaluate("img => img.naturalWidth") >= 1000  # the PNG, 1.5 pixels a unit

    bulletin.locator("button[data-copy=bulletin-md]").click()
    bulletin.locator("button", has_text="Copied").wait_for()
    copied = player.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("# Skirmish in the Sound — turn 1")
    link = player.locator("#public-map-link").input_value()
    assert f"![Map of the turn](<{link}>)" in copied
    assert "PRIVATE" not in copied
    assert player.locator("#private-md").input_value().startswith("> **PRIVATE — do not post.**")
    player.screenshot(path=str(shots / "forum-export.png"), full_page=True)
    assert (shots / "forum-export.png").stat().st_size > 10_000

    stranger = browser.new_context()  # nobody logged in: a forum's reader
    shown = stranger.new_page().goto(link)
    assert shown.status == 200
    assert shown.headers["content-type"] == "image/png"

    moderator = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(moderator, base, "mod")
    moderator.goto(f"{base}/c/{campaign.slug}/turns/1/export/")
    moderator.fill("#replace-reason", "posted in the wrong channel")
    moderator.locator("button", has_text="Replace the link").click()
    moderator.locator(".messages", has_text="has a new link").wait_for()
    new_link = moderator.locator("#public-map-link").input_value()
    assert new_link != link
    # A browser that showed the old picture may keep it PUBLIC_MAP_MAX_AGE (ten minutes); one
    # that had not, or asks again after that, finds nothing.
    later = browser.new_context()
    assert later.new_page().goto(link).status == 404
    assert later.new_page().goto(new_link).status == 200
    later.close()
    assert AuditEntry.objects.get(action="replace public map link").reason == (
        "posted in the wrong channel"
    )
    context.close()
    stranger.close()
