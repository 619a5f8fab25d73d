"""Issue 22 in a real Chromium: a Russian browser (Accept-Language ru) gets the home page and the
header in Russian, at 390 px and 1280 px wide, with nothing wider than the window (the header's
language switcher wraps with its links); the switcher, a plain form, changes the language.
Screenshots: SCREENSHOT_DIR=docs/img (the README's), else the test's own folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.test_phone_width import DESKTOP, PHONE, WIDER_THAN_THE_WINDOW
from tests.browser.test_turn_in_a_browser import browser, campaign, log_in  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")  # Playwright's sync API runs a loop


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_the_home_page_in_russian(live_server, browser, campaign, viewport, tmp_path) -> None:  # noqa: F811
    shots = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    base = live_server.url
    tab = browser.new_page(viewport=viewport, locale="ru-RU")  # Accept-Language: ru-RU
    log_in(tab, base, "sven")
    tab.wait_for_url(f"{base}/")
    assert tab.locator("html").get_attribute("lang") == "ru"
    assert tab.locator("h1").inner_text() == "Ваши игры"
    assert tab.locator("main h2").first.inner_text() == "Морская кампания"
    header = tab.locator("header.site")
    assert header.get_by_role("link", name="Правила").is_visible()
    assert header.get_by_role("button", name="Выйти").is_visible()
    switcher = header.get_by_label("Язык")
    assert switcher.is_visible()
    assert switcher.input_value() == "ru"
    wide = tab.evaluate("document.documentElement.scrollWidth")
    window = tab.evaluate("window.innerWidth")
    culprits = [] if wide <= window else tab.evaluate(WIDER_THAN_THE_WINDOW)
    assert wide <= window, f"the Russian home page is {wide} px wide in {window}: {culprits}"
    # The header stays within a few lines on a phone: brand, links, switcher.
    assert header.bounding_box()["height"] < (160 if viewport == PHONE else 60)
    name = "home-ru-phone.png" if viewport == PHONE else "home-ru.png"
    tab.screenshot(path=str(shots / name))
    # The switcher: Svenska, then its button (a plain form, no script needed).
    switcher.select_option("sv")
    header.get_by_role("button", name="Сменить").click()
    tab.wait_for_url(f"{base}/")
    assert tab.locator("h1").inner_text() == "Dina spel"
    assert tab.locator("html").get_attribute("lang") == "sv"
    tab.close()
