"""The seafaring moderator in a real headless Chromium (Debian's, driven by Playwright): creates a
game on the new-game page (a player and a bot), starts it, sees the player's first settlement
arrive, undoes it (htmx) and sees the log and the board without it. It screenshots the dashboard:
into the test's temporary folder, or into SCREENSHOT_DIR when set (`SCREENSHOT_DIR=docs/img`
renews docs/img/seafarers-moderator.png)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.db import connections

from campaign.models import AuditEntry
from engine.seafarers import bot_action
from seafarers.action_words import action_words
from seafarers.board_places import Places
from seafarers.models import Game
from seafarers.positions import waiting_for
from seafarers.services import action_submit
from tests.browser.test_turn_in_a_browser import browser  # noqa: F401 (a fixture)
from tests.seafarers.helpers import position

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")  # Playwright's sync API runs a loop


@pytest.fixture
def people(django_user_model):
    make = django_user_model.objects.create_user
    users = {
        "mod": make("mod", "mod@example.org", "sail-away", is_staff=True),
        "ann": make("ann", "ann@example.org", "sail-away"),
    }
    yield users
    connections.close_all()  # see tests/browser/test_turn_in_a_browser.py


def log_in(page, base: str, name: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", "sail-away")
    page.click("button[type=submit]")


def test_the_moderator_creates_starts_and_undoes(live_server, browser, people, tmp_path):  # noqa: F811
    shots = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    base = live_server.url
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    log_in(page, base, "mod")
    page.goto(f"{base}/g/moderate/new/")
    # An unknown user is refused plainly, beside the seat.
    page.fill("#id_name", "Four Islands")
    page.fill("#id_slug", "four")
    page.check("input[name=source][value=board]")
    page.select_option("#id_board", "four-islands")
    page.fill("#id_seat_0", "anne")
    page.check("#id_bot_1")
    page.click("text=Create the game")
    page.locator(".errorlist", has_text="There is no user named 'anne' (unknown_user)").wait_for()
    assert not Game.objects.exists()
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "seafarers-new-game.png"), full_page=True)
    page.fill("#id_seat_0", "ann")
    page.fill("#id_victory_points", "10")
    page.click("text=Create the game")
    page.locator("h1", has_text="the moderator's dashboard").wait_for()
    game = Game.objects.get(campaign__slug="four")
    assert game.status == Game.Status.NEW

    page.click("button:has-text('Start')")  # htmx: the panel comes back in place
    page.locator(".note", has_text="Started").wait_for()
    game.refresh_from_db()
    assert game.status == Game.Status.SETUP

    # ann (red) places her setup settlement and route, through the service; the bot (blue)
    # then places both of its own (on the worker: eager here), and ann her second settlement.
    ann = game.seats.get(player="red").user
    for _ in range(3):
        state = position(game)
        assert waiting_for(state) == ["red"]
        sent = bot_action(state, "red", game.log_length)
        action_submit(game=game, user=ann, action=sent, expected_index=game.log_length)
        game.refresh_from_db()
    assert game.log_length == 7
    assert sent["type"] == "build_settlement"
    page.reload()
    last = page.locator(f"#action-{game.log_length - 1}")
    last.wait_for()
    # In the players' words, never the coordinates (issue 20 §4).
    assert action_words(sent, Places(state)) in last.inner_text()
    assert sent["node"] not in last.inner_text()
    placed = f".board svg g.piece[data-kind=settlement][data-place='{sent['node']}']"
    assert page.locator(placed).count() == 1
    assert page.locator(".board svg g.last-action").count() == 1  # ringed as the last action
    assert page.locator(".board svg g.piece[data-owner=blue]").count() == 4  # the bot's

    page.screenshot(path=str(shots / "seafarers-moderator.png"), full_page=True)
    assert (shots / "seafarers-moderator.png").stat().st_size > 20_000

    page.fill("input[aria-label='Reason to undo']", "placed by mistake")
    page.click("button:has-text('Undo the last action')")
    page.locator(".note", has_text="The last action is undone.").wait_for()
    page.locator("#action-6").wait_for(state="detached")
    assert page.locator("#action-5").count() == 1
    assert page.locator(placed).count() == 0  # the settlement is gone from the board
    game.refresh_from_db()
    assert game.log_length == 6
    assert sent["node"] not in game.state["players"][0]["settlements"]
    page.locator("text=Waiting for: red (ann, to play)").wait_for()
    assert AuditEntry.objects.get(action="game_undo").reason == "placed by mistake"
