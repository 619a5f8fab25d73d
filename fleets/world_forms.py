"""The world editor's forms: one per table, for a row to add or change. They check shape — an id
as campaign files have them, names that can be shown, numbers the database stores, links chosen
among this campaign's rows (by id: a posted id of another campaign's row is not a choice) — and
give the services rows, not ids. The rules are the check's (`world_check`, the engine's reader).
Every refusal's message ends with its code."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Model

from campaign.languages import language_field
from campaign.models import Campaign
from fleets.campaign_files import (
    CAMPAIGN_NAME_LENGTH,
    ID_LENGTH,
    ID_PATTERN,
    ID_RULE,
    LARGEST,
    MAX_HOURS,
    NAME_LENGTH,
    UNSHOWABLE,
)
from fleets.models import Faction, Fleet, Port, Province, Relation, ShipType
from maps.drawing import MAX_BYTES

MAX_FIRST_SHIPS = 20  # W5's default fleet limit: a new fleet's first ships at most


def _id(value: str) -> None:
    if not ID_PATTERN.fullmatch(value):
        raise forms.ValidationError(f"An id is {ID_RULE} (bad_id).", code="bad_id")


def _showable(value: str) -> None:
    if "\x00" in value or UNSHOWABLE.search(value):
        raise forms.ValidationError(
            "A name holds no control characters or line breaks (bad_name).", code="bad_name"
        )


class RowChoiceField(forms.ChoiceField):
    """A choice among this campaign's rows, by id; cleaned to the row (None when left empty)."""

    def __init__(self, rows: dict[str, Any], *, blank: str | None = None, **kwargs: Any) -> None:
        choices = [(key, _label(row)) for key, row in rows.items()]
        if blank is not None:
            choices.insert(0, ("", blank))
        kwargs.setdefault("required", blank is None)
        kwargs.setdefault("error_messages", {"invalid_choice": NOT_A_CHOICE})
        super().__init__(choices=choices, **kwargs)
        self.rows = rows

    def clean(self, value: Any) -> Any:
        key = super().clean(value)
        return self.rows.get(key) if key else None


class RowsChoiceField(forms.MultipleChoiceField):
    def __init__(self, rows: dict[str, Any], **kwargs: Any) -> None:
        kwargs.setdefault("error_messages", {"invalid_choice": NOT_A_CHOICE})
        super().__init__(choices=[(k, _label(r)) for k, r in rows.items()], **kwargs)
        self.rows = rows

    def clean(self, value: Any) -> Any:
        return [self.rows[key] for key in super().clean(value)]


NOT_A_CHOICE = "%(value)s is not one of this campaign's (not_here)."


def _label(row: Model) -> str:
    name = getattr(row, "name", "")
    key = getattr(row, "key", str(row))
    return f"{name} ({key})" if name and name != key else str(key)


def _rows(model: type[Model], campaign: Campaign, **filters: Any) -> dict[str, Any]:
    return {
        str(getattr(row, "key", "")): row
        for row in model._default_manager.filter(campaign=campaign, **filters).order_by("key")
    }


REASON_HELP = "Why? Kept in the audit log."


