"""Written orders (docs/orders.md): one order a line, in the campaign's names, read into the
order documents of the scenario format ("Orders") and written back from them.

`read_orders(text, lexicon, faction=…)` answers every line that is not blank or a comment: the
order document it is (the same one the desk's forms make), the upkeep priority it sets (U2),
or why it cannot be read (a `Refusal` whose `order` is the line's number). Reading checks only
the words; the rules are the engine's (`validate_order`) and the desk's services', as for an
order given on a form. `write_order(order, lexicon)` writes any order as a line that reads back
to the same order.

Names are matched without regard to case, accents or punctuation (`fold`); an id is accepted
where a name is, and `[id]` is the id exactly. A name that two things bear is refused with
both, never guessed (docs/rulings.md R-83).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache
from typing import Any, TypeVar

from engine.naval.legal import legal_orders
from engine.naval.orders import FLEET_ORDER_TYPES
from engine.naval.refusals import Refusal
from engine.naval.world import PIRATES, World

# A line longer than this is not read (a paste is bounded by its caller).
MAX_LINE = 2000
# Letters that do not come apart into a letter and an accent (NFKD), read as a player types them.
_LETTERS = str.maketrans(
    {
        "ø": "o",
        "Ø": "o",
        "æ": "ae",
        "Æ": "ae",
        "œ": "oe",
        "Œ": "oe",
        "ß": "ss",
        "ł": "l",
        "Ł": "l",
        "đ": "d",
        "Đ": "d",
        "ð": "d",
        "Ð": "d",
        "þ": "th",
        "Þ": "th",
        "ı": "i",
    }
)
_WORDS = re.compile(r"[^\W_]+")
_STEP = re.compile(r"\s*(?:->|→)\s*")
_FLEET_LINE = re.compile(r"(\S+?):(?:\s+|$)(.*)", re.DOTALL)
_PARENTHESIS = re.compile(r"\s*\([^)]*\)\s*")
AMBIGUOUS = "ambiguous_name"
# The words the grammar reserves at the start of a fleet's order (docs/orders.md).
_ORDER_WORDS = frozenset(
    {"hold", "sail", "move", "enter", "blockade", "support", "join", "split", "merge"}
)


@lru_cache(maxsize=8192)
def fold(text: str) -> str:
    """A name as it is matched: lower case, without accents, punctuation as spaces
    ("Øresund" → "oresund", "Denmark–Norway" → "denmark norway", "gulf_of_riga" → "gulf of
    riga")."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_LETTERS))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return " ".join(_WORDS.findall(plain.translate(_LETTERS)))


def ship_type_words(key: str) -> str:
    """A ship type's name: the campaign file gives none, so its id read as words
    (`ship_of_the_line` → "Ship of the line")."""
    return key.replace("_", " ").replace("-", " ").capitalize()


class Unreadable(Exception):
    """A line that cannot be read: its code and words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of thing a line names: what it is called in messages and its refusal code."""

    word: str
    unknown: str


PROVINCE = Kind("province", "unknown_province")
PORT = Kind("port", "unknown_port")
FACTION = Kind("faction", "invalid_order")  # the engine's code for an unknown faction
SHIP_TYPE = Kind("ship type", "unknown_ship_type")
FLEET = Kind("fleet", "unknown_fleet")


