"""Mutations of a document (a scenario or a campaign file): a hypothesis strategy that takes a
valid document and breaks it in one or a few places, the way a hand-edited file goes wrong."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

# Values of the wrong type, or right type and wrong value: what a typo or a bad tool writes.
ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, -1, 2**31, 2**63, 10**40]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(["", "\x00", "a" * 5000, "ünïcödé ⚓", "oresund", "danes", "frigate", "d1"]),
    st.lists(st.integers(), max_size=3),
    st.just({}),
    st.just([]),
    st.just({"id": "x"}),
    st.just([[[[[[[[]]]]]]]]),
)


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in the document: the keys and indexes that lead to it."""
    out = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            out.extend(paths(value, (*prefix, key)))
    elif isinstance(doc, list):
        for n, value in enumerate(doc):
            out.extend(paths(value, (*prefix, n)))
    return out


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path[:-1]:
        doc = doc[step]
    return doc


@st.composite
def mutated(draw: st.DrawFn, original: dict[str, Any], max_changes: int = 3) -> dict[str, Any]:
    """The document with 1 to `max_changes` changes: a key deleted, a value replaced by an odd
    one, an item duplicated (duplicate ids), an id swapped for another's (dangling and duplicate
    references), an unknown key added, a value nested deep."""
    doc = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, max_changes))):
        places = [p for p in paths(doc) if p]
        if not places:
            break
        where = draw(st.sampled_from(places))
        parent = _parent(doc, where)
        last = where[-1]
        how = draw(
            st.sampled_from(["delete", "replace", "duplicate", "swap", "unknown_key", "nest"])
        )
        if how == "delete":
            del parent[last]
        elif how == "replace":
            parent[last] = draw(ODD_VALUES)
        elif how == "duplicate" and isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
        elif how == "swap":
            strings = [
                _parent(doc, p)[p[-1]] for p in places if isinstance(_parent(doc, p)[p[-1]], str)
            ]
            if strings:
                parent[last] = draw(st.sampled_from(strings))
        elif how == "unknown_key" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["weather", "ID", "\x00", "ids"]))] = 1
        elif how == "nest":
            value = parent[last]
            for _ in range(draw(st.integers(1, 50))):
                value = [value]
            parent[last] = value
    return doc
