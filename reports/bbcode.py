"""A report as phpBB-style BBCode for forum posts."""

from __future__ import annotations

import re

from reports.blocks import ledger_lines, round_lines
from reports.model import Battle, Report, Section, Side

# BBCode has no escape character. A zero-width space after "[" (and before "]") keeps the text
# looking the same while no parser can read a tag in it, so a player naming a fleet "[url=…]"
# or "[/code]" cannot inject markup or break out of a code block.
_ZWSP = "\u200b"


def escape(text: str) -> str:
    return text.replace("[", "[" + _ZWSP).replace("]", _ZWSP + "]")


def to_bbcode(report: Report, map_url: str | None = None) -> str:
    out = [f"[size=150][b]{escape(report.title)}[/b][/size]", ""]
    if map_url:
        out += [f"[img]{_url(map_url)}[/img]", ""]
    for section in report.sections:
        out += _section(section)
    return "\n".join(out).rstrip() + "\n"


def _section(section: Section) -> list[str]:
    out = [f"[size=120][b]{escape(section.heading)}[/b][/size]"]
    if section.lines:
        out += ["[list]", *(f"[*]{escape(line)}" for line in section.lines), "[/list]"]
    for battle in section.battles:
        out += _battle(battle)
    if section.ledger is not None:
        out += _code(ledger_lines(section.ledger))
    out.append("")
    return out


def _battle(battle: Battle) -> list[str]:
    out = [f"[b][i]{escape(battle.heading)}[/i][/b]", "[list]"]
    for name, side in zip(("A", "B"), battle.sides, strict=True):
        detail = f" — {escape(side.detail)}" if side.detail else ""
        out.append(f"[*][b]Side {name}:[/b] {_label(side)}{detail}")
    out.append("[/list]")
    if battle.rounds:
        out += _code(round_lines(battle))
    out.append(f"[b]{escape(battle.outcome)}[/b]")
    if battle.notes:
        out += ["[list]", *(f"[*]{escape(note)}" for note in battle.notes), "[/list]"]
    return out


def _label(side: Side) -> str:
    # Side.colour is already checked to be a plain hex colour (Names.colour).
    if side.colour:
        return f"[color={side.colour}]{escape(side.label)}[/color]"
    return escape(side.label)


def _code(lines: list[str]) -> list[str]:
    return ["[code]", *(escape(line) for line in lines), "[/code]"]


def _url(url: str) -> str:
    """Brackets and whitespace percent-encoded: the URL cannot close the [img] tag."""
    return re.sub(r"[\[\]\s]", lambda m: f"%{ord(m.group()):02X}", url)
