"""The log, the table, the forum exports and the board as PNG (issue 13; seafarers.md G5):
who may read them (members only; a stranger gets 404 as if there were no game), which private
details each reader gets (a stolen card only to thief and victim, a bought card only to its
buyer, a hand and Victory Point cards only to their owner; the moderator every one), the exports
escaped and public, and the public picture's unguessable link."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from seafarers.models import Game
from seafarers.services import game_create
from seafarers.views.log import public_signature
from tests.seafarers.helpers import play_one

ROOT = Path(__file__).resolve().parents[2]
NAME = "Isles *of* [b]Doom[/b] @everyone <script>x</script>"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def skirmish_log() -> dict[str, Any]:
    """The bundled skirmish (red and blue on one island) with a third player, white, holding a
    Victory Point card, and a log: red rolls 8, builds a ship and a road; blue rolls 7, moves the
    robber onto red's hex and steals red's wood (the only victim), buys Year of Plenty (the
    seed's deck), ends; white to roll, turn 5."""
    doc = json.loads((ROOT / "examples" / "seafarers-skirmish.scenario.json").read_text())
    doc["players"][1]["hand"]["wool"] = 1
    doc["players"].append({"id": "white", "dev_cards": ["victory_point"]})
    doc["actions"] = [
        {"type": "roll", "player": "red"},
        {"type": "build_ship", "player": "red", "edge": "0,1,NE"},
        {"type": "build_road", "player": "red", "edge": "0,0,SW"},
        {"type": "end_turn", "player": "red"},
        {"type": "roll", "player": "blue", "dice": [6, 1]},
        {"type": "move_robber", "player": "blue", "hex": "0,0"},
        {"type": "buy_dev_card", "player": "blue"},
        {"type": "end_turn", "player": "blue"},
    ]
    return doc


@pytest.fixture
def played(people) -> Game:
    return game_create(
        name=NAME,
        slug="doom",
        moderator=people["mod"],
        document=skirmish_log(),
        seats=["ann", "bob", "cid"],
    )


def client_of(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


PAGES = ("seafarers_log", "seafarers_log_md", "seafarers_log_bbcode", "seafarers_table")


def member_urls(slug: str) -> list[str]:
    return [reverse(name, args=[slug]) for name in (*PAGES, "seafarers_board_png")]


def test_members_read_every_page_and_strangers_get_404(people, played) -> None:
    for name in ("ann", "bob", "cid", "mod"):
        for url in member_urls("doom"):
            assert client_of(people[name]).get(url).status_code == 200, (name, url)
    for url in [*member_urls("doom"), *member_urls("no-such-game")]:
        assert client_of(people["dee"]).get(url).status_code == 404, url  # as if none existed
        response = client_of(None).get(url)
        assert response.status_code == 302, url
        assert "/login/" in response["Location"], url


def test_the_stolen_and_the_bought_card_only_for_those_concerned(people, played) -> None:
    url = reverse("seafarers_log", args=["doom"])
    text = {n: client_of(people[n]).get(url).content.decode() for n in ("ann", "bob", "cid", "mod")}
    # G5: the card stolen only to the thief (blue, bob) and the victim (red, ann).
    for name in ("ann", "bob", "mod"):
        assert "blue steals 1 wood from red" in text[name], name
    assert "blue steals a card from red" in text["cid"]
    assert "wood from red" not in text["cid"]
    # The card bought only to its buyer (blue) and the moderator.
    for name in ("bob", "mod"):
        assert "blue buys a development card: Year of Plenty" in text[name], name
    for name in ("ann", "cid"):
        assert "blue buys a development card</li>" in text[name], name
        assert "Year of Plenty" not in text[name], name


def test_hands_and_hidden_points_only_for_their_owner(people, played) -> None:
    url = reverse("seafarers_table", args=["doom"])
    pages = {n: client_of(people[n]).get(url) for n in ("ann", "cid", "mod")}
    white = {
        n: next(r for r in p.context["rows"] if r["player"] == "white") for n, p in pages.items()
    }
    # White holds one Victory Point card and nothing on the board: 1 point to white and the
    # moderator, 0 to anyone else (B19, G5); its count of development cards is public.
    assert (white["cid"]["points"], white["cid"]["hidden"]) == (1, 1)
    assert (white["mod"]["points"], white["mod"]["hidden"]) == (1, 1)
    assert (white["ann"]["points"], white["ann"]["hidden"]) == (0, None)
    assert white["ann"]["card_count"] == 1
    assert white["ann"]["cards"] is None
    assert "a Victory Point" not in pages["ann"].content.decode().split("<section", 2)[1]
    assert "Your hand: nothing; cards: a Victory Point" in pages["cid"].content.decode()
    red = next(r for r in pages["cid"].context["rows"] if r["player"] == "red")
    assert red["hand"] is None
    assert red["hand_count"] == 3
    assert "red's hand" not in pages["cid"].content.decode()
    assert "red's hand: 1 wood, 1 wool, 1 grain" in pages["mod"].content.decode()
    # White is to roll: marked on white's own table as their turn.
    assert white["cid"]["to_act"]
    assert "your turn" in pages["cid"].content.decode()


def test_the_log_page_standings_hide_the_others_hands(people, played) -> None:
    url = reverse("seafarers_log", args=["doom"])
    ann = client_of(people["ann"]).get(url).content.decode()
    assert "red: 1 point, 3 cards in hand" in ann
    assert "hand: 1 wood, 1 wool, 1 grain" in ann
    assert "blue: 1 point, 4 cards in hand, 1 development card" in ann
    assert "hand: 3 ore" not in ann
    assert "Year of Plenty" not in ann


def test_the_exports_are_public_and_escaped(people, played) -> None:
    for name in ("bob", "mod"):  # whoever asks gets what anyone may read (S-35)
        md = client_of(people[name]).get(reverse("seafarers_log_md", args=["doom"]))
        bb = client_of(people[name]).get(reverse("seafarers_log_bbcode", args=["doom"]))
        assert md["Content-Type"] == bb["Content-Type"] == "text/plain; charset=utf-8"
        md_text, bb_text = md.content.decode(), bb.content.decode()
        for text in (md_text, bb_text):
            assert "blue steals a card from red" in text
            assert "Year of Plenty" not in text
            assert "wood from red" not in text
            assert "hand:" not in text
        title = "# Isles \\*of\\* \\[b\\]Doom\\[/b\\] @\u200beveryone \\<script\\>x\\</script\\>"
        assert md_text.startswith(f"{title} — the log")
        assert "[b]Doom[/b]" not in bb_text
        assert "[\u200bb\u200b]Doom" in bb_text
        assert "## Turn 4 — blue" in md_text
        assert "[b]Turn 4 — blue[/b]" in bb_text
        signature = public_signature(played)
        assert f"![The board](<http://testserver/g/doom/board/{signature}.png?at=8>)" in md_text
        assert f"[img]http://testserver/g/doom/board/{signature}.png?at=8[/img]" in bb_text


def test_the_page_escapes_names_and_offers_the_texts_to_copy(people, played) -> None:
    page = client_of(people["ann"]).get(reverse("seafarers_log", args=["doom"]))
    html = page.content.decode()
    assert "<script>x</script>" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html
    assert 'data-copy="text-md"' in html
    assert 'data-copy="text-bbcode"' in html
    assert page.context["texts"]["md"] in page.content.decode().replace("&#x27;", "'").replace(
        "&lt;", "<"
    ).replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
    assert 'id="turn-3"' in html
    assert 'id="turn-4"' in html
    assert 'id="turn-5"' in html


def test_one_turn_alone(people, played) -> None:
    client = client_of(people["ann"])
    url = reverse("seafarers_log", args=["doom"])
    page = client.get(url, {"turn": "4"})
    assert [t["number"] for t in page.context["turns"]] == [4]
    assert (page.context["previous"], page.context["next"]) == (3, 5)
    html = page.content.decode()
    assert "blue rolls 6 + 1 = 7" in html
    assert "red rolls" not in html
    # The standings after turn 4: the position replayed to its end (as now: nothing after it).
    md = client.get(reverse("seafarers_log_md", args=["doom"]), {"turn": "3"}).content.decode()
    assert md.startswith("# Isles")
    assert "— Turn 3 — red" in md.splitlines()[0]
    assert "?at=4>)" in md  # the board after the log's first four actions
    assert "red: 1 point, 4 cards in hand" in md  # before blue stole a wood
    for bad in ("x", "-1", "99", "1" * 40, "4\x00"):
        for name in ("seafarers_log", "seafarers_log_md"):
            response = client.get(reverse(name, args=["doom"]), {"turn": bad})
            assert response.status_code == 404, (name, bad)


def test_the_member_png_is_cached_and_revalidated(people, played) -> None:
    client = client_of(people["ann"])
    url = reverse("seafarers_board_png", args=["doom"])
    response = client.get(url)
    assert response["Content-Type"] == "image/png"
    assert response.content.startswith(PNG_MAGIC)
    assert "private" in response["Cache-Control"]
    assert "no-cache" in response["Cache-Control"]
    again = client.get(url, headers={"If-None-Match": response["ETag"]})
    assert again.status_code == 304
    assert again.content == b""
    play_one_more = client_of(people["cid"])  # white rolls: the log grows, the ETag changes
    from seafarers.services import action_submit

    action_submit(
        game=played,
        user=people["cid"],
        action={"type": "roll", "player": "white"},
        expected_index=8,
    )
    changed = play_one_more.get(url, headers={"If-None-Match": response["ETag"]})
    assert changed.status_code == 200
    assert changed["ETag"] != response["ETag"]


def test_the_public_png_needs_its_signature(people, played) -> None:
    anyone = client_of(None)
    signature = public_signature(played)
    url = reverse("seafarers_board_public", args=["doom", signature])
    response = anyone.get(url)
    assert response.status_code == 200
    assert response.content.startswith(PNG_MAGIC)
    assert "public" in response["Cache-Control"]
    assert "max-age=60" in response["Cache-Control"]
    # The same picture for everyone: the board holds nothing private (G5).
    member = client_of(people["ann"]).get(reverse("seafarers_board_png", args=["doom"]))
    assert member.content == response.content
    # A past position: the board before red's ship and road differs, and keeps longer.
    before = anyone.get(url, {"at": "0"})
    assert before.status_code == 200
    assert before.content != response.content
    assert "max-age=3600" in before["Cache-Control"]
    assert anyone.get(url, {"at": "8"}).content == response.content
    assert anyone.head(url).status_code == 200  # a proxy's HEAD first
    assert anyone.post(url).status_code == 405
    for at in ("9", "x", "-1", ""):
        assert anyone.get(url, {"at": at}).status_code == 404, at
    # A wrong, a truncated or another game's signature: 404, as for a game that does not exist.
    other = game_create(
        name="Other",
        slug="other",
        moderator=people["mod"],
        board="small-isles",
        seats=["ann", "bob", "cid"],
    )
    for slug, sig in (
        ("doom", signature[:-1]),
        ("doom", signature[:-1] + ("A" if signature[-1] != "A" else "B")),
        ("doom", public_signature(other)),
        ("other", signature),
        ("no-such-game", signature),
    ):
        got = anyone.get(reverse("seafarers_board_public", args=[slug, sig]))
        assert got.status_code == 404, (slug, sig)
    assert (
        anyone.get(
            reverse("seafarers_board_public", args=["other", public_signature(other)])
        ).status_code
        == 200
    )


def test_a_game_just_started_has_an_empty_setup(people, game) -> None:
    page = client_of(people["ann"]).get(reverse("seafarers_log", args=["isles"]))
    assert page.status_code == 200
    assert [t["number"] for t in page.context["turns"]] == [0]
    assert "Nothing yet." in page.content.decode()
    play_one(game)
    html = client_of(people["ann"]).get(reverse("seafarers_log", args=["isles"])).content.decode()
    assert "red builds a settlement at" in html