@dataclass(slots=True)
class _Index:
    """Folded words → the ids that bear them, and each id's name."""

    kind: Kind
    names: dict[str, str]
    by_words: dict[str, set[str]] = field(default_factory=dict)
    _said: dict[str, str] = field(default_factory=dict)  # say()'s answers, kept

    def __post_init__(self) -> None:
        for key, name in self.names.items():
            for said in {name, key, _PARENTHESIS.sub(" ", name)}:
                words = fold(said)
                if words:
                    self.by_words.setdefault(words, set()).add(key)

    def find(self, text: str) -> str:
        said = text.strip()
        if not said:
            raise Unreadable("invalid_order", f"name the {self.kind.word}")
        if said.startswith("[") and said.endswith("]") and len(said) > 2:
            exact = said[1:-1]
            if exact in self.names:
                return exact
            raise Unreadable(self.kind.unknown, f'there is no {self.kind.word} called "{said}"')
        found = self.by_words.get(fold(said), set())
        if len(found) == 1:
            return next(iter(found))
        if not found:
            raise Unreadable(self.kind.unknown, f'there is no {self.kind.word} called "{said}"')
        each = ", ".join(f"{self.names[k]} [{k}]" for k in sorted(found))
        raise Unreadable(
            AMBIGUOUS,
            f'"{said}" could be {len(found)} {self.kind.word}s: {each}; write the one you mean '
            "as its id in brackets",
        )

    def say(self, key: str) -> str:
        """How to write this id so that it reads back to it: its name, else its id, else
        `[id]`."""
        known = self._said.get(key)
        if known is not None:
            return known
        answer = f"[{key}]"
        for said in (self.names.get(key), key):
            if said and self.by_words.get(fold(said)) == {key} and said.strip() == said:
                answer = said
                break
        self._said[key] = answer
        return answer


class Lexicon:
    """The campaign's names for one reader: the world (as that reader sees it) and the names of
    its provinces, ports and factions as the map shows them; ship types are read by their ids
    as words; fleets and ships have only their ids."""

    def __init__(
        self,
        world: World,
        *,
        provinces: Mapping[str, str] | None = None,
        ports: Mapping[str, str] | None = None,
        factions: Mapping[str, str] | None = None,
    ) -> None:
        self.world = world
        provinces = provinces or {}
        ports = ports or {}
        factions = factions or {}
        self.provinces = _Index(PROVINCE, {k: provinces.get(k) or k for k in world.map.provinces})
        self.ports = _Index(PORT, {k: ports.get(k) or k for k in world.map.ports})
        self.factions = _Index(
            FACTION, {k: factions.get(k) or k for k in [*world.factions, PIRATES]}
        )
        self.ship_types = _Index(SHIP_TYPE, {k: ship_type_words(k) for k in world.ship_types})
        self.fleets = _Index(FLEET, {k: k for k in world.fleets})

    def ship_type(self, text: str) -> str:
        """A ship type, also in the plural ("2 galleys", "3 ships of the line")."""
        try:
            return self.ship_types.find(text)
        except Unreadable as first:
            if first.code == AMBIGUOUS:
                raise
            words = text.split()
            for n, word in enumerate(words):
                for plural in ("es", "s"):
                    if len(word) > len(plural) and word.lower().endswith(plural):
                        single = [*words[:n], word[: -len(plural)], *words[n + 1 :]]
                        try:
                            return self.ship_types.find(" ".join(single))
                        except Unreadable:
                            continue
            raise

    def ships(self, fleet: str, text: str) -> list[str]:
        """Ship ids of one fleet, separated by commas."""
        ships = _Index(
            Kind(f"ship in {fleet}", "invalid_order"),
            {s.id: s.id for s in self.world.fleets[fleet].ships},
        )
        return [ships.find(part) for part in _list(text, "ship")]


@dataclass(frozen=True, slots=True)
class WrittenLine:
    """One line read: an order, an upkeep priority, or a refusal (`refusal.order` is the line's
    number, from 1)."""

    number: int
    text: str
    order: dict[str, Any] | None = None
    priority: tuple[str, ...] | None = None
    refusal: Refusal | None = None
    # `final`: the line marks the faction's orders final (docs/orders.md; R-89). Not an order:
    # nothing in the rulebook reads it, the platform does (it may end the turn early, R-90).
    final: bool = False
    # `withdraw …`: the order in the slot `order` would fill is to be withdrawn; for a
    # fleet named alone, `order` is its `hold`, whose slot is the fleet's.
    withdraw: bool = False


