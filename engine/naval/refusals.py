"""Refusals: an order that is not carried out, with a stable code and a plain message (X23)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.kernel.refusals import Refused as KernelRefused

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


class Refused(KernelRefused):
    """Raised while checking one order; becomes a `Refusal`."""

    CODES = CODES
