"""Orders by clicking a campaign's own drawing of its map (issue 20 §1, R-78), in Debian's
Chromium: the desk's map is drawn on the drawing's shapes (tests/fleets/drawings/skirmish.svg),
and a player chooses a fleet, sees the seas it may reach ringed on the drawing's own paths,
sails by a click on a shape and blockades a port on the drawing. Each order is read back from
the database as the engine will get it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from fleets.models import MapDrawing
from tests.browser.test_map_orders_in_a_browser import click_map, order_of
from tests.browser.test_turn_in_a_browser import browser, campaign, log_in  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DRAWING = (Path(__file__).parents[1] / "fleets" / "drawings" / "skirmish.svg").read_text()


def test_a_player_orders_by_clicking_the_campaigns_own_drawing(
    live_server,
    browser,  # noqa: F811
    campaign,  # noqa: F811
    tmp_path,
):
    MapDrawing.objects.create(campaign=campaign, svg=DRAWING)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, live_server.url, "sven")
    page.goto(f"{live_server.url}/c/{campaign.slug}/")
    page.locator("#naval-map svg .own-drawing .province[data-province=oresund]").wait_for()
    status = page.locator("#map-status")
    turn = campaign.current_turn

    click_map(page, ".fleet[data-fleet=s1]")
    assert "s1 at arkona_basin: 2 movement points" in status.inner_text()
    oresund = page.locator("#naval-map .province.reach[data-province=oresund] polygon")
    assert oresund.count() == 1  # the drawing's own shape, ringed as the generated map's is
    assert oresund.evaluate("e => getComputedStyle(e).stroke") == "rgb(242, 169, 0)"

    click_map(page, ".province[data-province=oresund]")  # a click on the drawing's shape
    page.locator("#s1", has_text="Order: Sail to oresund").wait_for()
    assert order_of(turn, "s1")["path"] == ["oresund"]
    page.locator("#naval-map .order[data-fleet=s1]").wait_for(state="attached")  # map redrawn
    click_map(page, ".province[data-province=kattegat]")  # on through it: a route of one's own
    page.locator("#s1", has_text="Order: Sail to kattegat").wait_for()
    assert order_of(turn, "s1")["path"] == ["oresund", "kattegat"]

    click_map(page, ".fleet[data-fleet=s2]")
    click_map(page, ".port[data-port=copenhagen]")
    page.locator("#s2", has_text="Order: Blockade copenhagen").wait_for()
    assert order_of(turn, "s2")["port"] == "copenhagen"
    shots = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page.locator("#map-orders").screenshot(path=str(shots / "own-drawing-orders.png"))
