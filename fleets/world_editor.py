"""The world editor's services (issue 11: a campaign made in the browser): a new campaign with
its creator as moderator, every table of the naval world edited row by row, the campaign file's
own checks run on the world, and the first turn opened once it passes.

Every edit is one transaction that says why (the reason goes to the audit log with the old and
new values) and is refused as a whole, nothing written, with a stable code:

- `reason_required`: no reason given;
- `world_frozen`: the current turn is locked, resolved or failed (docs/rulings.md R-50, the same
  rule and words as the admin's);
- `key_taken`: another row of the table has that id;
- `not_here`: a linked row is not this campaign's (the forms offer only this campaign's rows; a
  forged post is refused here too);
- `in_use`: a delete that would take rows with it that are not the moderator's to lose (a
  province with ports or fleets, a faction with players, a ship type with ships …; R-52);
- `reserved`: the pirates (W3) are not listed, edited or deleted as a faction;
- `world_invalid`: once the first turn is open, an edit that leaves the world with a problem it
  did not have (the turn would lock a world the engine refuses, R-51);
- `already_open`: the first turn is open already;
- `drawing_refused`: the map's own drawing cannot be taken (R-76–R-79), each problem listed
  with its own code (`svg_not_xml`, `svg_unknown_province`, `svg_script` …: maps/drawing.py);
- `no_drawing`: there is no drawing to remove.

Writes lock the campaign's current turn as `turn_lock` does (`_lock`), so an edit and a lock,
two edits, or two openings, go one after the other: never an edit of a world that has just been
locked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Model, Q

from campaign import lifecycle
from campaign.models import DOCUMENTS, AuditEntry, Campaign, Membership, Turn
from campaign.transitions import TransitionError
from engine.naval import ScenarioError
from fleets.admin import world_frozen
from fleets.campaign_files import PALETTE, read_campaign_file
from fleets.models import (
    Adjacency,
    Faction,
    Fleet,
    LedgerLine,
    MapDrawing,
    NavalSettings,
    Order,
    Port,
    Province,
    Relation,
    Ship,
    ShipType,
)
from fleets.world_files import TOP_WORDS, Place, campaign_file_document, problem_places
from maps.drawing import DrawingProblem, DrawingRefused, drawing_problems, drawing_read


class WorldRefused(Exception):
    """An edit, a delete or the opening refused: nothing was written."""

    def __init__(self, code: str, message: str, places: list[Place] | None = None) -> None:
        super().__init__(f"{message} ({code})")
        self.code = code
        self.message = message
        self.places = places or []


@dataclass(frozen=True)
class Table:
    """One of the world's tables as the editor edits it."""

    name: str  # in URLs and forms: "province", "ship-type" …
    label: str  # "province", "ship type"
    model: type[Model]
    fields: tuple[str, ...]  # the values a form gives (a new row's `key` among them)
    shown: Callable[[Any], dict[str, str]]  # a row's values as the audit log keeps them
    keyed: bool = True  # identified by a `key` (adjacencies and relations by their pair)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _keys(rows: Any) -> str:
    return ", ".join(sorted(row.key for row in rows))


