"""Trade offers in a real headless Chromium (Playwright, Debian's chromium): the current player
makes a like-for-like offer and sees it refused beside the form (htmx, the page not reloaded),
then a good one; the other player accepts it, and the trade is in the log (B18, X24)."""

from __future__ import annotations

import os

import pytest
from django.db import connections

from seafarers.models import TradeOffer
from tests.browser.test_turn_in_a_browser import browser  # noqa: F401  (a fixture)
from tests.seafarers.offer_helpers import seeded_isles, trade_turn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")  # Playwright's sync API runs a loop


@pytest.fixture
def isles(people):
    game = seeded_isles(people["mod"], seed=5)
    yield game
    connections.close_all()  # as tests/browser does: PostgreSQL drops its test database


def log_in(page, base: str, name: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", "x")
    page.click("button[type=submit]")


def fill(form, side: str, terms: dict[str, int]) -> None:
    for resource, count in terms.items():
        form.locator(f"input[name=offer-{side}_{resource}]").fill(str(count))


def test_an_offer_made_and_accepted_in_the_browser(live_server, browser, isles) -> None:  # noqa: F811
    t = trade_turn(isles)
    base = live_server.url
    names = {s.player: s.user.username for s in isles.seats.all()}
    proposer = browser.new_page()
    log_in(proposer, base, names[t["current"]])
    proposer.goto(f"{base}/g/isles/offers/")
    proposer.evaluate("window.notReloaded = true")
    form = proposer.locator("#offer-form")
    form.locator("select[name=offer-to]").select_option(t["other"])
    fill(form, "give", t["give"])
    fill(form, "get", t["give"])
    form.locator("button", has_text="Make the offer").click()
    proposer.locator("#offer-form [data-code=bad_trade]").wait_for()
    assert proposer.evaluate("window.notReloaded === true")  # htmx swapped the panel only
    assert not TradeOffer.objects.exists()
    form = proposer.locator("#offer-form")
    for resource in t["give"]:
        form.locator(f"input[name=offer-get_{resource}]").fill("0")
    fill(form, "get", t["get"])
    form.locator("button", has_text="Make the offer").click()
    proposer.locator("button", has_text="Withdraw").wait_for()
    offer = TradeOffer.objects.get()

    accepter = browser.new_page()
    log_in(accepter, base, names[t["other"]])
    accepter.goto(f"{base}/g/isles/offers/")
    accepter.locator(f"#offer-{offer.pk} button", has_text="Accept").click()
    accepter.locator("li", has_text="accepted").wait_for()
    offer.refresh_from_db()
    assert offer.status == "accepted"
    isles.refresh_from_db()
    assert isles.actions.get(index=offer.action_index).action["type"] == "domestic_trade"


def test_the_proposers_desk_shows_the_acceptance_without_a_reload(
    live_server,
    browser,  # noqa: F811
    isles,
) -> None:
    """S-50: the offering player's open desk draws the answer by its 3-second poll, so their next
    click is made on the position the trade left (issue 20 §4)."""
    t = trade_turn(isles)
    base = live_server.url
    names = {s.player: s.user.username for s in isles.seats.all()}
    proposer = browser.new_page()
    log_in(proposer, base, names[t["current"]])
    proposer.goto(f"{base}/g/isles/")
    form = proposer.locator("#offer-form")
    form.locator("select[name=offer-to]").select_option(t["other"])
    fill(form, "give", t["give"])
    fill(form, "get", t["get"])
    form.locator("button", has_text="Make the offer").click()
    proposer.locator("button", has_text="Withdraw").wait_for()
    proposer.evaluate("window.notReloaded = true")
    offer = TradeOffer.objects.get()
    index = isles.log_length

    accepter = browser.new_page()
    log_in(accepter, base, names[t["other"]])
    accepter.goto(f"{base}/g/isles/offers/")
    accepter.locator(f"#offer-{offer.pk} button", has_text="Accept").click()
    accepter.locator("li", has_text="accepted").wait_for()
    # Within two polls of 3 s; the page itself was not reloaded, the desk swapped by htmx.
    proposer.locator(f'#desk[data-index="{index + 1}"]').wait_for(timeout=8000)
    proposer.locator("#desk li", has_text="accepted").wait_for()
    assert proposer.evaluate("window.notReloaded === true")
