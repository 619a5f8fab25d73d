"""No page of either game scrolls sideways on a phone (390 × 844) or on a desktop (1280 × 900),
issue 20 §3: a wide table, a long line of code or a picture scrolls inside its own box, never
the page. And on a phone the seafaring desk shows what the player must do now (roll, end the
turn, whose move it is) before the board, without scrolling past it."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from campaign import lifecycle
from campaign.models import Campaign
from tests.browser.test_turn_in_a_browser import browser, campaign, log_in  # noqa: F401
from tests.conftest import resolve_with_the_swedes_attacking
from tests.seafarers.play_helpers import game_at_roll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")  # Playwright's sync API runs a loop

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
ROLLING = "isles-roll"  # red to roll (tests/seafarers/play_helpers.game_at_roll)
PLAYED = "isles-roll-setup"  # the game whose setup the bot played: a log of twelve actions


@dataclass(frozen=True)
class Site:
    naval: Campaign | None = None
    seafaring: Campaign | None = None


@dataclass(frozen=True)
class Page:
    """A page to open: who opens it, in which game, and its address."""

    name: str
    who: str  # a user name, or "" for nobody logged in
    game: str  # "naval", "seafaring" or "" (the page needs neither)
    path: Callable[[Site], str]


# The naval map is seen on the desks (and the world editor, the dashboard): those pages cover it.
# map.svg opened alone is a picture, 1000 px wide as drawn, which a browser zooms to the window.
PAGES = [
    Page("home (naval player)", "sven", "naval", lambda s: "/"),
    Page("home (seafaring player)", "ann", "seafaring", lambda s: "/"),
    Page("log-in", "", "", lambda s: "/accounts/login/"),
    Page("naval order desk (player)", "sven", "naval", lambda s: f"/c/{s.naval.slug}/"),
    Page("naval order desk (moderator)", "mod", "naval", lambda s: f"/c/{s.naval.slug}/"),
    Page("naval world editor", "mod", "naval", lambda s: f"/c/{s.naval.slug}/world/"),
    Page("naval turns", "sven", "naval", lambda s: f"/c/{s.naval.slug}/turns/"),
    Page("naval turn report", "sven", "naval", lambda s: f"/c/{s.naval.slug}/turns/1/"),
    Page("naval forum export", "sven", "naval", lambda s: f"/c/{s.naval.slug}/turns/1/export/"),
    Page(
        "naval moderator dashboard",
        "mod",
        "naval",
        lambda s: f"/admin/campaign/campaign/{s.naval.pk}/dashboard/",
    ),
    Page("naval new campaign", "mod", "naval", lambda s: "/campaigns/new/"),
    Page("naval rules", "", "", lambda s: "/rules/naval/"),
    Page("seafaring rules", "", "", lambda s: "/rules/seafarers/"),
    Page("seafaring desk (player)", "ann", "seafaring", lambda s: f"/g/{ROLLING}/"),
    Page("seafaring log", "ann", "seafaring", lambda s: f"/g/{PLAYED}/log/"),
    Page("seafaring table", "ann", "seafaring", lambda s: f"/g/{PLAYED}/table/"),
    Page("seafaring moderator dashboard", "mod", "seafaring", lambda s: f"/g/{PLAYED}/moderate/"),
    Page("seafaring new game", "mod", "seafaring", lambda s: "/g/moderate/new/"),
    Page("moderator's desk (naval)", "mod", "naval", lambda s: "/moderate/"),
    Page("moderator's desk (seafaring)", "mod", "seafaring", lambda s: "/moderate/"),
]


@pytest.fixture
def seafaring(django_user_model) -> Iterator[Campaign]:
    """Small Isles with red (ann) to roll, and the game whose setup led there (its log)."""
    make = django_user_model.objects.create_user
    people = {n: make(n, f"{n}@example.org", "sail-away") for n in ("ann", "bob", "cid")}
    people["mod"] = make("mod", "mod@example.org", "sail-away", is_staff=True)
    game = game_at_roll(people, slug=ROLLING, dice=[[6, 6]])
    yield game.campaign
    connections.close_all()  # as tests/browser/test_turn_in_a_browser.py says why


@pytest.fixture
def naval(campaign: Campaign) -> Campaign:  # noqa: F811
    """The skirmish with turn 1 published (a battle in its report) and turn 2 open."""
    lifecycle.turn_publish(resolve_with_the_swedes_attacking(campaign), user=None)
    return campaign


def opened(browser: Any, base: str, page: Page, site: Site, viewport: dict[str, int]) -> Any:  # noqa: F811
    tab = browser.new_page(viewport=viewport)
    if page.who:
        log_in(tab, base, page.who)
        tab.wait_for_url(f"{base}/**")
    response = tab.goto(base + page.path(site))
    assert response.status == 200, f"{page.name}: {response.status}"
    tab.wait_for_load_state("load")  # pictures drawn: they take their width
    return tab


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_no_page_scrolls_sideways(live_server, browser, request, page, viewport) -> None:  # noqa: F811
    """Issue 20 §3: the page is never wider than the window."""
    site = Site(**({page.game: request.getfixturevalue(page.game)} if page.game else {}))
    tab = opened(browser, live_server.url, page, site, viewport)
    wide = tab.evaluate("document.documentElement.scrollWidth")
    window = tab.evaluate("window.innerWidth")
    culprits = [] if wide <= window else tab.evaluate(WIDER_THAN_THE_WINDOW)
    assert wide <= window, f"{page.name} is {wide} px wide in {window}: {culprits}"
    shots = os.environ.get("SCREENSHOT_DIR")
    if shots and viewport == PHONE and page.name in PHONE_SHOTS:  # the README's phone pictures
        name = "phone-" + re.sub(r"[^a-z0-9]+", "-", page.name.lower()).strip("-") + ".png"
        tab.screenshot(path=str(Path(shots) / name))
    tab.close()


# The pages whose phone view the README shows (SCREENSHOT_DIR=docs/img make test renews them);
# their desktop views are the README's other pictures.
PHONE_SHOTS = {
    "naval order desk (player)",
    "naval turn report",
    "naval moderator dashboard",
    "moderator's desk (naval)",
    "seafaring log",
    "seafaring table",
    "seafaring moderator dashboard",
}


# The outermost elements that reach past the window's right edge, to say in a failure what to
# mend (an element inside one of them is not named again).
WIDER_THAN_THE_WINDOW = """() => {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.getBoundingClientRect().right <= window.innerWidth + 0.5) continue;
    if (out.some(o => o.contains(el))) continue;
    out.push(el);
  }
  return out.slice(0, 8).map(el => el.tagName.toLowerCase()
    + (el.id ? '#' + el.id : '') + (el.className && el.className.baseVal === undefined
    && el.className ? '.' + String(el.className).trim().split(/\\s+/).join('.') : '')
    + ' ' + Math.round(el.getBoundingClientRect().right));
}"""


def test_on_a_phone_the_roll_comes_before_the_board(live_server, browser, seafaring) -> None:  # noqa: F811
    """Issue 20 §3: at 390 × 844, red to roll sees the Roll button and whose move it is in the
    first screen, before the board (which is below them, not above); rolled, the End the turn
    button is there too."""
    page = next(p for p in PAGES if p.name == "seafaring desk (player)")
    tab = opened(browser, live_server.url, page, Site(seafaring=seafaring), PHONE)
    roll = tab.get_by_role("button", name="Roll the dice").bounding_box()
    status = tab.locator(".sea-status").bounding_box()
    board = tab.locator("svg.seafarers-board").bounding_box()
    assert roll["y"] + roll["height"] <= PHONE["height"]
    assert status["y"] < PHONE["height"]
    assert roll["y"] < board["y"]
    # Rolled (the scripted 6 + 6): ending the turn is in the first screen too.
    tab.get_by_role("button", name="Roll the dice").click()
    tab.locator('#desk[data-index="1"]').wait_for()
    end = tab.get_by_role("button", name="End the turn").bounding_box()
    assert end["y"] + end["height"] <= PHONE["height"]
    assert end["y"] < tab.locator("svg.seafarers-board").bounding_box()["y"]
    tab.close()
