"""What the order desk's map lets each fleet be ordered to by clicks (issue 20 §2): the engine's
`legal_orders` of every fleet on the desk (its seas, ports, the sides it may support in a battle
next to it and the fleets it may join), the seas' neighbours for a route clicked step by
step, and the places' names, as one JSON document the page's script reads
(fleets/static/fleets/map-orders.js). The script only offers what the forms offer; the order it
gives goes through the same form, service and engine checks as a typed one."""

from __future__ import annotations

from typing import Any

from fleets.selectors import Desk


def map_choices(view: Desk, names: dict[str, str], *, moderating: bool) -> dict[str, Any]:
    """Only the desk's own fleets (a player's, or every fleet for the moderator) are listed, so
    the document tells a player nothing the desk does not already show (fog of war, F1)."""
    # The engine's tuples as they are: JSON writes them as lists (json_script).
    fleets = {
        card.id: {
            "at": card.at,
            "docked": card.docked,
            "points": card.legal.points,
            "adrift": card.legal.adrift,
            "moves": card.legal.moves,
            "enter_port": card.legal.enter_port,
            "blockade": card.legal.blockade,
            "support": card.legal.support,  # S1, X10: the factions it may support
            "merge_into": card.legal.merge_into,  # W5, W7: the fleets it may join here
        }
        for card in view.cards
    }
    return {"fleets": fleets, "seas": view.sea_graph, "names": names, "moderating": moderating}