TABLES: dict[str, Table] = {
    t.name: t
    for t in (
        Table(
            "province",
            "province",
            Province,
            ("key", "name", "kind", "x", "y"),
            lambda p: {
                "key": p.key,
                "name": p.name,
                "kind": p.kind,
                "x": _number(p.x),
                "y": _number(p.y),
            },
        ),
        Table(
            "adjacency",
            "adjacency",
            Adjacency,
            ("a", "b"),
            lambda a: {"a": a.a.key, "b": a.b.key},
            keyed=False,
        ),
        Table(
            "port",
            "port",
            Port,
            ("key", "name", "province", "owner", "waters"),
            lambda p: {
                "key": p.key,
                "name": p.name,
                "province": p.province.key,
                "owner": p.owner.key,
                "waters": _keys(p.waters.all()) if p.pk else "",
            },
        ),
        Table(
            "ship-type",
            "ship type",
            ShipType,
            ("key", "cost", "attack", "health"),
            lambda t: {
                "key": t.key,
                "cost": str(t.cost),
                "attack": str(t.attack),
                "health": str(t.health),
            },
        ),
        Table(
            "faction",
            "faction",
            Faction,
            ("key", "name", "colour", "treasury", "income"),
            lambda f: {
                "key": f.key,
                "name": f.name,
                "colour": f.colour,
                "treasury": str(f.treasury),
                "income": str(f.income),
            },
        ),
        Table(
            "relation",
            "relation",
            Relation,
            ("low", "high", "state"),
            lambda r: {"between": f"{r.low.key} – {r.high.key}", "state": r.state},
            keyed=False,
        ),
        Table(
            "fleet",
            "fleet",
            Fleet,
            ("key", "owner", "province", "port", "blockading", "mp_penalty", "adrift"),
            lambda f: {
                "key": f.key,
                "owner": f.owner.key,
                "at": f"{f.port.key} (docked)" if f.port_id else f.province.key,
                "blockading": f.blockading.key if f.blockading_id else "",
                "mp_penalty": str(f.mp_penalty),
                "adrift": "yes" if f.adrift else "no",
            },
        ),
        Table(
            "ship",
            "ship",
            Ship,
            ("key", "fleet", "type", "owner", "health"),
            lambda s: {
                "key": s.key,
                "fleet": s.fleet.key,
                "type": s.type.key,
                "owner": s.owner.key,
                "health": str(s.health),
            },
        ),
    )
}


# -- reading --------------------------------------------------------------------------------


@dataclass(slots=True)
class Check:
    """The check's outcome: the document it ran on and every problem found."""

    document: dict[str, Any]
    places: list[Place] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.places


def world_check(campaign: Campaign) -> Check:
    """The campaign file's own checks on the world (the import's code path: the document from
    the rows, read by `read_campaign_file`), and what a campaign needs to be played (R-51): a
    faction and a sea province."""
    document = campaign_file_document(campaign)
    # The webhook was checked where it was entered (Campaign.clean) and is checked again at each
    # post; the file's check would look its host up on every page of the editor.
    checked = {**document, "settings": {**document["settings"], "webhook_url": None}}
    problems = []
    try:
        read_campaign_file(checked)
    except ScenarioError as error:
        problems = list(error.problems)
    places = problem_places(problems, document)
    if not document["factions"]:
        places.append(Place("the factions", "a campaign needs at least one faction", "factions"))
    if not any(p.get("kind") == "sea" for p in document["map"]["provinces"]):
        places.append(
            Place("the provinces", "a campaign needs at least one sea province", "map.provinces")
        )
    return Check(document, places)


def started(campaign: Campaign) -> bool:
    """Whether the first turn has been opened (a live turn past its draft)."""
    return (
        Turn.objects.filter(campaign=campaign, archived=False)
        .exclude(status=Turn.Status.DRAFT)
        .exists()
    )


def can_open(campaign: Campaign) -> bool:
    """No turn yet, or only the draft of turn 1 (an imported campaign's)."""
    turns = list(Turn.objects.filter(campaign=campaign, archived=False).defer(*DOCUMENTS))
    return not turns or (len(turns) == 1 and turns[0].status == Turn.Status.DRAFT)


# -- writing --------------------------------------------------------------------------------


def _guard(campaign: Campaign, reason: str) -> None:
    """Inside the edit's transaction: the reason, and the world not frozen (R-50)."""
    if not reason.strip():
        raise WorldRefused("reason_required", "Say why: the reason goes to the audit log.")
    _lock(campaign)
    why = world_frozen({campaign.pk})
    if why:
        raise WorldRefused("world_frozen", why.replace(" (world_frozen)", ""))