def read_orders(text: str, lexicon: Lexicon, *, faction: str | None) -> list[WrittenLine]:
    """Every line that says something (not blank, not a `#` comment), read on its own: a line
    refused does not stop the next (docs/rulings.md R-84). `faction`: whose orders these are
    (hires and buy-outs are the faction's)."""
    read = []
    for number, line in enumerate(text.splitlines(), start=1):
        answer = read_line(line, number, lexicon, faction=faction)
        if answer is not None:
            read.append(answer)
    return read


def read_line(
    line: str, number: int, lexicon: Lexicon, *, faction: str | None
) -> WrittenLine | None:
    said = line.strip()
    if not said or said.startswith("#"):
        return None
    try:
        if len(said) > MAX_LINE:
            raise Unreadable("invalid_order", f"a line is at most {MAX_LINE} characters")
        if "\x00" in said:
            raise Unreadable("invalid_order", "the line contains a NUL character")
        if fold(said).split() == ["final"]:  # no fleet's line: those have a colon
            return WrittenLine(number, line, final=True)
        if fold(said).split()[:1] == ["withdraw"]:
            return WrittenLine(
                number, line, order=_withdrawn(said, lexicon, faction), withdraw=True
            )
        order, priority = _read(said, lexicon, faction)
    except Unreadable as refused:
        return WrittenLine(number, line, refusal=Refusal(number, refused.code, refused.message))
    return WrittenLine(number, line, order=order, priority=priority)


# --- reading -------------------------------------------------------------------------------------


def _read(
    said: str, lexicon: Lexicon, faction: str | None
) -> tuple[dict[str, Any] | None, tuple[str, ...] | None]:
    fleet_line = _FLEET_LINE.fullmatch(said)
    words = fold(said).split()
    head = words[0] if words else ""
    if fleet_line is not None and " " not in fleet_line.group(1):
        fleet = lexicon.fleets.find(fleet_line.group(1))
        return _fleet_order(fleet, fleet_line.group(2).strip(), lexicon), None
    close = _tight_fleet_line(said, lexicon)  # "dk-1:hold", no space after the colon
    if close is not None:
        return _fleet_order(close[0], close[1], lexicon), None
    rest = _after_words(said, 1)
    if head == "hire":
        return _hire(rest, lexicon, _giver(faction, "hires")), None
    if head in ("repair", "disband") or words[:2] == ["pay", "off"]:
        kind = "repair" if head == "repair" else "disband"
        text = _after_words(said, 2) if head == "pay" else rest
        return _repair(kind, text, lexicon), None
    if head == "buyout" or words[:2] == ["buy", "out"]:
        text = _after_words(said, 2) if head == "buy" else rest
        return _buyout(text, lexicon, _giver(faction, "buy-outs")), None
    if words[:2] == ["upkeep", "priority"]:
        return None, _priority(_after_words(said, 2).lstrip(":").strip(), lexicon)
    raise Unreadable(
        "invalid_order",
        "this line is not an order: a fleet's order is written `fleet: what it does`; the "
        "others begin with hire, repair, pay off, buy out, upkeep priority or withdraw (or are "
        "`final`)",
    )


def _withdrawn(said: str, lexicon: Lexicon, faction: str | None) -> dict[str, Any]:
    """`withdraw FLEET` (the fleet's order, whatever it is) or `withdraw` and the line of the
    order to take back (a hire, a repair …): the order whose slot is emptied (R-98)."""
    rest = _after_words(said, 1)
    if not rest:
        raise Unreadable("invalid_order", "say what to withdraw: a fleet, or the order's line")
    if ":" not in rest and " " not in rest:
        return {"fleet": lexicon.fleets.find(rest), "type": "hold"}
    order, _ = _read(rest, lexicon, faction)
    if order is None:
        raise Unreadable(
            "invalid_order",
            "an upkeep priority is not withdrawn: write the priority you want instead (U2)",
        )
    return order


