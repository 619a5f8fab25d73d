"""Chance (seafarers.md X22, G2, G3): dice, steals and the deck, from the game's seed.

The engine's documented choice (docs/rulings.md S-1):
- Every draw is a pure function of the seed and how many draws of its kind came before it, so
  replaying a log, or undoing an action and redoing it, gives the same numbers (G3).
- The k-th roll of a run (k from 0, counting every `roll` action, scripted or not) that takes
  its dice from the seed uses the kernel's `SeededDice(seed)` stream named `roll k`: its first
  die, then its second.
- Scripted `dice` pairs are used first, one pair per roll that carries no `dice` of its own.
- The k-th steal of a run (counting every steal) takes the next scripted `draws` index if one is
  left, else `random.Random(f"{seed}:steal {k}").randrange(n)`; the index picks from the
  victim's cards listed brick, wood, wool, grain, ore, each as many times as held (format
  "Chance"), modulo their number.
- The deck, when the file gives none, is the 25 cards (B12) less those held and the Knights
  played, listed knight, victory_point, road_building, year_of_plenty, monopoly, shuffled once
  by `random.Random(f"{seed}:deck").shuffle`. A purchase takes the top card.
- A file without a seed plays with seed 0.
"""

from __future__ import annotations

import _random
import random
from hashlib import sha512

from engine.kernel.dice import SeededDice


def seeded_roll(seed: int, k: int) -> tuple[int, int]:
    """X22: the k-th roll's two dice from the seed: the first two dice of the kernel's
    `SeededDice(seed)` stream `roll k`, drawn here as `SeededDice.roll` draws them (without its
    stream table, one generator for two dice; tests/engine/seafarers/test_fast.py holds the two
    equal)."""
    # `random.Random(text)` seeds from the text's bytes and their SHA-512 as one integer
    # (CPython's `Random.seed`, version 2) through Python code of its own; the generator is
    # made here from that same integer, in C (the first third of a game's roll otherwise).
    text = f"{seed}:roll {k}".encode()
    rng = _random.Random(int.from_bytes(text + sha512(text).digest()))
    return 1 + int(rng.random() * 6), 1 + int(rng.random() * 6)


def kernel_roll(seed: int, k: int) -> tuple[int, int]:
    """The k-th roll through the kernel's `SeededDice` (what `seeded_roll` must equal)."""
    dice = SeededDice(seed)
    stream = f"roll {k}"
    return dice.roll(stream), dice.roll(stream)


def seeded_steal(seed: int, k: int, n: int) -> int:
    """X22: the k-th steal's index among the victim's `n` cards, from the seed."""
    return random.Random(f"{seed}:steal {k}").randrange(n)


def shuffled_deck(seed: int, cards: list[str]) -> list[str]:
    """B12, X22: the deck shuffled once when the game is created."""
    deck = list(cards)
    random.Random(f"{seed}:deck").shuffle(deck)
    return deck