class WorldRowForm(forms.Form):
    """A row of one table: `key` only for a new row (an id is fixed once made, R-52)."""

    reason = forms.CharField(
        max_length=500,
        help_text=REASON_HELP,
        error_messages={"required": "Say why: the reason goes to the audit log (reason_required)."},
    )

    def __init__(
        self, *args: Any, campaign: Campaign, row: Model | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.campaign, self.row = campaign, row
        self.add_fields()
        if row is not None:
            self.fields.pop("key", None)
            self.initial.update(self.initial_of(row))
        self.order_fields([*(f for f in self.fields if f != "reason"), "reason"])

    def add_fields(self) -> None:
        pass

    def initial_of(self, row: Any) -> dict[str, Any]:
        return {name: getattr(row, name) for name in self.fields if hasattr(row, name)}

    def values(self) -> dict[str, Any]:
        """The cleaned values the service takes (without the reason)."""
        return {k: v for k, v in self.cleaned_data.items() if k != "reason"}


def key_field() -> forms.CharField:
    return forms.CharField(
        max_length=ID_LENGTH,
        validators=[_id],
        label="Id",
        help_text="Letters, digits, _ . - (as in campaign files); fixed once made.",
    )


def name_field(required: bool = False) -> forms.CharField:
    return forms.CharField(
        max_length=NAME_LENGTH,
        required=required,
        validators=[_showable],
        help_text="" if required else "Shown to players; the id when left empty.",
    )


def count(low: int = 0, high: int = LARGEST, **kwargs: Any) -> forms.IntegerField:
    return forms.IntegerField(min_value=low, max_value=high, **kwargs)


class ProvinceForm(WorldRowForm):
    def add_fields(self) -> None:
        self.fields["key"] = key_field()
        self.fields["name"] = name_field()
        self.fields["kind"] = forms.ChoiceField(choices=Province.Kind.choices)
        help_text = "Its centre on the 1000 × 1000 drawing of the map."
        self.fields["x"] = forms.FloatField(min_value=0, max_value=1000, help_text=help_text)
        self.fields["y"] = forms.FloatField(min_value=0, max_value=1000)


class AdjacencyForm(WorldRowForm):
    def add_fields(self) -> None:
        provinces = _rows(Province, self.campaign)
        self.fields["a"] = RowChoiceField(provinces, label="Province")
        self.fields["b"] = RowChoiceField(provinces, label="Next to")

    def initial_of(self, row: Any) -> dict[str, Any]:
        return {"a": row.a.key, "b": row.b.key}


class PortForm(WorldRowForm):
    def add_fields(self) -> None:
        self.fields["key"] = key_field()
        self.fields["name"] = name_field()
        self.fields["province"] = RowChoiceField(
            _rows(Province, self.campaign, kind=Province.Kind.LAND), label="In (land)"
        )
        self.fields["owner"] = RowChoiceField(_factions(self.campaign))
        self.fields["waters"] = RowsChoiceField(
            _rows(Province, self.campaign, kind=Province.Kind.SEA),
            widget=forms.CheckboxSelectMultiple,
            help_text="The sea provinces next to it that it opens onto (W2).",
        )

    def initial_of(self, row: Any) -> dict[str, Any]:
        return {
            "name": row.name,
            "province": row.province.key,
            "owner": row.owner.key,
            "waters": [w.key for w in row.waters.all()],
        }


def _factions(campaign: Campaign, *, pirates: bool = False) -> dict[str, Any]:
    rows = _rows(Faction, campaign)
    if not pirates:
        rows.pop(Faction.PIRATES, None)
    return rows


class ShipTypeForm(WorldRowForm):
    def add_fields(self) -> None:
        self.fields["key"] = key_field()
        self.fields["cost"] = count(help_text="Ducats to hire one (P1).")
        self.fields["attack"] = count()
        self.fields["health"] = count(1, help_text="Its health when new or repaired (W4).")


class FactionForm(WorldRowForm):
    def add_fields(self) -> None:
        self.fields["key"] = key_field()
        self.fields["name"] = name_field()
        self.fields["colour"] = forms.RegexField(
            regex=r"^#[0-9a-fA-F]{6}$",
            widget=forms.TextInput(attrs={"type": "color"}),
            error_messages={"invalid": 'A colour like "#c8102e" (bad_colour).'},
        )
        self.fields["treasury"] = count(initial=0, help_text="Ducats now.")
        self.fields["income"] = count(initial=0, help_text="Ducats a turn (X19).")

    def clean_key(self) -> str:
        key = str(self.cleaned_data["key"])
        if key == Faction.PIRATES:
            raise forms.ValidationError(
                "pirates is the reserved pirate faction (W3), every campaign's (reserved).",
                code="reserved",
            )
        return key


class RelationForm(WorldRowForm):
    def add_fields(self) -> None:
        factions = _factions(self.campaign)
        self.fields["low"] = RowChoiceField(factions, label="Faction")
        self.fields["high"] = RowChoiceField(factions, label="and faction")
        self.fields["state"] = forms.ChoiceField(choices=Relation.State.choices)

    def initial_of(self, row: Any) -> dict[str, Any]:
        return {"low": row.low.key, "high": row.high.key, "state": row.state}


class FleetForm(WorldRowForm):
    """Where a fleet is: a sea province, or docked in a port (one choice, W5)."""

    def add_fields(self) -> None:
        self.fields["key"] = key_field()
        owners = _factions(self.campaign)
        owners[Faction.PIRATES] = Faction(key=Faction.PIRATES, name="Pirates")
        self.fields["owner"] = RowChoiceField(owners)
        seas = _rows(Province, self.campaign, kind=Province.Kind.SEA)
        self.ports = _rows(Port, self.campaign)
        places = {f"sea:{k}": v for k, v in seas.items()}
        places.update({f"port:{k}": v for k, v in self.ports.items()})
        at = RowChoiceField(places, label="At (a sea, or docked in a port)")
        at.choices = [
            ("At sea", [(f"sea:{k}", _label(v)) for k, v in seas.items()]),
            ("Docked in", [(f"port:{k}", _label(v)) for k, v in self.ports.items()]),
        ]
        self.fields["at"] = at
        self.fields["blockading"] = RowChoiceField(self.ports, blank="—", label="Blockading")
        self.fields["mp_penalty"] = count(
            0, 10_000, initial=0, label="Movement penalty", help_text="S3"
        )
        self.fields["adrift"] = forms.BooleanField(required=False, help_text="Pirates only (U4).")
        if self.row is None:
            self.fields["ships"] = count(
                0,
                MAX_FIRST_SHIPS,
                initial=1,
                label="Ships",
                help_text="Its first ships, named after the fleet, at full health.",
            )
            self.fields["ship_type"] = RowChoiceField(
                _rows(ShipType, self.campaign), blank="—", label="of type"
            )

    def initial_of(self, row: Any) -> dict[str, Any]:
        return {
            "owner": row.owner.key,
            "at": f"port:{row.port.key}" if row.port_id else f"sea:{row.province.key}",
            "blockading": row.blockading.key if row.blockading_id else "",
            "mp_penalty": row.mp_penalty,
            "adrift": row.adrift,
        }

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("ships") and cleaned.get("ship_type") is None:
            self.add_error("ship_type", "Choose the ships' type (invalid).")
        return cleaned

    def values(self) -> dict[str, Any]:
        values = super().values()
        at = values.pop("at")
        docked = isinstance(at, Port)
        values["port"], values["province"] = (at, None) if docked else (None, at)
        owner = values["owner"]
        if owner.pk is None:  # the pirates, made when first named (W3)
            values["owner_key"] = Faction.PIRATES
            values.pop("owner")
        return values


class ShipForm(WorldRowForm):
    def add_fields(self) -> None:
        self.fields["key"] = key_field()
        self.fields["fleet"] = RowChoiceField(_rows(Fleet, self.campaign))
        self.fields["type"] = RowChoiceField(_rows(ShipType, self.campaign))
        self.fields["owner"] = RowChoiceField(
            _factions(self.campaign, pirates=True),
            blank="the fleet's owner",
            help_text="Another owner's ship sails in an ally's fleet (W7).",
        )
        self.fields["health"] = count(
            1, required=False, help_text="Left empty: the type's maximum."
        )

    def initial_of(self, row: Any) -> dict[str, Any]:
        return {
            "fleet": row.fleet.key,
            "type": row.type.key,
            "owner": row.owner.key,
            "health": row.health,
        }


FORMS: dict[str, type[WorldRowForm]] = {
    "province": ProvinceForm,
    "adjacency": AdjacencyForm,
    "port": PortForm,
    "ship-type": ShipTypeForm,
    "faction": FactionForm,
    "relation": RelationForm,
    "fleet": FleetForm,
    "ship": ShipForm,
}


class DeleteForm(forms.Form):
    reason = WorldRowForm.base_fields["reason"]


class DrawingForm(forms.Form):
    """The map's own drawing, an SVG file (R-76): its size and its text checked here, the rest
    by the service (maps/drawing.py). `text` is the file's text once cleaned."""

    svg = forms.FileField(
        label="SVG file",
        help_text="One shape (path, polygon, rect, circle, ellipse or g) per province, its id "
        "the province's id; at most 2 MB.",
        error_messages={
            "required": "Choose the SVG file to upload (svg_missing).",
            "empty": "The file is empty (svg_missing).",
        },
    )
    reason = WorldRowForm.base_fields["reason"]

    def clean_svg(self) -> Any:
        upload = self.cleaned_data["svg"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                f"The file is {upload.size:,} bytes; at most {MAX_BYTES:,} (2 MB) is taken "
                "(svg_too_large)."
            )
        try:
            self.text = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            raise forms.ValidationError(
                "The file is not SVG text (not UTF-8): save it as plain SVG (svg_not_text)."
            ) from None
        return upload


class OpenForm(forms.Form):
    reason = forms.CharField(max_length=500, required=False)


class NewCampaignForm(forms.Form):
    """A new naval campaign, empty: its world is built on the world editor."""

    name = forms.CharField(max_length=CAMPAIGN_NAME_LENGTH, validators=[_showable])
    slug = forms.SlugField(
        max_length=80,
        help_text="Its address: /c/<slug>/. Lower-case letters, digits and hyphens.",
        error_messages={"invalid": "Letters, digits and hyphens (bad_slug)."},
    )
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
    turn_hours = count(0, MAX_HOURS, initial=72, help_text="A new turn's deadline, in hours.")
    fog_of_war = forms.BooleanField(required=False, initial=True)
    # The campaign's language (issue 22; Campaign.language): stored and shown for now.
    language = language_field(
        "The campaign's language",
        "Its turn reports, bulletin and forum posts will be written in it.",
        blank_is_english=True,
    )

    def clean_slug(self) -> str:
        slug = str(self.cleaned_data["slug"])
        if not slug[:1].isalnum() or slug != slug.lower() or "_" in slug:
            raise forms.ValidationError("Lower-case letters, digits and hyphens (bad_slug).")
        return slug
