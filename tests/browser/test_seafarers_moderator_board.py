"""The moderator builds for a player by tapping the board (G4, issue 20 §4), in a real headless
Chromium at 1280 and at 390 px wide: the dashboard draws the seat's targets as its desk does; a
tap asks "Build a road here for red?"; yes without a reason sends nothing and says why; with one
the road is built through `act_for`, marked by_moderator and audited with the reason. The page
never scrolls sideways, and every target is 24 CSS px or more each way. Screenshots go into the
test's temporary folder, or SCREENSHOT_DIR (`SCREENSHOT_DIR=docs/img` renews the README's)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from django.db import connections

from campaign.models import AuditEntry
from seafarers.models import Action, Game
from seafarers.services import action_submit
from tests.browser.test_phone_width import WIDER_THAN_THE_WINDOW
from tests.browser.test_seafarers_board_on_a_phone import MINIMUM, RICH, sizes, too_small
from tests.browser.test_seafarers_in_a_browser import PASSWORD, log_in
from tests.browser.test_turn_in_a_browser import browser  # noqa: F401 — the fixture
from tests.seafarers.play_helpers import game_at_roll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")  # Playwright's sync API runs a loop
WIDTHS = [{"width": 1280, "height": 900}, {"width": 390, "height": 844}]


@pytest.fixture
def rolled(django_user_model):
    """Small Isles after setup: red (ann, away) has rolled, with cards for every piece."""
    make = django_user_model.objects.create_user
    people = {n: make(n, f"{n}@example.org", PASSWORD) for n in ("ann", "bob", "cid")}
    people["mod"] = make("mod", "mod@example.org", PASSWORD, is_staff=True)
    game = game_at_roll(people, hands={"red": RICH}, dice=[[6, 6]])
    action_submit(
        game=game, user=people["ann"], action={"type": "roll", "player": "red"}, expected_index=0
    )
    yield game
    connections.close_all()  # as tests/browser/test_turn_in_a_browser.py says why


def length(game: Game) -> int:
    game.refresh_from_db()
    return game.log_length


def no_sideways_scroll(page, what: str) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth")
    window = page.evaluate("window.innerWidth")
    culprits = [] if wide <= window else page.evaluate(WIDER_THAN_THE_WINDOW)
    assert wide <= window, f"{what}: {wide} px wide in {window}: {culprits}"


@pytest.mark.parametrize("viewport", WIDTHS, ids=["1280", "390"])
def test_the_moderator_builds_a_road_for_red_by_taps(
    live_server,
    browser,  # noqa: F811
    rolled,
    viewport,
    tmp_path,
):
    shots = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    width = viewport["width"]
    page = browser.new_page(viewport=viewport)
    log_in(page, live_server.url, "mod")
    page.goto(f"{live_server.url}/g/{rolled.campaign.slug}/moderate/")
    page.wait_for_load_state("load")
    no_sideways_scroll(page, f"the dashboard at {width}")
    assert page.locator("#board-form").get_attribute("data-act-for") == "red"
    roads = page.locator(".board svg.seafarers-board a.target.road")
    assert roads.count() > 1
    assert too_small(sizes(page, "a.target")) == [], f"a target under {MINIMUM} px"
    before = length(rolled)

    # No reason: the question is asked, yes sends nothing and says why.
    road = roads.first
    sent = json.loads(road.get_attribute("data-action") or "")
    road.click()
    confirm = page.locator("#board-confirm")
    confirm.get_by_text("Build a road here for red?").wait_for()
    assert (road.get_attribute("data-where") or "") in confirm.inner_text()
    confirm.get_by_role("button", name="Yes").click()
    page.locator("#board-confirm-why", has_text="Say why you act for red first").wait_for()
    assert confirm.is_visible()
    assert length(rolled) == before
    assert not AuditEntry.objects.filter(action__startswith="act_for:").exists()
    assert page.evaluate("document.activeElement.name") == "act-red-reason"

    # With a reason: sent through act_for, marked and audited; the panel comes back in place.
    page.fill("#board-act-red-reason", "ann is at sea until Friday")
    confirm.get_by_role("button", name="Yes").click()
    page.locator(".note", has_text="Sent for red; marked by_moderator").wait_for()
    assert length(rolled) == before + 1
    row = Action.objects.get(game=rolled, index=before)
    assert row.action == {**sent, "by_moderator": True}
    assert row.sender == Action.Sender.MODERATOR
    assert AuditEntry.objects.get(action="act_for:build_road").reason == (
        "ann is at sea until Friday"
    )
    assert page.locator("#board-confirm").is_hidden()
    # The road is on the board, the log says it in words, the reason is kept for the next tap.
    placed = page.locator(".board svg g.piece[data-kind=road][data-owner=red]")
    assert placed.count() >= 1
    assert "build a road at the " in page.locator(f"#action-{before}").inner_text()
    assert page.input_value("#board-act-red-reason") == "ann is at sea until Friday"
    no_sideways_scroll(page, f"the dashboard at {width}, the road built")
    page.locator(".board").screenshot(path=str(shots / f"seafarers-moderator-board-{width}.png"))
    page.close()