def _lock(campaign: Campaign) -> None:
    """Hold the campaign's current turn as `turn_lock` does, with the very statement it locks
    with: the turn's row and, through the join its ordering makes, the campaign's, taken in the
    same order by both (locking the campaign's row first, then the turn's, deadlocked with a
    lock on PostgreSQL: `test_an_edit_and_a_lock_at_once…`). A campaign with no turn yet: its
    own row, which every edit and opening locks too."""
    current = (
        Turn.objects.filter(campaign=campaign, archived=False)
        .order_by("-number")
        .values_list("pk", flat=True)
        .first()
    )
    if current is None:
        Campaign.objects.select_for_update().filter(pk=campaign.pk).values_list("pk").first()
    else:
        Turn.objects.select_for_update().filter(pk=current).values_list("status").first()


def _audit(campaign: Campaign, user: Any, action: str, reason: str, **detail: Any) -> AuditEntry:
    return AuditEntry.objects.create(
        campaign=campaign,
        user=user if getattr(user, "pk", None) else None,
        action=action[:40],
        reason=reason.strip(),
        detail=detail,
    )


def _pirates(campaign: Campaign) -> Faction:
    """The reserved pirate faction (W3), which every campaign has (the import makes it)."""
    pirates, _ = Faction.objects.get_or_create(
        campaign=campaign, key=Faction.PIRATES, defaults={"name": "Pirates", "colour": "#222222"}
    )
    return pirates


def _same_campaign(campaign: Campaign, values: dict[str, Any]) -> None:
    for name, value in values.items():
        linked = value if isinstance(value, list | tuple) else [value]
        for item in linked:
            if isinstance(item, Model) and getattr(item, "campaign_id", campaign.pk) != campaign.pk:
                raise WorldRefused("not_here", f"The {name} chosen is not this campaign's.")


def _problems_added(campaign: Campaign, before: list[Place] | None) -> None:
    """Once the first turn is open: refused if the world now has a problem it did not have."""
    if before is None:
        return
    old = {(p.words, p.message) for p in before}
    new = [p for p in world_check(campaign).places if (p.words, p.message) not in old]
    if new:
        raise WorldRefused(
            "world_invalid",
            "The campaign is under way: an edit may not leave the world with a problem, and "
            "this one would. Nothing was changed.",
            new,
        )


def world_save(
    *,
    campaign: Campaign,
    user: Any,
    table: str,
    row: Model | None,
    values: dict[str, Any],
    reason: str,
) -> Model:
    """Add a row (row None) or change one: the values are the table's fields as a form cleaned
    them (linked rows as rows of this campaign). A row's id is fixed once made (R-52)."""
    spec = TABLES[table]
    try:
        with transaction.atomic():
            _guard(campaign, reason)
            _same_campaign(campaign, values)
            before_world = world_check(campaign).places if started(campaign) else None
            saved, changes = _save(campaign, spec, row, dict(values))
            _problems_added(campaign, before_world)
            verb = "edit" if row is not None else "add"
            _audit(
                campaign,
                user,
                f"world {verb} {spec.label}",
                reason,
                table=table,
                object=row_name(spec, saved),
                changes=changes,
            )
    except IntegrityError as error:  # the same id, added a moment ago by another moderator
        raise WorldRefused(
            "key_taken", f"There is already a {spec.label} with that id in this campaign."
        ) from error
    return saved


def row_name(spec: Table, row: Any) -> str:
    """What the row is called on the page and in the audit log: its id, or its pair."""
    shown = spec.shown(row)
    return shown.get("key") or shown.get("between") or f"{shown.get('a')} – {shown.get('b')}"


