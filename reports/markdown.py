"""A report as Markdown for Discord and Markdown forums (Discourse, GitHub-style)."""

from __future__ import annotations

import re

from reports.blocks import ledger_lines, round_lines
from reports.model import Battle, Report, Section

# Characters that would start emphasis, links, code, HTML, tables or headings in Markdown.
_SPECIAL = re.compile(r"([\\`*_\[\]<>|~#])")
_LIST_START = re.compile(r"^([-+]|\d+[.)])")


def escape(text: str) -> str:
    """Plain text (names included) shown as itself, never as markup."""
    return _LIST_START.sub(r"\\\1", _SPECIAL.sub(r"\\\1", text))


def to_markdown(report: Report, map_url: str | None = None) -> str:
    out = [f"# {escape(report.title)}", ""]
    if map_url:
        out += [f"![Map of the turn](<{_url(map_url)}>)", ""]
    for section in report.sections:
        out += _section(section)
    return "\n".join(out).rstrip() + "\n"


def _section(section: Section) -> list[str]:
    out = [f"## {escape(section.heading)}", ""]
    if section.lines:
        out += [f"- {escape(line)}" for line in section.lines] + [""]
    for battle in section.battles:
        out += _battle(battle)
    if section.ledger is not None:
        out += _code(ledger_lines(section.ledger))
    return out


def _battle(battle: Battle) -> list[str]:
    out = [f"### {escape(battle.heading)}", ""]
    for name, side in zip(("A", "B"), battle.sides, strict=True):
        detail = f" — {escape(side.detail)}" if side.detail else ""
        out.append(f"- **Side {name}: {escape(side.label)}**{detail}")
    out.append("")
    if battle.rounds:
        out += _code(round_lines(battle))
    out += [f"**{escape(battle.outcome)}**", ""]
    if battle.notes:
        out += [f"- {escape(note)}" for note in battle.notes] + [""]
    return out


def _code(lines: list[str]) -> list[str]:
    # A fence longer than any run of backticks inside, so no name can close the block early.
    longest = max((len(run) for line in lines for run in re.findall(r"`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}text", *lines, fence, ""]


def _url(url: str) -> str:
    """Inside <…> a link may hold anything but angle brackets and line breaks."""
    return re.sub(r"[<>\s]", lambda m: f"%{ord(m.group()):02X}", url)