def _tight_fleet_line(said: str, lexicon: Lexicon) -> tuple[str, str] | None:
    """A fleet's order written without a space after its colon (or with one before it), when
    what stands before the first colon is a fleet's id (an id with a colon in it is written
    `id: …`)."""
    head, colon, rest = said.partition(":")
    head = head.strip()
    if not colon or not head or " " in head or not rest.strip():
        return None
    try:
        return lexicon.fleets.find(head), rest.strip()
    except Unreadable:
        return None


def _giver(faction: str | None, what: str) -> str:
    if faction is None:
        raise Unreadable("not_commander", f"{what} are a faction's: give them on its desk")
    return faction


def _after_words(text: str, count: int) -> str:
    """The text after its first `count` words (as written)."""
    parts = text.split(None, count)
    return parts[count] if len(parts) > count else ""


def _fleet_order(fleet: str, text: str, lexicon: Lexicon) -> dict[str, Any]:
    if not text:
        raise Unreadable("invalid_order", f"say what {fleet} does after {fleet}:")
    what, *clauses = [part.strip() for part in text.split(";")]
    order = _what(fleet, what, lexicon)
    order.update(_standing(clauses, lexicon))
    return order


def _what(fleet: str, text: str, lexicon: Lexicon) -> dict[str, Any]:
    """The fleet's order before its standing clauses (scenario-format.md "Orders")."""
    words = fold(text).split()
    head = words[0] if words and not text.startswith("[") else ""  # [id]: a route's first sea
    rest = _after_words(text, 1)
    order: dict[str, Any] = {"fleet": fleet}
    if head == "hold" and len(words) == 1:
        order["type"] = "hold"
    elif head in ("sail", "move") and words[1:2] == ["to"]:  # the shortest route (M2)
        place = lexicon.provinces.find(_after_words(text, 2))
        shortest = legal_orders(lexicon.world, fleet).moves.get(place, (place,))
        order.update(type="move", path=list(shortest))
    elif head in ("sail", "move"):
        order.update(type="move", path=_route(rest, lexicon))
    elif head in ("enter", "blockade"):
        if head == "enter" and words[1:2] == ["port"] and len(words) > 2:
            rest = _after_words(text, 2)
        order.update(
            _port_order("enter_port" if head == "enter" else "blockade", fleet, rest, lexicon)
        )
    elif head == "support":
        order.update(type="support", faction=lexicon.factions.find(rest))
    elif head in ("join", "merge"):
        order.update(type="merge", into=_joined(rest, lexicon))
    elif head == "split":
        ships, name = _cut(rest, "as", lambda s: lexicon.ships(fleet, s), _new_fleet)
        order.update(type="split", ships=ships, new_fleet=name)
    elif head in _ORDER_WORDS:
        raise Unreadable("invalid_order", f'"{text}" is not an order this language has')
    else:  # a route: Øresund -> Kattegat (M2)
        order.update(type="move", path=_route(text, lexicon))
    return order


def _port_order(kind: str, fleet: str, text: str, lexicon: Lexicon) -> dict[str, Any]:
    """M3, B1: a port, by its route (`via`) or by the shortest route the desk offers."""
    port, via = _cut(text, "via", lexicon.ports.find, lambda s: _route(s, lexicon), optional=True)
    order: dict[str, Any] = {"type": kind, "port": port}
    if via is None:
        legal = legal_orders(lexicon.world, fleet)
        route = (legal.enter_port if kind == "enter_port" else legal.blockade).get(port)
        via = list(route) if route else None
    if via:
        order["path"] = via
    return order


def _joined(text: str, lexicon: Lexicon) -> str:
    """W5: the fleet to join; a fleet split off this turn is not yet known, so a single word
    that names no fleet is taken as the id it will have (the engine checks it at the merge)."""
    try:
        return lexicon.fleets.find(text)
    except Unreadable as refused:
        said = text.strip()
        if refused.code == AMBIGUOUS or not said or len(said.split()) != 1:
            raise
        return said[1:-1] if said.startswith("[") and said.endswith("]") else said


