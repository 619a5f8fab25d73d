"""The seafaring board on a phone and on a desktop, in a real headless Chromium: every place a
player may tap (a target of a legal action, a ship that may move) is at least 24 CSS px each
way at 390 px wide (WCAG 2.5.8's minimum target size), and a tap asks first, in words naming
the piece ("Build a road here?"). Screenshots of the desk at 390 and 1280 px wide go into the
test's temporary folder, or SCREENSHOT_DIR."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from django.db import connections

from tests.browser.test_seafarers_in_a_browser import PASSWORD, log_in, press
from tests.browser.test_turn_in_a_browser import browser  # noqa: F401 — the fixture
from tests.seafarers.play_helpers import game_at_roll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")  # Playwright's sync API runs a loop
MINIMUM = 24.0  # CSS px
PHONE = {"width": 390, "height": 844}
RICH = {"brick": 5, "wood": 5, "wool": 5, "grain": 5, "ore": 5}


@pytest.fixture
def rolled(django_user_model):
    """Small Isles after setup, red to roll a 12 with cards for every piece."""
    make = django_user_model.objects.create_user
    people = {n: make(n, f"{n}@example.org", PASSWORD) for n in ("mod", "ann", "bob", "cid")}
    yield game_at_roll(people, hands={"red": RICH}, dice=[[6, 6]])
    connections.close_all()  # as tests/browser/test_turn_in_a_browser.py says why


def sizes(page, selector: str) -> list[dict]:
    """Each visible element's place, kind and box on the page, in CSS px."""
    return page.eval_on_selector_all(
        f"svg.seafarers-board {selector}",
        """els => els.filter(e => e.getClientRects().length).map(e => {
            const r = e.getBoundingClientRect();
            return {place: e.dataset.place, cls: e.getAttribute("class"),
                    width: r.width, height: r.height};
        })""",
    )


def actions(page, selector: str) -> list[dict]:
    return [
        json.loads(a)
        for a in page.eval_on_selector_all(
            f"svg.seafarers-board {selector}", "els => els.map(e => e.dataset.action)"
        )
    ]


def too_small(boxes: list[dict]) -> list[dict]:
    return [b for b in boxes if b["width"] < MINIMUM or b["height"] < MINIMUM]


def test_every_tap_target_is_24_px_on_a_phone(live_server, browser, rolled, tmp_path):  # noqa: F811
    shots = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    page = browser.new_page(viewport=PHONE)
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/g/{rolled.campaign.slug}/")
    press(page, rolled, "Roll the dice")
    page.screenshot(path=str(shots / "board-390.png"), full_page=True)
    targets = sizes(page, "a.target")
    kinds = {a["type"] for a in actions(page, "a.target")}
    assert {"build_road", "build_ship", "build_city"} <= kinds, kinds
    movable = sizes(page, "g.movable")
    assert movable, "red has a ship that may move"
    assert too_small(targets) == []
    assert too_small(movable) == []
    page.locator("svg.seafarers-board g.movable").first.click()
    destinations = sizes(page, "a.target[data-from].shown")
    assert destinations
    assert too_small(destinations) == []
    wide = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(wide, live_server.url, "ann")
    wide.goto(f"{live_server.url}/g/{rolled.campaign.slug}/")
    wide.screenshot(path=str(shots / "board-1280.png"), full_page=True)
    page.close()
    wide.close()


def test_a_tap_asks_first_naming_a_road_or_a_ship(live_server, browser, rolled):  # noqa: F811
    page = browser.new_page(viewport=PHONE)
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/g/{rolled.campaign.slug}/")
    press(page, rolled, "Roll the dice")
    confirm = page.locator("#board-confirm")
    assert confirm.is_hidden()
    rolled.refresh_from_db()
    before = rolled.log_length
    page.locator("svg.seafarers-board a.target.ship:not([data-from])").first.click()
    confirm.get_by_text("Build a ship here?").wait_for()
    confirm.get_by_role("button", name="No").click()
    assert confirm.is_hidden()
    rolled.refresh_from_db()
    assert rolled.log_length == before  # nothing sent
    road = page.locator("svg.seafarers-board a.target.road").first
    sent = json.loads(road.get_attribute("data-action") or "")
    road.click()
    confirm.get_by_text("Build a road here?").wait_for()
    assert road.get_attribute("data-where") in confirm.inner_text()
    confirm.get_by_role("button", name="Yes").click()
    page.locator(f'#desk[data-index="{before + 1}"]').wait_for()
    last = rolled.actions.order_by("-index").first()
    assert last.action == sent
    page.close()