def _save(
    campaign: Campaign, spec: Table, row: Any, values: dict[str, Any]
) -> tuple[Model, dict[str, list[str]]]:
    before = spec.shown(row) if row is not None else {}
    if row is None:
        row = spec.model(campaign=campaign)
    elif spec.keyed:
        values.pop("key", None)  # the id stays
    ships = values.pop("ships", 0)
    ship_type = values.pop("ship_type", None)
    waters = values.pop("waters", None)
    if spec.name == "faction" and (values.get("key") or row.key) == Faction.PIRATES:
        raise WorldRefused("reserved", "The pirates (W3) are not a faction to list or edit.")
    if spec.name == "fleet" and values.get("owner_key") == Faction.PIRATES:
        values["owner"] = _pirates(campaign)
    values.pop("owner_key", None)
    if spec.name in ("adjacency", "relation"):
        values = _pair(campaign, spec, row, values)
    if spec.name == "ship":
        values = _ship_values(row, values)
    for name, value in values.items():
        setattr(row, name, value)
    if hasattr(row, "name") and not row.name:
        row.name = row.key  # as the import names a row given no name
    if (
        row.pk is None
        and spec.keyed
        and spec.model._default_manager.filter(campaign=campaign, key=row.key).exists()
    ):
        raise WorldRefused(
            "key_taken", f"There is already a {spec.label} called {row.key} in this campaign."
        )
    with transaction.atomic():  # a taken key: this savepoint, then the refusal
        row.save()
    if waters is not None:
        row.waters.set(waters)
    if spec.name == "fleet" and ships:
        _ships_add(campaign, row, ships, ship_type)
    after = spec.shown(row)
    changes = {k: [before.get(k, ""), v] for k, v in after.items() if before.get(k, "") != v}
    return row, changes


def _pair(campaign: Campaign, spec: Table, row: Any, values: dict[str, Any]) -> dict[str, Any]:
    """An adjacency (W1) or a relation (W3) is stored once, its two ends ordered by key."""
    ends = ("a", "b") if spec.name == "adjacency" else ("low", "high")
    first, second = (
        values[end] if end in values else (getattr(row, end) if row.pk else None) for end in ends
    )
    if first is None or second is None:
        raise WorldRefused("invalid", f"A {spec.label} is between two.")
    if first.pk == second.pk:
        what = (
            "province is not adjacent to itself"
            if spec.name == "adjacency"
            else ("faction has no relation with itself")
        )
        raise WorldRefused("same_twice", f"A {what}.")
    if spec.name == "relation" and Faction.PIRATES in (first.key, second.key):
        raise WorldRefused("reserved", "The pirates are at war with everyone (W3): no relation.")
    low, high = sorted((first, second), key=lambda r: r.key)
    taken = spec.model._default_manager.filter(campaign=campaign, **{ends[0]: low, ends[1]: high})
    if row.pk is not None:
        taken = taken.exclude(pk=row.pk)
    if taken.exists():
        raise WorldRefused(
            "key_taken", f"There is already a {spec.label} between {low.key} and {high.key}."
        )
    return {**values, ends[0]: low, ends[1]: high}


def _ship_values(row: Any, values: dict[str, Any]) -> dict[str, Any]:
    """A ship's owner defaults to its fleet's, its health to its type's maximum; a new ship, or
    one moved to another fleet, goes last in its fleet."""
    fleet = values.get("fleet") or row.fleet
    if values.get("owner") is None:
        values["owner"] = fleet.owner
    kind = values.get("type") or row.type
    if values.get("health") is None:
        values["health"] = kind.health
    if row.pk is None or row.fleet_id != fleet.pk:
        last = Ship.objects.filter(fleet=fleet).order_by("-position").first()
        values["position"] = last.position + 1 if last else 0
    return values


def _ships_add(campaign: Campaign, fleet: Fleet, count: int, kind: ShipType | None) -> None:
    """A new fleet's first ships, of one type at full health, named after the fleet."""
    if kind is None:
        raise WorldRefused("invalid", "Choose the type of the fleet's ships.")
    taken = set(Ship.objects.filter(campaign=campaign).values_list("key", flat=True))
    n = 0
    for position in range(count):
        n += 1
        while f"{fleet.key}-{n}" in taken:
            n += 1
        Ship.objects.create(
            campaign=campaign,
            key=f"{fleet.key}-{n}",
            fleet=fleet,
            owner=fleet.owner,
            type=kind,
            health=kind.health,
            position=position,
        )


