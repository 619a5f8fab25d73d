"""Written orders on the naval desk, the moderator's entry and the API (docs/orders.md): a paste
read line by line by the engine's reader (`engine/naval/written.py`), each line given the way
the desk's forms give an order — the same checks (`order_submit`: the engine's, the faction's,
the money's), the same rows, the moderator's audited with the reason (`moderator_order_submit`,
R-60) — and answered in words (R-84). The faction's orders that count, written back, for a
player to copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from campaign.models import Turn
from engine.naval import Refusal, World, parse_scenario
from engine.naval.fog import seen_world
from engine.naval.orders import ECONOMY_ORDER_TYPES
from engine.naval.written import Lexicon, WrittenLine, read_orders, write_order, write_priority
from fleets.final import orders_final_mark
from fleets.mapping import world_document
from fleets.models import Faction, Order
from fleets.names import campaign_names
from fleets.services import (
    NOT_OPEN,
    REASON_CODE,
    faction_set_upkeep_priority,
    moderator_order_submit,
    moderator_order_withdraw,
    order_out_of_bounds,
    order_slot,
    order_submit,
    order_withdraw,
    split_scoped,
)
from fleets.words import Words
from reports.build import Names

if TYPE_CHECKING:
    from fleets.selectors import Desk

# A paste is at most this long and this many lines that say something (the desk's forms give
# one order a post; a faction's turn is a few dozen lines).
MAX_TEXT = 64 * 1024
MAX_LINES = 200
ACCEPTED, UNCHANGED, REFUSED = "accepted", "unchanged", "refused"
NOTHING_TO_WITHDRAW = "nothing_to_withdraw"  # the slot holds no order of the faction's
# What an accepted line says when its order unmarked the faction's final orders.
UNMARKED_WORDS = "your orders are no longer final: write `final` again when they are"


@dataclass(frozen=True, slots=True)
class LineAnswer:
    """What became of one line: `accepted` (the order, in words and written back),
    `unchanged` (it was given already, R-86) or `refused` (code and message). Line 0 answers
    the whole paste (a closed turn, no reason, too long)."""

    number: int
    text: str
    outcome: str
    summary: str = ""
    written: str = ""
    code: str = ""
    message: str = ""
    order: dict[str, Any] | None = None
    # The line's order unmarked the faction's orders final: said with it.
    final_unmarked: bool = False

    @property
    def words(self) -> str:
        where = f"line {self.number}" if self.number else "your orders"
        if self.outcome == REFUSED:
            return f"{where}: refused ({self.code}) — {self.message}"
        if self.outcome == UNCHANGED:
            return f"{where}: unchanged — {self.summary} (given already)"
        unmarked = f" ({UNMARKED_WORDS})" if self.final_unmarked else ""
        return f"{where}: accepted — {self.summary}{unmarked}"

    def as_dict(self) -> dict[str, Any]:
        said: dict[str, Any] = {"line": self.number, "text": self.text, "outcome": self.outcome}
        if self.outcome == REFUSED:
            said.update(code=self.code, message=self.message)
        else:
            said.update(summary=self.summary, written=self.written, order=self.order)
        if self.final_unmarked:
            said["final_unmarked"] = True
        return said


@dataclass(slots=True)
class _Given:
    """The faction's orders that count this turn, slot → order, kept up to date line by line."""

    slots: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def read(cls, turn: Turn, faction: Faction) -> _Given:
        latest: dict[str, Any] = {}
        rows = Order.objects.filter(turn=turn, faction=faction).order_by("id")
        for slot, payload in rows.values_list("slot", "payload"):
            latest[slot] = payload
        return cls({s: p for s, p in latest.items() if isinstance(p, dict)})

    def slot_of(self, order: dict[str, Any]) -> tuple[str, bool]:
        """The slot the order fills, and whether it says what that slot says already (R-86:
        a hire the same as one of the faction's hires takes that hire's slot)."""
        if order.get("type") == "hire":
            for slot, given in self.slots.items():
                if slot.startswith("hire:") and given == order:
                    return slot, True
            return order_slot(order), False
        slot = order_slot(order)
        return slot, self.slots.get(slot) == order


def lexicon_for(
    world: World,
    names: Names,
    faction: Faction | None,
    *,
    fog: bool,
    moderator: bool,
    visible: Iterable[str] | None = None,
) -> Lexicon:
    """The campaign's names over the world as the reader sees it: a player under fog of war
    reads fleets it can see only (R-45); the moderator reads every fleet. `visible`: the
    fleets the faction sees, when the caller has worked them out already (the desk)."""
    seen = world
    if fog and not moderator and faction is not None and not faction.is_pirates:
        seen = seen_world(world, faction.key, visible)
    return Lexicon(seen, provinces=names.provinces, ports=names.ports, factions=names.factions)


