"""Orders by clicking the naval map (issue 20 §2), in Debian's Chromium, at a desktop's width and
a phone's: a player chooses a fleet on the map, sails it by one click, builds a route of their
own by a second click on the way, blockades a port by a click on it, supports a side by the
map's button, and is told in words when a
sea is out of reach; the moderator corrects an order on the same map, with the reason the audit
log asks for. Each order given is read back from the database as the engine will get it.

The skirmish (examples/baltic-skirmish.scenario.json), 2 movement points a turn (M1): the
Swedes' s1 is in the Arkona Basin, s2 in the Kattegat. Arkona → Kattegat by the shortest route
goes through the Belt Sea (neighbours in id order: belt_sea before oresund), so a route through
the Sound (Øresund) is the player's own. The skirmish names its places by their ids."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

from campaign.models import AuditEntry
from fleets.models import Order
from tests.browser.test_turn_in_a_browser import browser, campaign, log_in  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WIDTHS = [1280, 390]


def click_map(page, selector: str) -> None:
    """A click where a player would put a finger: the middle of the drawn shape (a label or
    another flag's badge there is clicked through, as on the page)."""
    target = page.locator(f"#naval-map {selector}").first
    # The map is drawn again after each order (htmx): wait for the new drawing's shape, since a
    # forced click does not wait. The redraw can still swap the shape out between the wait and
    # the click (seen in CI on PostgreSQL: "Element is not visible" for a shape resolved in the
    # drawing being replaced), so a click that found its shape gone is tried again on the new one.
    for attempt in range(3):
        target.wait_for(state="visible")
        try:
            target.click(force=True, timeout=5_000)
            return
        except PlaywrightError as gone:
            if attempt == 2 or not ("not visible" in str(gone) or "detached" in str(gone)):
                raise


def order_of(turn, fleet: str) -> dict:
    return Order.objects.filter(turn=turn, slot=f"fleet:{fleet}").latest("id").payload


@pytest.mark.parametrize("width", WIDTHS)
def test_a_player_orders_fleets_by_clicking_the_map(
    live_server,
    browser,  # noqa: F811
    campaign,  # noqa: F811
    width,
    tmp_path,
):
    page = browser.new_page(viewport={"width": width, "height": 844})
    log_in(page, live_server.url, "sven")
    page.goto(f"{live_server.url}/c/{campaign.slug}/")
    page.locator("#naval-map svg .province[data-province=oresund]").wait_for()  # drawn inline
    status = page.locator("#map-status")
    turn = campaign.current_turn

    click_map(page, ".province[data-province=skagerrak]")  # no fleet chosen yet
    assert "Click one of your fleets first" in status.inner_text()

    click_map(page, ".fleet[data-fleet=s1]")
    assert "s1 at arkona_basin: 2 movement points" in status.inner_text()
    assert page.locator("#naval-map .province.reach[data-province=oresund]").count() == 1
    assert page.locator("#naval-map .province.reach[data-province=skagerrak]").count() == 0

    click_map(page, ".province[data-province=oresund]")  # one click: sail there
    page.locator("#s1", has_text="Order: Sail to oresund").wait_for()
    assert order_of(turn, "s1")["path"] == ["oresund"]
    page.locator("#naval-map .order[data-fleet=s1]").wait_for(state="attached")  # its arrow

    click_map(page, ".province[data-province=kattegat]")  # a second: on through it
    page.locator("#s1", has_text="Order: Sail to kattegat").wait_for()
    assert order_of(turn, "s1")["path"] == ["oresund", "kattegat"]  # not the Belt Sea's way
    assert "s1: Sail to kattegat" in status.inner_text()
    shots = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page.locator("#map-orders").screenshot(path=str(shots / f"map-orders-{width}.png"))

    click_map(page, ".province[data-province=skagerrak]")  # three steps away
    assert "skagerrak is out of s1's reach this turn (2 movement points)" in status.inner_text()
    assert order_of(turn, "s1")["path"] == ["oresund", "kattegat"]  # nothing changed

    click_map(page, ".fleet[data-fleet=s2]")  # another fleet; the Danes' port across the Sound
    click_map(page, ".port[data-port=copenhagen]")
    page.locator("#s2", has_text="Order: Blockade copenhagen").wait_for()
    blockade = order_of(turn, "s2")
    assert (blockade["type"], blockade["port"]) == ("blockade", "copenhagen")  # B1

    page.locator("button[data-map=hold]").click()  # s2 thinks again
    page.locator("#s2", has_text="Order: Hold").wait_for()
    assert order_of(turn, "s2")["type"] == "hold"

    # S1: s2, at sea in the Kattegat and at peace with the Hanse, may support the Hanse's side
    # in a battle next to it; the side is a button, since no battle is known before the turn.
    support = page.locator("#map-more button[data-map=support][data-id=hanse]")
    assert "Support" in support.inner_text()
    assert page.locator("#map-more button[data-map=support][data-id=danes]").count() == 0  # X10
    support.click()
    page.locator("#s2", has_text="Order: Support").wait_for()
    support = order_of(turn, "s2")
    assert (support["type"], support["faction"]) == ("support", "hanse")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_moderator_corrects_an_order_on_the_map_with_a_reason(
    live_server,
    browser,  # noqa: F811
    campaign,  # noqa: F811
):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, live_server.url, "mod")
    page.goto(f"{live_server.url}/c/{campaign.slug}/")  # every fleet, the Danes' d1 among them
    page.locator("#naval-map svg .fleet[data-fleet=d1]").wait_for()
    status = page.locator("#map-status")
    turn = campaign.current_turn

    click_map(page, ".fleet[data-fleet=d1]")
    click_map(page, ".province[data-province=kattegat]")
    assert "Say why first" in status.inner_text()  # and nothing was given
    assert not Order.objects.filter(turn=turn, slot="fleet:d1").exists()

    page.fill("#map-reason", "The Danes' order came by e-mail")
    click_map(page, ".province[data-province=kattegat]")
    page.locator("#d1", has_text="Order: Sail to kattegat").wait_for()
    assert order_of(turn, "d1")["path"] == ["kattegat"]
    entry = AuditEntry.objects.filter(campaign=campaign).latest("id")
    assert entry.reason == "The Danes' order came by e-mail"


