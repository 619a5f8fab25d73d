"""Fixed-width blocks shared by the Markdown and BBCode renderers: battle rounds and the treasury
read best in a monospace block, and both Discord and phpBB show one (neither has usable tables)."""

from __future__ import annotations

import textwrap

from reports.model import Battle, Ledger, signed

WIDTH = 78


def round_lines(battle: Battle) -> list[str]:
    """Each round: the dice and who got the D1 bonus, the D2 strengths, D3 damage per side, the
    ships sunk (D4) and any retreat roll (D6)."""
    lines: list[str] = []
    a, b = battle.sides
    for r in battle.rounds:
        bonus = r.bonus or "tie, no bonus"
        lines.append(f"Round {r.number}: dice {r.dice_text} ({bonus}), strength {r.strength_text}")
        damage = r.damage
        rows = [
            (f"Damage to {a.label}", _with_total(r.losses_a, damage[0])),
            (f"Damage to {b.label}", _with_total(r.losses_b, damage[1])),
        ]
        if r.sunk:
            rows.append(("Sunk", r.sunk_text))
        if r.retreat:
            rows.append(("Retreat", r.retreat))
        width = max(len(label) for label, _ in rows)
        for label, text in rows:
            # Ship ids often hold hyphens: wrap only at spaces.
            wrapped = textwrap.wrap(
                text, width=max(30, WIDTH - width - 4), break_on_hyphens=False
            ) or [""]
            lines.append(f"  {label.ljust(width)}  {wrapped[0]}")
            lines.extend(" " * (width + 4) + more for more in wrapped[1:])
    return lines


def _with_total(text: str, total: int) -> str:
    return f"{total} in all: {text}" if total else text


def ledger_lines(ledger: Ledger) -> list[str]:
    """Start, each change, end; amounts right-aligned so the sum can be checked by eye."""
    rows = [("Start of turn", str(ledger.start))]
    rows += [(label, signed(amount)) for label, amount in ledger.entries]
    rows.append(("End of turn", str(ledger.end)))
    left = max(len(label) for label, _ in rows)
    right = max(len(amount) for _, amount in rows)
    return [f"{label.ljust(left)}  {amount.rjust(right)}" for label, amount in rows]
