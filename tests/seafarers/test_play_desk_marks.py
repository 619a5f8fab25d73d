"""No emoji on the desk (the Longest Trade Route's road emoji showed as an empty box on a
machine without an emoji font): the awards are the project's own SVG marks, the key's pointer
to the player to act is drawn. Checked on a rendered desk where red holds both awards, and on
the seafaring templates and drawing code, where an emoji could come back."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from engine.seafarers import apply_action, legal_actions, parse_scenario, state_to_dict
from tests.seafarers.helpers import position
from tests.seafarers.play_helpers import desk_url, game_at_roll

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
RICH = {"brick": 9, "wood": 9, "wool": 2, "grain": 2, "ore": 2}
# Text symbols that are not emoji (emoji-data.txt: Emoji=No) and that DejaVu Sans draws: the
# dice faces (U+2680-2685) and the stars of the table page.
TEXT_SYMBOLS = {chr(c) for c in range(0x2680, 0x2686)} | {"★", "☆"}


def emoji_in(text: str) -> list[str]:
    """Pictographs: a symbol (So) from the blocks emoji live in, or the emoji variation
    selector. Letters, punctuation and arrows of the text fonts pass."""
    found = []
    for ch in set(text):
        if ch == "\ufe0f":
            found.append(ch)
        elif unicodedata.category(ch) == "So" and ch not in TEXT_SYMBOLS:
            code = ord(ch)
            if code >= 0x1F000 or 0x2190 <= code <= 0x2BFF:
                found.append(ch)
    return sorted(found)


def desk_part(html: str) -> str:
    """The desk itself (the partial htmx swaps), not the site's header around it."""
    start = html.index('<div id="desk"')
    return html[start : html.index("<script>", start)]


def both_awards_to_red(game) -> None:
    """Red rolls and builds roads, each one lengthening its route, until it holds the Longest
    Trade Route (LR5); three Knights played give it the Largest Army (B17)."""
    state = position(game)
    apply_action(state, {"type": "roll", "player": "red"})
    red = state.pindex["red"]
    while state.longest != red:
        roads = [a for a in legal_actions(state, "red") if a["type"] == "build_road"]
        best = max(roads, key=lambda a: _route_after(state, a, red))
        apply_action(state, best)
    doc = state_to_dict(state)
    doc["players"][red]["knights_played"] = 3
    doc["holders"]["largest_army"] = "red"
    parse_scenario(doc)  # a position the engine accepts
    game.state = doc
    game.save(update_fields=["state"])


def _route_after(state, action, red) -> int:
    trial = state.copy()
    apply_action(trial, action)
    return trial.routes[red]


def test_the_desk_shows_the_awards_as_svg_marks_and_no_emoji(client, people):
    game = game_at_roll(people, hands={"red": RICH}, dice=[[6, 6]])
    both_awards_to_red(game)
    client.force_login(people["ann"])
    html = client.get(desk_url(game)).content.decode()
    desk = desk_part(html)
    table = desk[desk.index('id="table"') :]
    row = table[table.index('<tr class="current" data-player="red"') :]
    row = row[: row.index("</tr>")]
    assert 'class="award-mark longest-route"' in row
    assert 'class="award-mark largest-army"' in row
    assert emoji_in(desk) == []


def test_no_emoji_in_the_seafaring_templates_and_drawing() -> None:
    files = [*(ROOT / "templates" / "seafarers").rglob("*.html")]
    files += [
        *(ROOT / "seafarers").glob("board_*.py"),
        *(ROOT / "seafarers" / "views").glob("*.py"),
    ]
    found = {f.name: emoji_in(f.read_text(encoding="utf-8")) for f in files}
    assert {name: e for name, e in found.items() if e} == {}
