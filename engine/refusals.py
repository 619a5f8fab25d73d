"""Refusals: an order that is not carried out, with a stable code and a plain message (X23)."""

from __future__ import annotations

from dataclasses import dataclass

CODES = frozenset(
    {
        "unknown_fleet",
        "unknown_province",
        "unknown_port",
        "unknown_ship_type",
        "not_commander",
        "not_adjacent",
        "not_sea",
        "no_movement_points",
        "not_hostile",
        "not_friendly_port",
        "port_blockaded",
        "not_in_waters",
        "not_docked",
        "fleet_limit",
        "insufficient_funds",
        "not_in_range",
        "not_adrift",
        "duplicate_order",
        "invalid_order",
    }
)


@dataclass(frozen=True, slots=True)
class Refusal:
    order: int  # the order's index in the file
    code: str
    message: str

    def as_dict(self) -> dict[str, object]:
        return {"order": self.order, "code": self.code, "message": self.message}


class Refused(Exception):
    """Raised while checking one order; becomes a `Refusal`."""

    def __init__(self, code: str, message: str) -> None:
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
