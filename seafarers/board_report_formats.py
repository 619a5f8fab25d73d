"""A report's sections written as Markdown, BBCode or plain text, every line escaped for its
format. The escaping follows the naval reports' approach (reports/markdown.py, reports/bbcode.py)
in the seafaring package's own code, so the two games import nothing from each other."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Format = Literal["markdown", "bbcode", "text"]
FORMATS: tuple[Format, ...] = ("markdown", "bbcode", "text")

# A name from a file may hold anything; a line break in it could forge a line of the report.
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]+")
# Markdown: what starts emphasis, code, links, HTML, entities, tables, strike-through, headings.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~#&])")
# ... and, at the start of a line, a list item or a quote.
_MD_LINE_START = re.compile(r"^([-+>]|\d+[.)])")
# BBCode has no escape character: a zero-width space inside the brackets keeps the text as it
# looks while no parser reads a tag in it.
_ZWSP = "\u200b"


@dataclass(frozen=True, slots=True)
class Section:
    heading: str
    lines: tuple[str, ...]


def plain(text: str) -> str:
    return _CONTROL.sub(" ", text)


def markdown_escape(text: str) -> str:
    text = _MD_SPECIAL.sub(r"\\\1", plain(text))
    # Discord and forums turn "@name" into a mention (and "@everyone" pings a whole server).
    text = text.replace("@", "@" + _ZWSP)
    return _MD_LINE_START.sub(r"\\\1", text)


def bbcode_escape(text: str) -> str:
    return plain(text).replace("[", "[" + _ZWSP).replace("]", _ZWSP + "]")


def write(title: str, sections: Sequence[Section], fmt: Format) -> str:
    if fmt == "markdown":
        out = [f"# {markdown_escape(title)}", ""]
        for s in sections:
            out += [f"## {markdown_escape(s.heading)}", ""]
            out += [f"- {markdown_escape(line)}" for line in s.lines] + [""]
    elif fmt == "bbcode":
        out = [f"[size=150][b]{bbcode_escape(title)}[/b][/size]", ""]
        for s in sections:
            out.append(f"[b]{bbcode_escape(s.heading)}[/b]")
            if s.lines:
                out += ["[list]", *(f"[*]{bbcode_escape(line)}" for line in s.lines), "[/list]"]
            out.append("")
    elif fmt == "text":
        out = [plain(title), ""]
        for s in sections:
            out.append(plain(s.heading))
            out += [f"  {plain(line)}" for line in s.lines] + [""]
    else:
        raise ValueError(f"unknown report format {fmt!r}; one of {', '.join(FORMATS)}")
    return "\n".join(out).rstrip() + "\n"