def test_a_player_pastes_written_orders_and_the_desk_answers_each_line(
    live_server,
    browser,  # noqa: F811
    campaign,  # noqa: F811
):
    """Issue 21 §1: the paste box, by htmx: each line answered beside the box, the cards show the
    orders now given, the map draws their arrows, and the written orders can be copied."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, live_server.url, "sven")
    page.goto(f"{live_server.url}/c/{campaign.slug}/")
    page.locator("#naval-map svg .province[data-province=oresund]").wait_for()
    page.fill("#written-paste", "s1: Øresund -> Kattegat; evade\ns9: hold\nhire 1 galley at Malmö")
    page.click("#written-orders button[type=submit]")
    answers = page.locator("#written-answers")
    answers.wait_for()
    text = answers.inner_text()
    assert "line 1: accepted — Sail to kattegat by way of oresund" in text
    assert "line 2: refused (unknown_fleet)" in text
    assert "line 3: accepted — Hire 1 × Galley at malmo" in text
    page.locator("#s1", has_text="Order: Sail to kattegat").wait_for()  # the card, swapped
    page.locator("#naval-map .order[data-fleet=s1]").wait_for(state="attached")  # its arrow
    written = page.locator("#written-now").input_value()
    assert written.splitlines() == ["s1: oresund -> kattegat; evade", "hire 1 galley at malmo"]
    turn = campaign.current_turn
    assert order_of(turn, "s1")["path"] == ["oresund", "kattegat"]
    assert page.url.endswith(f"/c/{campaign.slug}/")  # no page load: htmx swapped the part
