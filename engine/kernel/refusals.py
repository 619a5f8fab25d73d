"""Refusals: an input that is not carried out, with a stable code and a plain message.

Every ruleset checks its inputs (a naval order, a seafaring action) the same way: the first
failing check raises `Refused`, the caller turns it into the ruleset's refusal value, and nothing
has changed. Each ruleset subclasses `Refused` with the codes its format lists, so a code that is
not in the contract fails at once instead of reaching a player.
"""

from __future__ import annotations

from typing import ClassVar


class Refused(Exception):
    """Raised while checking one input; `code` is one of the subclass's `CODES`."""

    CODES: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, code: str, message: str) -> None:
        assert code in self.CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
