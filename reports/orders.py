"""A faction's refused orders (T1 step 1, X23): only its own, described in a few words."""

from __future__ import annotations

from typing import Any

from reports.names import Names
from reports.turn import Turn


def refused_orders(turn: Turn, faction: str, names: Names) -> list[str]:
    """The refusals of the orders the faction gave; a refusal's `order` is an index into the
    scenario's orders. An order for a fleet nobody has (unknown_fleet) is nobody's."""
    orders: list[dict[str, Any]] = turn.scenario.get("orders", [])
    lines = []
    for refusal in turn.result.get("refused", []):
        index = refusal["order"]
        order = orders[index] if 0 <= index < len(orders) else {}
        if whose(order, turn) != faction:
            continue
        # Words for the players who read it (issue 20 §4): the order as they gave it and the
        # engine's reason with names, not the order's index or the refusal's code.
        why = str(refusal.get("message") or refusal.get("code", "")).replace("_", " ")
        why = names.in_words(why).rstrip(".")
        lines.append(f"{describe(order, turn, names)} — refused: {why}.")
    return lines


def whose(order: dict[str, Any], turn: Turn) -> str:
    """The faction that gave the order."""
    # Economy orders name their faction; a `support` order's `faction` is the one supported.
    if order.get("type") in ("hire", "buyout"):
        return str(order.get("faction", ""))
    if "fleet" in order:
        return turn.owner(order["fleet"])
    return str(order.get("faction", ""))


def describe(order: dict[str, Any], turn: Turn, names: Names) -> str:
    kind, fleet = str(order.get("type", "order")), str(order.get("fleet", ""))
    if kind == "move" and order.get("path"):
        last = str(order["path"][-1])
        place = names.port(last) if turn.is_port(last) else names.province(last)
        return f"{fleet}: sail to {place}"
    if kind in ("enter_port", "blockade") and "port" in order:
        return f"{fleet}: {kind.replace('_', ' ')} {names.port(order['port'])}"
    if kind == "support" and "faction" in order:
        return f"{fleet}: support {names.faction(order['faction'])}"
    if kind == "hire":
        port = names.port(str(order.get("port", "?")))
        return f"hire {order.get('count', 1)} × {order.get('ship_type', '?')} at {port}"
    if kind == "buyout":
        return f"buy out {order.get('adrift_fleet', '?')} with {fleet}"
    words = _VERBS.get(kind, kind.replace("_", " "))
    return f"{fleet}: {words}" if fleet else words


# The order kinds' words where the kind's id does not read as one (scenario-format.md's types).
_VERBS = {"merge": "join fleet", "disband": "pay off", "buyout": "buy out"}