def world_delete(*, campaign: Campaign, user: Any, table: str, row: Any, reason: str) -> None:
    """Delete a row, and the rows that go with it (a province's adjacencies, a faction's
    relations, a fleet's ships), each named in the audit entry; refused `in_use` when it would
    take more (R-52)."""
    spec = TABLES[table]
    with transaction.atomic():
        _guard(campaign, reason)
        before_world = world_check(campaign).places if started(campaign) else None
        shown = spec.shown(row)
        with_it = _deletable(campaign, spec, row)
        row.delete()
        _problems_added(campaign, before_world)
        _audit(
            campaign,
            user,
            f"world delete {spec.label}",
            reason,
            table=table,
            object=row_name(spec, row),
            values=shown,
            deleted_with=with_it,
        )


def _deletable(campaign: Campaign, spec: Table, row: Any) -> list[str]:
    """What goes with the row; WorldRefused(in_use) if something that must not does."""
    blockers: list[str] = []
    with_it: list[str] = []

    def block(rows: Any, what: str) -> None:
        keys = sorted({str(getattr(r, "key", None) or r.user.get_username()) for r in rows})
        if keys:
            blockers.append(f"{what}: {', '.join(keys)}")

    if spec.name == "province":
        block(Fleet.objects.filter(province=row), "fleets at sea there")
        block(Port.objects.filter(province=row), "ports in it")
        block(Port.objects.filter(waters=row), "ports with it among their waters")
        with_it = [
            f"adjacency {a} – {b}"
            for a, b in Adjacency.objects.filter(Q(a=row) | Q(b=row)).values_list(
                "a__key", "b__key"
            )
        ]
    elif spec.name == "port":
        block(Fleet.objects.filter(port=row), "fleets docked there")
        block(Fleet.objects.filter(blockading=row), "fleets blockading it")
    elif spec.name == "ship-type":
        block(Ship.objects.filter(type=row), "ships of this type")
    elif spec.name == "faction":
        if row.is_pirates:
            raise WorldRefused("reserved", "The pirates (W3) are every campaign's: not deleted.")
        block(Membership.objects.filter(faction=row).select_related("user"), "players")
        block(Port.objects.filter(owner=row), "its ports")
        block(Fleet.objects.filter(owner=row), "its fleets")
        block(Ship.objects.filter(owner=row), "its ships")
        if (
            Order.objects.filter(faction=row).exists()
            or LedgerLine.objects.filter(faction=row).exists()
        ):
            blockers.append("its orders and treasury lines of turns played")
        with_it = [
            f"relation {r.low.key} – {r.high.key}"
            for r in Relation.objects.filter(Q(low=row) | Q(high=row)).select_related("low", "high")
        ]
    elif spec.name == "fleet":
        with_it = [f"ship {key}" for key in row.ships.values_list("key", flat=True)]
        for faction in Faction.objects.filter(campaign=campaign):
            if row.key in faction.upkeep_priority:
                faction.upkeep_priority = [k for k in faction.upkeep_priority if k != row.key]
                faction.save(update_fields=["upkeep_priority"])
                with_it.append(f"{faction.key}'s upkeep priority entry")
    if blockers:
        raise WorldRefused(
            "in_use",
            f"The {spec.label} {row_name(spec, row)} is in use: {'; '.join(blockers)}. "
            "Change or delete those first.",
        )
    return with_it