def _new_fleet(text: str) -> str:
    said = text.strip()
    if said.startswith("[") and said.endswith("]"):
        said = said[1:-1]
    if not said or len(said.split()) != 1:
        raise Unreadable("invalid_order", "name the new fleet in one word: split SHIPS as NAME")
    return said


def _route(text: str, lexicon: Lexicon) -> list[str]:
    steps = _STEP.split(text.strip())
    if not text.strip() or any(not step for step in steps):
        raise Unreadable("invalid_order", "a route is seas separated by ->: Øresund -> Kattegat")
    return [_sea(step, lexicon) for step in steps]


def _sea(text: str, lexicon: Lexicon) -> str:
    try:
        return lexicon.provinces.find(text)
    except Unreadable as refused:
        if refused.code == AMBIGUOUS:
            raise
        try:
            port = lexicon.ports.find(text)
        except Unreadable:
            raise refused from None
        raise Unreadable(
            "unknown_province",
            f'"{text.strip()}" is a port, not a sea: write "enter {lexicon.ports.say(port)}"',
        ) from None


def _places(text: str, lexicon: Lexicon) -> list[str]:
    return [lexicon.provinces.find(part) for part in _list(text, "sea")]


def _list(text: str, what: str) -> list[str]:
    parts = [part.strip() for part in text.split(",")]
    if not text.strip() or any(not part for part in parts):
        raise Unreadable("invalid_order", f"name each {what}, separated by commas")
    return parts


T = TypeVar("T")
U = TypeVar("U")


def _cut(
    text: str,
    word: str,
    left: Callable[[str], T],
    right: Callable[[str], U],
    *,
    optional: bool = False,
) -> tuple[T, U | None]:
    """The text read as `LEFT word RIGHT` (or, `optional`, as LEFT alone), each reading the
    names allow: one reading is the answer; none, the first one's refusal; two, ambiguous."""
    words = text.split()
    cuts = [n for n, w in enumerate(words) if fold(w) == word and 0 < n < len(words) - 1]
    readings: list[tuple[T, U | None]] = []
    first: Unreadable | None = None
    for n in cuts:
        try:
            readings.append((left(" ".join(words[:n])), right(" ".join(words[n + 1 :]))))
        except Unreadable as refused:
            first = first or refused
    if optional or not cuts:
        try:
            if not optional:
                raise Unreadable("invalid_order", f'"{text}" needs "{word}" and what follows it')
            readings.append((left(text), None))
        except Unreadable as refused:
            first = refused if first is None or refused.code == AMBIGUOUS else first
    unique: list[tuple[T, U | None]] = []
    for reading in readings:
        if reading not in unique:
            unique.append(reading)
    if len(unique) == 1:
        return unique[0]
    if unique:
        raise Unreadable(AMBIGUOUS, f'"{text}" reads {len(unique)} ways: write the ids in brackets')
    assert first is not None
    raise first


