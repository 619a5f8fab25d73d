"""Problems in a file, each with its path (`fleets[3].ships[0].health`), for every ruleset.

A ruleset's file reader walks the whole document with a `Checker`, which collects every problem
instead of stopping at the first, so a moderator fixing a file sees all of them at once. Only a
file without problems becomes a ruleset's value; otherwise the reader raises `ScenarioError`.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Problem:
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class ScenarioError(ValueError):
    """A file that is not a valid scenario; `problems` lists every one found."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


class Checker:
    """Collects problems while reading; every check names its path."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    def keys(self, path: str, value: dict[str, Any], allowed: frozenset[str]) -> None:
        for key in value:
            if key not in allowed:
                self.add(key_path(path, key), f"unknown key {key!r}")

    def mapping(self, path: str, value: object) -> dict[str, Any] | None:
        if isinstance(value, dict):
            return value
        self.add(path, "must be an object")
        return None

    def items(self, path: str, value: object) -> list[Any]:
        """A list; None reads as the empty list (`items_at` tells a null from a key left out)."""
        if value is None:
            return []
        if isinstance(value, list):
            return value
        self.add(path, "must be a list")
        return []

    def items_at(self, path: str, data: dict[str, Any], key: str) -> list[Any]:
        """The list under `key` of the object at `path`. Left out is not null: a key left out
        is the empty list (its default); a key given as null is a problem, with its path."""
        if key not in data:
            return []
        if data[key] is None:
            self.add(join(path, key), "must be a list, not null")
            return []
        return self.items(join(path, key), data[key])

    def mapping_at(self, path: str, data: dict[str, Any], key: str) -> dict[str, Any] | None:
        """The object under `key` of the object at `path`: None when left out (the caller's
        default); given as null, a problem with its path."""
        if key not in data:
            return None
        if data[key] is None:
            self.add(join(path, key), "must be an object, not null")
            return None
        return self.mapping(join(path, key), data[key])

    def not_null(self, path: str, data: dict[str, Any], keys: Collection[str], what: str) -> None:
        """A problem for each of `keys` given as null in the object at `path` (`what` a value of
        that key must be: "a list", "an object")."""
        for key in keys:
            if key in data and data[key] is None:
                self.add(join(path, key), f"must be {what}, not null")

    def text(self, path: str, value: object) -> str | None:
        if isinstance(value, str) and value:
            return value
        self.add(path, "must be a non-empty string")
        return None

    def integer(self, path: str, value: object, *, low: int | None = None) -> int | None:
        if not isinstance(value, int) or isinstance(value, bool):
            self.add(path, "must be a whole number")
            return None
        if low is not None and value < low:
            self.add(path, f"must be at least {low}")
            return None
        return value

    def flag(self, path: str, value: object) -> bool:
        if isinstance(value, bool):
            return value
        self.add(path, "must be true or false")
        return False

    def unique(self, path: str, value: str, seen: Collection[str], what: str) -> None:
        """A problem if `value` is already among `seen` (a set is added to; a dict is the
        caller's to fill)."""
        if value in seen:
            self.add(path, f"{what} {value!r} is listed twice")
        elif isinstance(seen, set):
            seen.add(value)


def join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def key_path(path: str, key: object) -> str:
    """The path of a key as written: `rules.max_round`, or `rules['max round']` for a key that is
    not a plain word (an empty one, a number from YAML, one with spaces or a NUL)."""
    if isinstance(key, str) and key.isidentifier():
        return join(path, key)
    return f"{path}[{key!r}]"
