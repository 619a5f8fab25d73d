"""The board's key in words every reader can use (issue 20 §4): it names what may go at a
dashed mark, not a gesture — a player with a mouse, one on a phone and the moderator acting for
a seat read the same key — and its description tells the moderator whose places they are."""

from __future__ import annotations

from engine.seafarers import legal_actions
from seafarers.board_svg import legend_svg
from tests.seafarers.board.helpers import ODD, SVG, crafted, parse


def key_texts(svg: str) -> tuple[list[str], str]:
    root = parse(svg)
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    desc = root.find(f"{SVG}desc")
    return texts, (desc.text or "") if desc is not None else ""


def test_the_key_names_what_may_go_at_each_mark_not_a_tap() -> None:
    state = crafted()
    assert legal_actions(state, ODD), "the crafted board has places to act"
    texts, desc = key_texts(legend_svg(state, viewer=ODD, targets=True, last=False))
    assert {"a road may go here", "a ship may go here", "may be built or moved to"} <= set(texts)
    assert not [t for t in texts if "tap" in t.lower()]
    assert "the places where you may act" in desc


def test_the_moderators_key_says_whose_places_they_are() -> None:
    state = crafted()
    texts, desc = key_texts(legend_svg(state, viewer=None, targets=True, last=False))
    assert not [t for t in texts if "tap" in t.lower()]
    assert f"the places where {ODD} may act" in desc
    assert "you may act" not in desc


def test_without_places_to_act_the_key_has_no_such_lines() -> None:
    texts, desc = key_texts(legend_svg(crafted(), viewer=ODD, targets=False, last=False))
    assert "a road may go here" not in texts
    assert "Dashed marks" not in desc
