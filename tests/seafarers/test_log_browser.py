"""The log and the table in a real headless Chromium (Debian's, driven by Playwright), on the
Four Islands board after a hundred and twenty actions of the engine's bot played for four
seats (seeded): the log reads turn by turn with the reader's own private details, a turn's
page leads to the next, the copy buttons copy the forum texts, the board's picture loads, and
the table marks whose turn it is. Screenshots of the log and the table go into the test's
temporary folder, or into SCREENSHOT_DIR when set (`SCREENSHOT_DIR=docs/img` renews the
README's)."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connections

from engine.seafarers import state_to_dict
from seafarers.models import Game
from seafarers.positions import replay
from seafarers.services import game_create, game_start
from tests.seafarers.helpers import play_one

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")  # Playwright's sync API runs a loop
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
ACTIONS = 120


@pytest.fixture
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    assert CHROMIUM, "install Debian's chromium (make test does)"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def four_islands(people):
    game = game_create(
        name="Four Islands",
        slug="four-islands",
        moderator=people["mod"],
        board="four-islands",
        seats=["ann", "bob", "cid", "dee"],
    )
    game = game_start(game=game, user=people["mod"])
    # The same game every run (G2): the seed drawn at the start replaced by a fixed one.
    first = {**game.first_position, "seed": 1805}
    Game.objects.filter(pk=game.pk).update(
        first_position=first, state=state_to_dict(replay(first, []))
    )
    for _ in range(ACTIONS):
        play_one(game)
    yield game
    connections.close_all()  # as tests/browser: Playwright's greenlets keep connections open


def test_the_log_and_the_table_in_a_browser(live_server, browser, four_islands, tmp_path) -> None:
    shots = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "ann")
    page.fill("#id_password", "x")
    page.click("button[type=submit]")
    # The home page lists the game; its log, whole, one card per turn.
    page.locator("td", has_text="Four Islands").wait_for()
    page.goto(f"{live_server.url}/g/four-islands/log/")
    turns = page.locator("article.log-turn")
    assert turns.count() > 5
    page.screenshot(path=str(tmp_path / "whole-log.png"))  # the top of it, for a look
    assert page.locator("#turn-0 h2").inner_text().startswith("Setup")
    # One turn alone, and on to the next by its link.
    page.locator("#turn-3 a", has_text="this turn alone").click()
    page.locator("h1", has_text="turn 3").wait_for()
    page.locator("a[rel=next]").click()
    page.locator("h1", has_text="turn 4").wait_for()
    # Turn 29: red (ann) robs white and reads which card; the forum's text has it as a count.
    page.goto(f"{live_server.url}/g/four-islands/log/?turn=29")
    page.locator("li", has_text=re.compile(r"^red steals 1 \w+ from white$")).wait_for()
    # The board's picture loaded (a real PNG drawn by CairoSVG).
    image = page.locator(".board-pic img")
    image.scroll_into_view_if_needed()
    page.wait_for_function("() => document.querySelector('.board-pic img').naturalWidth > 0")
    # The copy button puts the Markdown text on the clipboard, word for word.
    page.locator("summary", has_text="For the forum").click()
    page.locator("button[data-copy=text-md]").click()
    page.locator("button[data-copy=text-md]", has_text="Copied").wait_for()
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == page.locator("#text-md").input_value()
    assert copied.startswith("# Four Islands — Turn 29 — red")
    assert "- red steals a card from white" in copied
    page.screenshot(path=str(shots / "seafarers-log.png"), full_page=True)
    # The table: every seat, whose turn marked.
    page.goto(f"{live_server.url}/g/four-islands/table/")
    rows = page.locator("tbody th[scope=row]")
    assert rows.count() == 4
    assert page.locator("tr.to-act").count() >= 1
    page.wait_for_function("() => document.querySelector('.board-pic img').naturalWidth > 0")
    page.screenshot(path=str(shots / "seafarers-table.png"), full_page=True)
    for name in ("seafarers-log.png", "seafarers-table.png"):
        assert (shots / name).stat().st_size > 10_000
    context.close()