def written_orders_give(
    *,
    turn: Turn | None,
    faction: Faction,
    text: str,
    user: Any,
    world: World | None = None,
    names: Names | None = None,
    moderator: bool = False,
    reason: str = "",
    where: str = "desk",
    fog: bool | None = None,
) -> list[LineAnswer]:
    """Give a paste of written orders for the faction, line by line (R-84), as its player
    (`moderator=False`: checked against what it can see, its splits named in its namespace) or
    as the moderator with `reason` (audited, R-60). Every line that says something is
    answered; a refused one changes nothing."""
    whole = _whole_refusal(turn, text, moderator, reason)
    if whole is not None:
        return [whole]
    assert turn is not None
    campaign = turn.campaign
    if world is None:
        world = parse_scenario(world_document(campaign)).world
    names = names or campaign_names(campaign.pk)
    fog = campaign.naval_settings.fog_of_war if fog is None else fog
    lexicon = lexicon_for(world, names, faction, fog=fog, moderator=moderator)
    words = Words.from_names(names, world.ship_types)
    read = read_orders(text, lexicon, faction=faction.key)
    if len(read) > MAX_LINES:
        return [_refused(0, "", "invalid_order", f"Give at most {MAX_LINES} orders at once.")]
    given = _Given.read(turn, faction)
    answers = []
    for line in read:
        answers.append(
            _give_line(
                line,
                turn=turn,
                faction=faction,
                user=user,
                world=world,
                lexicon=lexicon,
                words=words,
                given=given,
                moderator=moderator,
                reason=reason,
                where=where,
            )
        )
    if not answers:
        return [_refused(0, "", "invalid_order", "There is no order in the text.")]
    return answers


def _whole_refusal(turn: Turn | None, text: str, moderator: bool, reason: str) -> LineAnswer | None:
    if turn is None or turn.status != Turn.Status.OPEN:
        number, status = (turn.number, turn.status) if turn else (0, "not open")
        return _refused(0, "", NOT_OPEN, f"Turn {number} is {status}: orders are closed.")
    if moderator and not reason.strip():
        return _refused(
            0, "", REASON_CODE, "Say why you give these orders: the reason goes to the audit log."
        )
    if len(text) > MAX_TEXT:
        return _refused(0, "", "invalid_order", f"Orders are at most {MAX_TEXT:,} characters.")
    return None


def _refused(number: int, text: str, code: str, message: str) -> LineAnswer:
    return LineAnswer(number, text, REFUSED, code=code, message=message)


def _give_line(
    line: WrittenLine,
    *,
    turn: Turn,
    faction: Faction,
    user: Any,
    world: World,
    lexicon: Lexicon,
    words: Words,
    given: _Given,
    moderator: bool,
    reason: str,
    where: str,
) -> LineAnswer:
    text = line.text.strip()
    if line.refusal is not None:
        return _refused(line.number, text, line.refusal.code, line.refusal.message)
    if line.final:
        return _final(line, turn=turn, faction=faction, user=user, moderator=moderator)
    if line.priority is not None:
        return _priority(
            line,
            faction=faction,
            turn=turn,
            user=user,
            lexicon=lexicon,
            moderator=moderator,
            reason=reason,
        )
    assert line.order is not None
    order = line.order if moderator else split_scoped(line.order, faction)
    if line.withdraw:
        return _withdraw(
            line,
            order,
            turn=turn,
            faction=faction,
            user=user,
            words=words,
            given=given,
            moderator=moderator,
            reason=reason,
        )
    bounds = order_out_of_bounds(order)
    if bounds is not None:
        return _refused(line.number, text, "invalid_order", bounds)
    slot, same = given.slot_of(order)
    if same:
        return LineAnswer(
            line.number,
            text,
            UNCHANGED,
            words.order(order),
            write_order(order, lexicon),
            order=order,
        )
    result: Order | Refusal
    if moderator:
        result = moderator_order_submit(
            turn=turn,
            faction=faction,
            order=order,
            user=user,
            reason=reason,
            slot=slot,
            world=world,
            words=words,
            where=where,
            written=text,
        )
    else:
        result = order_submit(
            turn=turn,
            faction=faction,
            order=order,
            user=user,
            slot=slot,
            world=world,
            fogged=True,
        )
    if isinstance(result, Refusal):
        return _refused(line.number, text, result.code, result.message)
    payload = dict(result.payload)
    given.slots[slot] = payload
    return LineAnswer(
        line.number,
        text,
        ACCEPTED,
        words.order(payload),
        write_order(payload, lexicon),
        order=payload,
        final_unmarked=result.final_unmarked,
    )