def first_turn_open(*, campaign: Campaign, user: Any, reason: str = "") -> Turn:
    """Open turn 1 through the lifecycle (`turn_open`: its deadline, its audited transition),
    once the world passes the check; the draft turn is made if the campaign has none."""
    with transaction.atomic():
        _lock(campaign)
        if not can_open(campaign):
            raise WorldRefused("already_open", "The first turn has been opened already.")
        check = world_check(campaign)
        if not check.ok:
            raise WorldRefused(
                "world_invalid", "The world has problems: fix them, then open.", check.places
            )
        _pirates(campaign)
        turn = Turn.objects.filter(campaign=campaign, archived=False).first()
        if turn is None:
            turn = Turn.objects.create(campaign=campaign, number=1)
        try:
            turn = lifecycle.turn_open(turn, user=user)
        except TransitionError as error:  # opened by another moderator a moment ago
            raise WorldRefused("already_open", str(error)) from error
        if reason.strip():
            AuditEntry.objects.filter(turn=turn, action="open").update(reason=reason.strip())
    return turn


def campaign_create(
    *, user: Any, name: str, slug: str, description: str = "", **settings: Any
) -> Campaign:
    """A new, empty naval campaign: its creator its moderator, the reserved pirates (W3).
    `settings`: the platform's campaign fields, and fog of war (the naval settings' row)."""
    platform = {key: value for key, value in settings.items() if key != "fog_of_war"}
    with transaction.atomic():
        try:
            with transaction.atomic():
                campaign = Campaign.objects.create(
                    name=name, slug=slug, description=description, **platform
                )
        except IntegrityError as error:
            raise WorldRefused(
                "slug_taken", "That address (slug) is another campaign's."
            ) from error
        if "fog_of_war" in settings:
            naval = NavalSettings.objects.get(campaign=campaign)
            naval.fog_of_war = settings["fog_of_war"]
            naval.save(update_fields=["fog_of_war"])
        Membership.objects.create(user=user, campaign=campaign, role=Membership.Role.MODERATOR)
        _pirates(campaign)
        _audit(campaign, user, "create campaign", "", slug=slug, settings=settings)
    return campaign


def map_drawing_set(*, campaign: Campaign, user: Any, text: str, reason: str) -> MapDrawing:
    """The campaign's own drawing of its map, added or replaced by `text` once read, made safe
    and checked against the world as it stands (R-76–R-79): refused `drawing_refused` with
    every problem, and then nothing changes (the old drawing, if any, stays)."""
    with transaction.atomic():
        _guard(campaign, reason)
        try:
            drawing = drawing_read(text)
        except DrawingRefused as refused:
            raise _drawing_refused(refused.problems) from None
        provinces = list(Province.objects.filter(campaign=campaign).values_list("key", flat=True))
        problems = drawing_problems(drawing, provinces)
        if problems:
            raise _drawing_refused(problems)
        row, made = MapDrawing.objects.update_or_create(campaign=campaign, defaults={"svg": text})
        _audit(
            campaign,
            user,
            "world drawing add" if made else "world drawing replace",
            reason,
            shapes=len(drawing.shapes),
            size=len(text.encode("utf-8")),
        )
    return row


def map_drawing_remove(*, campaign: Campaign, user: Any, reason: str) -> None:
    """The campaign's own drawing removed: the map is drawn from the positions again."""
    with transaction.atomic():
        _guard(campaign, reason)
        deleted, _ = MapDrawing.objects.filter(campaign=campaign).delete()
        if not deleted:
            raise WorldRefused("no_drawing", "The campaign has no drawing of its own to remove.")
        _audit(campaign, user, "world drawing remove", reason)


def _drawing_refused(problems: list[DrawingProblem]) -> WorldRefused:
    words = TOP_WORDS["map_svg"]
    return WorldRefused(
        "drawing_refused",
        f"The drawing was not taken ({len(problems)} problem{'s' if len(problems) > 1 else ''});"
        " nothing was changed.",
        [Place(words, f"{p.message} ({p.code})", "map_svg") for p in problems],
    )


def palette_colour(campaign: Campaign) -> str:
    """A colour for a new faction: the palette's next, as the import gives them."""
    count = Faction.objects.filter(campaign=campaign).exclude(key=Faction.PIRATES).count()
    return PALETTE[count % len(PALETTE)]