def _standing(clauses: list[str], lexicon: Lexicon) -> dict[str, Any]:
    """The standing battle keys (E2, D5, D6, R3, R4), every one of them as the desk gives it."""
    said: dict[str, Any] = {}

    def put(key: str, value: Any, clause: str) -> None:
        if key in said and said[key] != value:
            raise Unreadable("invalid_order", f'"{clause}" contradicts an earlier clause')
        said[key] = value

    for clause in clauses:
        words = fold(clause).split()
        if words == ["engage"] or words == ["evade"]:
            put("stance", words[0], clause)
        elif words[:2] == ["evade", "to"] and len(words) > 2:
            put("evade_to", _places(_after_words(clause, 2), lexicon), clause)
        elif words[:1] == ["retreat"] and len(words) > 1:
            when, to = _retreat(_after_words(clause, 1), lexicon)
            if when is not None:
                put("retreat", when, clause)
            if to is not None:
                put("retreat_to", to, clause)
        elif words in (["sink"], ["capture"], ["prefer", "sink"], ["prefer", "capture"]):
            put("prefer", words[-1], clause)
        elif words[-2:] in (["cornered", "attack"], ["cornered", "surrender"]) and words[:-1] in (
            ["if", "cornered"],
            ["cornered"],
        ):
            put("if_cornered", words[-1], clause)
        else:
            raise Unreadable(
                "invalid_order",
                f'"{clause}" is not a battle choice: engage, evade, evade to SEAS, retreat '
                "never | below N% | after round N [to SEAS], sink, capture, if cornered attack "
                "| surrender",
            )
    evade_to = said.get("evade_to", [])
    return {
        "stance": said.get("stance", "evade" if evade_to else "engage"),
        "retreat": said.get("retreat", "never"),
        "retreat_to": said.get("retreat_to", []),
        "evade_to": evade_to,
        "prefer": said.get("prefer", "sink"),
        "if_cornered": said.get("if_cornered", "surrender"),
    }


def _retreat(text: str, lexicon: Lexicon) -> tuple[Any, list[str] | None]:
    """D6, R3: `never`, `below 50%` (or 0.5, 1/2), `after round 2`; then `to SEAS`."""
    words = text.split()
    folded = [fold(w) for w in words]
    when: Any = None
    n = 0
    if folded[:1] == ["never"]:
        when, n = "never", 1
    elif folded[:1] == ["below"] and len(words) > 1:
        when, n = {"below": _share(words[1])}, 2
    elif folded[:2] == ["after", "round"] and len(words) > 2:
        when, n = {"after_round": _whole(words[2], "a round")}, 3
    to: list[str] | None = None
    if n < len(words):
        if folded[n] != "to" or n + 1 >= len(words):
            raise Unreadable(
                "invalid_order",
                f'"retreat {text}": write retreat never, below N%, after round N, then to SEAS',
            )
        to = _places(" ".join(words[n + 1 :]), lexicon)
    return when, to


def _share(text: str) -> float:
    """D6: a share of the battle's starting strength, 0 to 1: 50%, 0.5 or 1/2."""
    try:
        if text.endswith("%"):
            value = float(Decimal(text[:-1]) / 100)
        elif "/" in text:
            top, bottom = text.split("/", 1)
            if not (top.isdigit() and bottom.isdigit()) or len(text) > 12:
                raise ValueError(text)
            value = float(Fraction(int(top), int(bottom)))
        else:
            value = float(Decimal(text))
    except (InvalidOperation, ValueError, ZeroDivisionError, OverflowError):
        value = -1.0
    if not 0 < value <= 1:
        raise Unreadable(
            "invalid_order", f'"{text}" is not a share of the strength: write 50%, 0.5 or 1/2'
        )
    return value


