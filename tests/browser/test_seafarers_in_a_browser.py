"""A seafaring game played on the desk in a real headless Chromium (issue 13, "Tests"): three
players place their setup pieces by clicking the board, red rolls, builds a ship and a road and
trades with the bank, blue rolls a 7, red meets it with a discard (a wrong count refused first,
beside the form) and blue moves the pirate; red offers blue a trade, blue accepts it, and the
moderator undoes it on the dashboard. Dice are scripted in the first position (G2), so
the game is the same on every run. Screenshots of the desk and of the discard go into the
test's temporary folder, or SCREENSHOT_DIR (`SCREENSHOT_DIR=docs/img` renews the README's)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from django.db import connections

from engine.seafarers import state_to_dict
from seafarers.models import Game
from seafarers.positions import replay
from seafarers.services import game_create, game_start
from tests.browser.test_turn_in_a_browser import browser  # noqa: F401 — the fixture
from tests.seafarers.play_helpers import game_at_roll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")  # Playwright's sync API runs a loop
PASSWORD = "sail-away"
# Red starts with cards enough to build a ship and a road, trade 4 ore, and still hold more
# than 7 when blue rolls the 7 (B11). Dice: red's 12 (the south islet, where nobody settles:
# setup is on the home island), then blue's 7.
RED_HAND = {"brick": 3, "wood": 4, "wool": 3, "grain": 2, "ore": 4}
DICE = [[6, 6], [3, 4]]


@pytest.fixture
def game(django_user_model):
    make = django_user_model.objects.create_user
    users = {n: make(n, f"{n}@example.org", PASSWORD) for n in ("mod", "ann", "bob", "cid")}
    created = game_create(
        name="Small Isles",
        slug="isles",
        moderator=users["mod"],
        board="small-isles",
        seats=["ann", "bob", "cid"],
    )
    game = game_start(game=created, user=users["mod"])
    first = dict(game.first_position)
    first["players"] = [
        {**p, "hand": RED_HAND} if p["id"] == "red" else p for p in first["players"]
    ]
    first["dice"] = DICE
    game.first_position = first
    game.state = state_to_dict(replay(first, []))
    game.save()
    yield game
    connections.close_all()  # as tests/browser/test_turn_in_a_browser.py says why


def log_in(page, base: str, name: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/**")


def index(game: Game) -> int:
    game.refresh_from_db()
    return game.log_length


def act_on_board(page, game: Game, selector: str = "a.target") -> None:
    """Click a place on the board, say yes to its question (htmx posts it) and wait for the
    desk to come back."""
    before = index(game)
    page.locator(f"svg.seafarers-board {selector}").first.click()
    page.locator("#board-confirm-yes").click()
    page.locator(f'#desk[data-index="{before + 1}"]').wait_for()


def press(page, game: Game, label: str) -> None:
    before = index(game)
    page.get_by_role("button", name=label).click()
    page.locator(f'#desk[data-index="{before + 1}"]').wait_for()


def test_setup_a_turn_and_a_seven_in_the_browser(live_server, browser, game, tmp_path):  # noqa: F811
    shots = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    base = live_server.url
    desk = f"{base}/g/{game.campaign.slug}/"
    pages = {}
    for name, player in (("ann", "red"), ("bob", "blue"), ("cid", "white")):
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        log_in(page, base, name)
        pages[player] = page

    # B20: the snake order, each a settlement and then a road or ship touching it, on the board.
    for player in ("red", "blue", "white", "white", "blue", "red"):
        page = pages[player]
        page.goto(desk)
        page.locator(".sea-status", has_text="Your move").wait_for()
        act_on_board(page, game, "a.target[data-action*=build_settlement]")
        act_on_board(page, game)  # the first place offered: a road or a ship by it
    red = pages["red"]
    red.goto(desk)
    assert "waiting for" not in red.locator(".sea-status").inner_text()

    # Red's turn: roll (scripted 6 + 6), a ship and a road, 4 ore for a grain with the bank.
    press(red, game, "Roll the dice")
    red.locator("#control-dice", has_text="6 + 6 = 12").wait_for()
    act_on_board(red, game, "a.target[data-action*=build_ship]")
    red.locator("#control-trade select[name=give]").wait_for()  # 4 ore: a trade is offered
    red.screenshot(path=str(shots / "seafarers-desk.png"), full_page=True)
    act_on_board(red, game, "a.target[data-action*=build_road]")
    game.refresh_from_db()
    state = game.state["players"][0]
    assert len(state["ships"]) >= 1
    assert len(state["roads"]) >= 3  # two from setup, one built
    trade = red.locator("#control-trade")
    trade.locator("select[name=give]").select_option("ore")
    trade.locator("select[name=get]").select_option("grain")
    press(red, game, "Trade")
    game.refresh_from_db()
    assert game.state["players"][0]["hand"]["ore"] == 0
    press(red, game, "End the turn")

    # Blue rolls the scripted 7; red owes a discard (B11) while blue waits (G1).
    blue = pages["blue"]
    blue.goto(desk)
    press(blue, game, "Roll the dice")
    blue.locator(".sea-status", has_text="waiting for red").wait_for()
    game.refresh_from_db()
    owed = game.state["players"][0]["discard"]
    assert owed >= 4
    red.goto(desk)
    discard = red.locator("#control-discard")
    discard.wait_for()
    discard.locator("input[name=wool]").fill("1")  # a wrong count first: refused beside it
    discard.get_by_role("button", name="Discard").click()
    red.locator("#control-discard .refusal", has_text="wrong_count").wait_for()
    red.screenshot(path=str(shots / "seafarers-discard.png"), full_page=True)
    hand = dict(game.state["players"][0]["hand"])
    discard = red.locator("#control-discard")
    left = owed
    for resource, count in hand.items():
        take = min(count, left)
        discard.locator(f"input[name={resource}]").fill(str(take))
        left -= take
    discard.locator("output", has_text=f"{owed} of {owed} chosen").wait_for()
    press(red, game, "Discard")
    game.refresh_from_db()
    assert game.state["turn"]["phase"] == "robber"

    # Blue moves the pirate (PI4), robbing red if red's ship is by the hex chosen.
    blue.reload()
    pirate = blue.locator("svg.seafarers-board a.target[data-action*=move_pirate]")
    assert pirate.count() > 0
    robbing = "a.target[data-action*=move_pirate][data-action*=steal_from]"
    robs = blue.locator(f"svg.seafarers-board {robbing}").count() > 0
    act_on_board(blue, game, robbing if robs else "a.target[data-action*=move_pirate]")
    game.refresh_from_db()
    assert game.state["turn"]["phase"] == "action"
    assert game.state["board"]["pirate"] != "3,-1"  # moved from its first hex
    kinds = list(game.actions.order_by("index").values_list("action__type", flat=True))
    assert kinds[12:] == [
        "roll",
        "build_ship",
        "build_road",
        "maritime_trade",
        "end_turn",
        "roll",
        "discard",
        "move_pirate",
    ]

    # B18, X24: red (not the current player) offers blue a card for a card on the desk's offers
    # panel; blue accepts it on its desk, and the trade is blue's domestic_trade in the log.
    game.refresh_from_db()
    red_hand, blue_hand = game.state["players"][0]["hand"], game.state["players"][1]["hand"]
    give = next(r for r, n in red_hand.items() if n > 0)
    get = next(r for r, n in blue_hand.items() if n > 0 and r != give)
    red.reload()
    offer = red.locator("#offer-form")
    offer.locator("select[name=offer-to]").select_option("blue")
    offer.locator(f"input[name=offer-give_{give}]").fill("1")
    offer.locator(f"input[name=offer-get_{get}]").fill("1")
    offer.get_by_role("button", name="Make the offer").click()
    red.locator("#offers .offer", has_text="You offer blue").wait_for()
    blue.reload()
    blue.locator("#offers .offer", has_text="red offers you").get_by_role(
        "button", name="Accept"
    ).click()
    blue.locator(f'#desk[data-index="{len(kinds) + 1}"]').wait_for()  # the desk drawn again
    game.refresh_from_db()
    traded = game.actions.order_by("-index").first()
    assert traded.action["type"] == "domestic_trade"
    assert traded.action["with"] == "red"
    assert game.state["players"][1]["hand"][give] == blue_hand.get(give, 0) + 1

    # The moderator undoes the trade on the dashboard: the hands are as they were (G3).
    moderator = browser.new_page(viewport={"width": 1400, "height": 1000})
    log_in(moderator, base, "mod")
    moderator.goto(f"{base}/g/{game.campaign.slug}/moderate/")
    moderator.fill("input[aria-label='Reason to undo']", "traded by mistake, says blue")
    moderator.click("button:has-text('Undo the last action')")
    moderator.locator(".note", has_text="The last action is undone.").wait_for()
    game.refresh_from_db()
    assert game.log_length == len(kinds)
    assert game.state["players"][0]["hand"] == red_hand
    assert game.state["players"][1]["hand"] == blue_hand
    for page in (*pages.values(), moderator):
        page.close()


def test_a_ship_is_moved_by_clicking_it_then_where_it_goes(live_server, browser, django_user_model):  # noqa: F811
    """SR7, X6, X7: the movable ship is ringed; its destinations show once it is clicked."""
    make = django_user_model.objects.create_user
    people = {n: make(n, f"{n}@example.org", PASSWORD) for n in ("mod", "ann", "bob", "cid")}
    game = game_at_roll(people, dice=[[6, 6]])
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        log_in(page, live_server.url, "ann")
        page.goto(f"{live_server.url}/g/{game.campaign.slug}/")
        press(page, game, "Roll the dice")
        ship = page.locator("svg.seafarers-board g.movable").first
        ship.wait_for()
        destinations = page.locator("svg.seafarers-board a.target[data-from]")
        assert destinations.count() > 0
        assert not destinations.first.is_visible()  # hidden until their ship is chosen
        ship.click()
        chosen = page.locator("svg.seafarers-board a.target[data-from].shown").first
        chosen.wait_for()
        sent = chosen.get_attribute("data-action")
        act_on_board(page, game, "a.target[data-from].shown")
        last = game.actions.order_by("-index").first()
        assert last.action["type"] == "move_ship"
        assert last.action == json.loads(sent)
        page.close()
    finally:
        connections.close_all()


def test_the_desk_works_without_javascript(live_server, browser, game):  # noqa: F811
    """Every action also works as a plain form (issue 13): with JavaScript off, red places a
    settlement and a road from the list under the board; a second tab, left stale, sends its
    form and is told plainly that the game moved on (G1), nothing applied."""
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 1280, "height": 900}
    )
    page = context.new_page()
    log_in(page, live_server.url, "ann")
    desk = f"{live_server.url}/g/{game.campaign.slug}/"
    page.goto(desk)

    def choose(tab, kind: str) -> None:
        choice = tab.locator(f"#place-choice option[value*={kind}]").first
        tab.select_option("#place-choice", value=choice.get_attribute("value"))
        tab.get_by_role("button", name="Do it").click()

    choose(page, "build_settlement")
    page.locator('#desk[data-index="1"]').wait_for()
    stale = context.new_page()
    stale.goto(desk)  # the same route list, drawn at index 1
    choose(page, "build_road")
    page.locator('#desk[data-index="2"]').wait_for()
    choose(stale, "build_road")
    stale.locator("#control-board .refusal", has_text="game_moved_on").wait_for()
    assert "the game moved on" in stale.locator("#control-board .refusal").inner_text()
    stale.locator('#desk[data-index="2"]').wait_for()  # the game as it is now
    kinds = list(game.actions.order_by("index").values_list("action__type", flat=True))
    assert kinds == ["build_settlement", "build_road"]
    context.close()


def test_the_trade_form_offers_only_trades_that_can_be_made(live_server, browser, people):  # noqa: F811
    """X11: with two resources to give, the script narrows "to get" to what the give chosen
    may get (never itself) and the count to what the hand holds at its rate."""
    game = game_at_roll(people, hands={"red": {"ore": 9, "wood": 5}}, dice=[[6, 6]])
    rates = replay(game.first_position, []).rates(0)  # red's: wood, ore
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/g/{game.campaign.slug}/")
    press(page, game, "Roll the dice")
    trade = page.locator("#control-trade")

    def offered() -> list[str]:
        return trade.locator("#trade-get").evaluate(
            "s => Array.from(s.options).filter(o => !o.disabled).map(o => o.value)"
        )

    for give, held in (("wood", 5), ("ore", 9), ("wood", 5)):
        trade.locator("#trade-give").select_option(give)
        assert give not in offered(), give
        assert len(offered()) == 4
        assert trade.locator("#trade-get").input_value() != give
        rate = rates[("brick", "wood", "wool", "grain", "ore").index(give)]
        assert trade.locator("#trade-count").get_attribute("max") == str(held // rate)


@pytest.fixture
def people(django_user_model):
    make = django_user_model.objects.create_user
    yield {n: make(n, f"{n}@example.org", PASSWORD) for n in ("mod", "ann", "bob", "cid")}
    connections.close_all()  # as tests/browser/test_turn_in_a_browser.py says why
