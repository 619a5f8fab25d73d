"""The rulebook texts kept in the project and their clause ids.

`texts/` holds copies of `../shared/rules/*.md`, the contract the engines implement; the site must
not depend on files outside the repository, and a test keeps the copies equal to the originals
wherever those are beside the project. Each ruleset's book is its rules and its file format.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

TEXTS = Path(__file__).resolve().parent / "texts"

# A clause is a list item that starts with its id in bold: `- **W1** ...`, `- **M5 Ruling — ...**`.
CLAUSE = re.compile(r"^- \*\*([A-Z]{1,2}\d{1,2})\b", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Book:
    key: str  # the ruleset's key, as a campaign records it
    title: str
    files: tuple[str, ...]  # the rules first, then the file format


BOOKS = {
    "naval": Book("naval", "Naval war rules", ("naval.md", "scenario-format.md")),
    "seafarers": Book("seafarers", "Seafaring rules", ("seafarers.md", "seafarers-format.md")),
}


def book_text(key: str) -> str:
    """The book's Markdown, its files one after the other."""
    return "\n\n".join(book_files(key))


def book_files(key: str) -> list[str]:
    """The book's files' Markdown: its rules first, then its file format."""
    return [(TEXTS / name).read_text(encoding="utf-8") for name in BOOKS[key].files]


@cache
def clause_ids(key: str) -> frozenset[str]:
    """Every clause id the ruleset's rules define (the first file of its book)."""
    rules = (TEXTS / BOOKS[key].files[0]).read_text(encoding="utf-8")
    return frozenset(CLAUSE.findall(rules))