def _whole(text: str, what: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 9 or int(text) < 1:
        raise Unreadable("invalid_order", f'"{text}" is not {what}: write a whole number from 1')
    return int(text)


def _hire(text: str, lexicon: Lexicon, faction: str) -> dict[str, Any]:
    """P1, P3: hire COUNT TYPE at PORT [into FLEET]."""
    words = text.split()
    if not words:
        raise Unreadable("invalid_order", "hire COUNT TYPE at PORT: say how many")
    count = _whole(words[0], "a number of ships")
    rest = _after_words(text, 1)
    if fold(rest.split()[0] if rest.split() else "") == "x" or rest.startswith("×"):
        rest = rest.lstrip("×").strip() if rest.startswith("×") else _after_words(rest, 1)
    (ship_type, port), into = _cut(
        rest,
        "into",
        lambda s: _cut(s, "at", lexicon.ship_type, lexicon.ports.find),
        lexicon.fleets.find,
        optional=True,
    )
    order: dict[str, Any] = {
        "type": "hire",
        "faction": faction,
        "port": port,
        "ship_type": ship_type,
        "count": count,
    }
    if into is not None:
        order["fleet"] = into
    return order


def _repair(kind: str, text: str, lexicon: Lexicon) -> dict[str, Any]:
    """P2, U4: repair FLEET [only SHIPS]; pay off FLEET [only SHIPS]."""
    fleet, ships = _cut(text, "only", lexicon.fleets.find, lambda s: s, optional=True)
    order: dict[str, Any] = {"type": kind, "fleet": fleet}
    if ships is not None:
        order["ships"] = lexicon.ships(fleet, ships)
    return order


def _buyout(text: str, lexicon: Lexicon, faction: str) -> dict[str, Any]:
    """U4, X22: buy out ADRIFT with FLEET [offering N a ship]."""
    (adrift, fleet), offer = _cut(
        text,
        "offering",
        lambda s: _cut(s, "with", lexicon.fleets.find, lexicon.fleets.find),
        _offer,
        optional=True,
    )
    order: dict[str, Any] = {
        "type": "buyout",
        "faction": faction,
        "fleet": fleet,
        "adrift_fleet": adrift,
    }
    if offer is not None:
        order["offer"] = offer
    return order


def _offer(text: str) -> int:
    words = text.split()
    if len(words) > 1 and [fold(w) for w in words[1:]] in (["a", "ship"], ["each"]):
        words = words[:1]
    if len(words) != 1:
        raise Unreadable("invalid_order", "write the offer as a whole amount a ship: offering 8")
    return _whole(words[0], "an offer")


def _priority(text: str, lexicon: Lexicon) -> tuple[str, ...]:
    """U2: the fleets paid first, in order; `none` for none."""
    if fold(text) in ("", "none"):
        return ()
    return tuple(lexicon.fleets.find(part) for part in _list(text, "fleet"))


# --- writing -------------------------------------------------------------------------------------


def write_order(order: Mapping[str, Any], lexicon: Lexicon) -> str:
    """One order as a line that `read_line` reads back to the same order: in names where the
    names say it, else in ids, else in `[ids]`."""
    faction = order.get("faction") if order.get("type") in ("hire", "buyout") else None
    line = _write(order, lexicon, exact=False)
    if _reads_as(line, order, lexicon, faction):
        return line
    return _write(order, lexicon, exact=True)


def write_priority(fleets: Iterable[str], lexicon: Lexicon) -> str:
    said = ", ".join(lexicon.fleets.say(f) for f in fleets)
    return f"upkeep priority {said or 'none'}"


def write_orders(
    orders: Iterable[Mapping[str, Any]], lexicon: Lexicon, priority: Iterable[str] | None = None
) -> str:
    """A faction's orders, a line each (then its upkeep priority, if it has one)."""
    lines = [write_order(order, lexicon) for order in orders]
    fleets = list(priority or ())
    if fleets:
        lines.append(write_priority(fleets, lexicon))
    return "\n".join(lines)


def _reads_as(line: str, order: Mapping[str, Any], lexicon: Lexicon, faction: Any) -> bool:
    read = read_line(line, 1, lexicon, faction=faction if isinstance(faction, str) else None)
    return read is not None and read.order is not None and _same(read.order, order)


def _same(read: Mapping[str, Any], order: Mapping[str, Any]) -> bool:
    """The same order, an absent optional key the same as its default."""
    if read.get("type") not in FLEET_ORDER_TYPES:
        return dict(read) == {k: v for k, v in order.items() if v is not None}
    defaults = {**_standing([], _NO_LEXICON), "path": []}
    keys = set(read) | set(order)
    return all(read.get(k, defaults.get(k)) == order.get(k, defaults.get(k)) for k in keys)


_NO_LEXICON: Any = None  # the defaults of _standing never read a name


def _write(order: Mapping[str, Any], lexicon: Lexicon, *, exact: bool) -> str:
    def say(index: _Index, key: Any) -> str:
        text = str(key)
        return f"[{text}]" if exact else index.say(text)

    def sea(key: Any) -> str:
        return say(lexicon.provinces, key)

    def fleet(key: Any) -> str:
        return say(lexicon.fleets, key)

    kind = order.get("type")
    path = [sea(p) for p in order.get("path") or []]
    via = f" via {' -> '.join(path)}" if path else ""
    if kind == "hire":
        into = f" into {fleet(order['fleet'])}" if order.get("fleet") is not None else ""
        what = _lower(say(lexicon.ship_types, order.get("ship_type")))
        return f"hire {order.get('count')} {what} at {say(lexicon.ports, order.get('port'))}{into}"
    if kind in ("repair", "disband"):
        verb = "repair" if kind == "repair" else "pay off"
        ships = order.get("ships")
        only = f" only {', '.join(str(s) for s in ships)}" if ships else ""
        return f"{verb} {fleet(order.get('fleet'))}{only}"
    if kind == "buyout":
        offer = f" offering {order['offer']}" if order.get("offer") is not None else ""
        return f"buy out {fleet(order.get('adrift_fleet'))} with {fleet(order.get('fleet'))}{offer}"
    if kind == "move":
        first = fold(path[0]).split()[:1] if path and not path[0].startswith("[") else []
        what = ("sail " if first and first[0] in _ORDER_WORDS else "") + " -> ".join(path)
    elif kind in ("enter_port", "blockade"):
        verb = "enter" if kind == "enter_port" else "blockade"
        what = f"{verb} {say(lexicon.ports, order.get('port'))}{via}"
    elif kind == "support":
        what = f"support {say(lexicon.factions, order.get('faction'))}"
    elif kind == "merge":
        into = str(order.get("into"))
        what = f"join {fleet(into) if into in lexicon.world.fleets else f'[{into}]'}"
    elif kind == "split":
        ships = ", ".join(str(s) for s in order.get("ships") or [])
        what = f"split {ships} as {order.get('new_fleet')}"
    else:
        what = "hold"
    return f"{fleet(order.get('fleet'))}: {what}{_write_standing(order, sea)}"


def _lower(said: str) -> str:
    """A ship type as a sentence reads it ("2 ship of the line"); an [id] as it is."""
    return said if said.startswith("[") else said.lower()


def _write_standing(order: Mapping[str, Any], sea: Callable[[Any], str]) -> str:
    clauses = []
    stance = order.get("stance", "engage")
    evade_to = [sea(p) for p in order.get("evade_to") or []]
    if evade_to:
        clauses.append(
            ("engage; " if stance == "engage" else "") + "evade to " + ", ".join(evade_to)
        )
    elif stance == "evade":
        clauses.append("evade")
    retreat = order.get("retreat", "never")
    retreat_to = [sea(p) for p in order.get("retreat_to") or []]
    when = _write_when(retreat)
    if when or retreat_to:
        to = f" to {', '.join(retreat_to)}" if retreat_to else ""
        clauses.append(f"retreat{' ' + when if when else ''}{to}")
    if order.get("prefer") == "capture":
        clauses.append("capture")
    if order.get("if_cornered") == "attack":
        clauses.append("if cornered attack")
    return "".join(f"; {c}" for c in clauses)


def _write_when(retreat: Any) -> str:
    if isinstance(retreat, dict) and "below" in retreat:
        share = retreat["below"]
        percent = Decimal(repr(share)) * 100
        return f"below {int(percent)}%" if percent == percent.to_integral() else f"below {share!r}"
    if isinstance(retreat, dict) and "after_round" in retreat:
        return f"after round {retreat['after_round']}"
    return ""


__all__ = [
    "AMBIGUOUS",
    "Lexicon",
    "WrittenLine",
    "fold",
    "read_line",
    "read_orders",
    "ship_type_words",
    "write_order",
    "write_orders",
    "write_priority",
]
