"""The desk's script (templates/fleets/desk.html) shows each order's own port field in a real
Chromium: a blockade's hostile ports (B1, M4: `<fleet>-blockade_port`), entering's own or
allied ones (M3: `<fleet>-port`), never both."""

from __future__ import annotations

import pytest

from tests.browser.test_turn_in_a_browser import browser, campaign, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["browser", "campaign"]


def test_the_blockade_shows_its_own_ports(live_server, browser, campaign) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, live_server.url, "anna")  # the Danes
    page.goto(f"{live_server.url}/c/{campaign.slug}/")
    card = page.locator("form[data-order]").filter(has=page.locator("[name='d1-type']"))
    blockade, enter = (
        card.locator("[data-field='blockade_port']"),
        card.locator("[data-field='port']"),
    )
    page.select_option("[name='d1-type']", "blockade")
    assert blockade.is_visible()
    assert not enter.is_visible()
    offered = card.locator("[name='d1-blockade_port'] option").evaluate_all(
        "options => options.map(o => o.value).filter(v => v)"
    )
    assert offered == ["gothenburg", "malmo"]
    page.select_option("[name='d1-type']", "enter_port")
    assert enter.is_visible()
    assert not blockade.is_visible()
    page.close()