def _withdraw(
    line: WrittenLine,
    order: dict[str, Any],
    *,
    turn: Turn,
    faction: Faction,
    user: Any,
    words: Words,
    given: _Given,
    moderator: bool,
    reason: str,
) -> LineAnswer:
    """`withdraw …` (R-98): the faction's order in that slot taken back, as the desk's
    *Withdraw* does (the moderator's audited). Only the faction's own orders are in `given`,
    so an empty slot and another faction's are answered alike (R-41)."""
    text = line.text.strip()
    slot, _ = given.slot_of(order)  # a hire: the slot of the same hire given
    before = given.slots.get(slot)
    if before is None:
        what = (
            f"for {order['fleet']}" if "fleet" in order and order["type"] != "hire" else "like it"
        )
        return _refused(
            line.number, text, NOTHING_TO_WITHDRAW, f"you have given no order {what} to withdraw"
        )
    result = (
        moderator_order_withdraw(
            turn=turn, faction=faction, slot=slot, user=user, reason=reason, words=words
        )
        if moderator
        else order_withdraw(turn=turn, faction=faction, slot=slot, user=user)
    )
    if isinstance(result, Refusal):
        return _refused(line.number, text, result.code, result.message)
    if result is None:  # withdrawn meanwhile (another tab, the desk)
        return _refused(line.number, text, NOTHING_TO_WITHDRAW, "that order was withdrawn already")
    del given.slots[slot]
    return LineAnswer(
        line.number,
        text,
        ACCEPTED,
        f"withdrawn: {words.order(before)}",
        text,
        final_unmarked=result.final_unmarked,
    )


def _final(
    line: WrittenLine, *, turn: Turn, faction: Faction, user: Any, moderator: bool
) -> LineAnswer:
    """`final` (R-89): the faction's orders marked final where the line stands, so an order on
    a later line unmarks them again (its answer says so). A player's word: the moderator's
    paste is refused it, as the desk's button is."""
    text = line.text.strip()
    if moderator:
        return _refused(
            line.number,
            text,
            "not_commander",
            "only the faction's player marks its orders final (the moderator's Lock ends the turn)",
        )
    marked = orders_final_mark(turn=turn, faction=faction, user=user)
    if isinstance(marked, Refusal):
        return _refused(line.number, text, marked.code, marked.message)
    return LineAnswer(line.number, text, ACCEPTED, marked.words, "final")


def _priority(
    line: WrittenLine,
    *,
    faction: Faction,
    turn: Turn,
    user: Any,
    lexicon: Lexicon,
    moderator: bool,
    reason: str,
) -> LineAnswer:
    """U2: the faction's upkeep priority, set as the desk's form sets it."""
    fleets = list(line.priority or ())
    text = line.text.strip()
    summary = "Upkeep priority: " + (", ".join(fleets) or "none")
    current = Faction.objects.filter(pk=faction.pk).values_list("upkeep_priority", flat=True)
    if list(current.first() or []) == fleets:
        return LineAnswer(line.number, text, UNCHANGED, summary, write_priority(fleets, lexicon))
    refused = faction_set_upkeep_priority(
        faction=faction, fleets=fleets, turn=turn, user=user, reason=reason if moderator else ""
    )
    if refused is not None:
        return _refused(line.number, text, refused.code, refused.message)
    faction.upkeep_priority = fleets
    return LineAnswer(line.number, text, ACCEPTED, summary, write_priority(fleets, lexicon))


def written_orders_of(
    orders: list[dict[str, Any]], faction: Faction | None, lexicon: Lexicon
) -> str:
    """The orders that count (fleet orders, then economy ones, as given), written a line each,
    and the faction's upkeep priority: what the desk shows a player to copy."""
    lines = [write_order(order, lexicon) for order in orders]
    if faction is not None and faction.upkeep_priority:
        lines.append(write_priority(faction.upkeep_priority, lexicon))
    return "\n".join(lines)


def desk_written(view: Desk, *, moderator: bool) -> str:
    """The desk's faction's orders that count, written (fleet orders first): the desk's box to
    copy and the e-mailed answer's list (fleets/order_mail.py). Reads the campaign's names
    into `view.names` if it has none yet."""
    if view.faction is None:
        return ""
    if view.names is None:
        view.names = campaign_names(view.campaign.pk)
    faction, names, fog = view.faction, view.names, view.fog

    def read() -> Lexicon:
        # The desk's own fog (its fleets seen, selectors.desk_for), not worked out again.
        return lexicon_for(
            view.world, names, faction, fog=fog, moderator=moderator, visible=view.visible_ids
        )

    # The names' index is the world's and the reader's alone: built once per version of the
    # world, not on every desk (on the load bench's 500 fleets it was 40 % of a desk).
    key = ("lexicon", faction.key, fog, moderator)
    lexicon = view.kept.computed(key, read) if view.kept is not None else read()
    fleet_first = sorted(view.orders, key=lambda o: o.get("type") in ECONOMY_ORDER_TYPES)
    return written_orders_of(fleet_first, faction, lexicon)
