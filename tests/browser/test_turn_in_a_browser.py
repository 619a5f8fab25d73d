"""A turn played end to end in a real headless Chromium (Debian's, driven by Playwright): a player
gives orders and sees an inline error, the moderator locks and publishes, the player reads the
report and the map. It takes screenshots of the order page and the report: into the test's
temporary folder, or into SCREENSHOT_DIR when set (`SCREENSHOT_DIR=docs/img make test` renews the
README's)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connections

from campaign import lifecycle
from campaign.models import Membership, Turn
from fleets.campaign_files import read_campaign_file
from fleets.importing import campaign_import
from tests.conftest import skirmish_campaign_document

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")  # Playwright's sync API runs a loop
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    assert CHROMIUM, "install Debian's chromium (make test does)"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def campaign(django_user_model):
    campaign = campaign_import(read_campaign_file(skirmish_campaign_document()))
    lifecycle.turn_open(campaign.current_turn, user=None)
    Turn.objects.filter(pk=campaign.current_turn.pk).update(seed=1805)
    for name, key in (("sven", "swedes"), ("anna", "danes")):
        user = django_user_model.objects.create_user(name, f"{name}@example.org", "sail-away")
        Membership.objects.create(
            user=user,
            campaign=campaign,
            role=Membership.Role.PLAYER,
            faction=campaign.factions.get(key=key),
        )
    mod = django_user_model.objects.create_user(
        "mod", "mod@example.org", "sail-away", is_staff=True
    )
    Membership.objects.create(user=mod, campaign=campaign, role=Membership.Role.MODERATOR)
    yield campaign
    # The connection this fixture used is not one pytest-django closes (Django keeps connections
    # per context, and Playwright's sync API runs greenlets with contexts of their own, it
    # seems): left open, PostgreSQL refuses to drop the test database at the end of the run.
    connections.close_all()


def log_in(page, base: str, name: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", "sail-away")
    page.click("button[type=submit]")


def test_a_turn_in_the_browser(live_server, browser, campaign, tmp_path) -> None:
    shots = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    base = live_server.url
    player = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(player, base, "sven")
    player.goto(f"{base}/c/{campaign.slug}/")
    card = player.locator("#s3")
    # A split of every ship: the engine's refusal appears beside the order (htmx).
    card.locator("select[name=s3-type]").select_option("split")
    for ship in ("hjorten", "falken", "ornen"):
        card.locator(f"input[name=s3-split_ships][value={ship}]").check()
    card.locator("input[name=s3-new_fleet]").fill("s9")
    card.locator("button", has_text="Give the order").click()
    player.locator("#s3 .errorlist", has_text="must leave at least one ship").wait_for()
    # A real order: s1 sails into the Sound, keyboard only.
    form = player.locator("#s1 form").first
    form.locator("select[name=s1-type]").focus()
    form.locator("select[name=s1-type]").select_option("move")
    form.locator("select[name=s1-destination]").select_option("oresund")
    form.locator("select[name=s1-retreat]").select_option("below:0.5")
    form.locator("button", has_text="Give the order").press("Enter")
    player.locator("#s1", has_text="Order: Sail to oresund").wait_for()
    player.locator("#s1", has_text="Odds against d1").wait_for()
    shots.mkdir(parents=True, exist_ok=True)
    player.screenshot(path=str(shots / "order-desk.png"), full_page=True)

    moderator = browser.new_page(viewport={"width": 1280, "height": 900})
    moderator.goto(f"{base}/admin/login/")
    moderator.fill("#id_username", "mod")
    moderator.fill("#id_password", "sail-away")
    moderator.click("input[type=submit]")
    moderator.goto(f"{base}/admin/campaign/campaign/{campaign.pk}/dashboard/")
    moderator.locator("button", has_text="Lock").click()
    moderator.locator("text=Draft result").wait_for()  # resolved in-process (embedded default)
    moderator.locator("button", has_text="Publish").click()
    moderator.locator("h2", has_text="Turn 2").wait_for()

    player.goto(f"{base}/c/{campaign.slug}/turns/1/")
    player.locator("h1", has_text="Turn 1").wait_for()
    text = player.content()
    assert "oresund" in text.lower()
    image = player.locator("figure img").first
    assert image.evaluate("img => img.complete && img.naturalWidth > 0")  # the map rendered
    player.screenshot(path=str(shots / "turn-report.png"), full_page=True)
    assert (shots / "turn-report.png").stat().st_size > 10_000
