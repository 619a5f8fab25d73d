"""The structure a report is made of. Every piece of text in it is plain text: the renderers add
the markup (and escape what players could have chosen, such as names)."""

from __future__ import annotations

from dataclasses import dataclass, field


def signed(amount: int) -> str:
    """Money with its sign, as a ledger shows it: +120, −156 (a true minus sign), 0."""
    if amount > 0:
        return f"+{amount}"
    return f"−{-amount}" if amount < 0 else "0"


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a battle: `label` names its factions, `detail` its fleets (empty where the
    reader may not learn them), `colour` a checked CSS colour of its first faction, or None."""

    label: str
    detail: str = ""
    colour: str | None = None


@dataclass(frozen=True, slots=True)
class Round:
    """One battle round: initiative dice (D1), strengths (D2), damage taken per ship (D3) by
    side, ships sunk (D4) and a retreat attempt (D6), as text, '' when there was none."""

    number: int
    dice: tuple[int, int]
    strength: tuple[int, int]
    losses: tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]
    sunk: tuple[str, ...] = ()
    bonus: str = ""
    retreat: str = ""

    @property
    def dice_text(self) -> str:
        return f"{self.dice[0]}–{self.dice[1]}"

    @property
    def strength_text(self) -> str:
        return f"{self.strength[0]}–{self.strength[1]}"

    @property
    def losses_a(self) -> str:
        return _losses(self.losses[0])

    @property
    def losses_b(self) -> str:
        return _losses(self.losses[1])

    @property
    def damage(self) -> tuple[int, int]:
        """Total damage taken by side A and side B."""
        return sum(d for _, d in self.losses[0]), sum(d for _, d in self.losses[1])

    @property
    def sunk_text(self) -> str:
        return ", ".join(self.sunk) or "none"


def _losses(losses: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(f"{ship} −{damage}" for ship, damage in losses) or "none"


@dataclass(frozen=True, slots=True)
class Battle:
    """A battle as a faction that fought it reads it: sides, every round, the outcome."""

    heading: str
    sides: tuple[Side, Side]
    rounds: tuple[Round, ...]
    outcome: str
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Ledger:
    """A treasury over the turn: the start, each signed change, the end. The builder adds a line
    for any difference the events do not explain (a moderator's hand edit), so it always adds up."""

    start: int
    entries: tuple[tuple[str, int], ...]
    end: int

    @property
    def balanced(self) -> bool:
        return self.start + sum(amount for _, amount in self.entries) == self.end

    @property
    def rows(self) -> tuple[tuple[str, str], ...]:
        """Label and signed amount of each change, for the renderers."""
        return tuple((label, signed(amount)) for label, amount in self.entries)


@dataclass(frozen=True, slots=True)
class Section:
    heading: str
    lines: tuple[str, ...] = ()
    battles: tuple[Battle, ...] = ()
    ledger: Ledger | None = None


@dataclass(frozen=True, slots=True)
class Report:
    title: str
    sections: tuple[Section, ...] = field(default_factory=tuple)

    def section(self, heading: str) -> Section | None:
        return next((s for s in self.sections if s.heading == heading), None)

    @property
    def battles(self) -> tuple[Battle, ...]:
        return tuple(b for s in self.sections for b in s.battles)
