"""The order form of one fleet, built from what the engine says it can do (`legal_orders`).

Forms check shape; the engine checks the rules (the service calls `validate_order`), and its
refusal, with its code and plain words, is shown beside the field it concerns.
"""

from __future__ import annotations

import html
from typing import Any, ClassVar

from django import forms
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe

from engine.naval import LegalOrders, Refusal

RETREATS = [
    ("never", "never"),
    ("below:0.75", "when below 3/4 of our strength"),
    ("below:0.5", "when below half of our strength"),
    ("below:0.25", "when below 1/4 of our strength"),
    ("after:1", "after the first round"),
    ("after:2", "after the second round"),
    ("after:3", "after the third round"),
]
# Which field a refusal is shown beside (the others are shown above the form).
FIELD_OF = {
    "not_adjacent": "destination",
    "unknown_province": "destination",
    "not_sea": "destination",
    "no_movement_points": "destination",
    "unknown_port": "port",
    "not_hostile": "port",
    "not_friendly_port": "port",
    "port_blockaded": "port",
    "not_in_waters": "port",
    "fleet_limit": "merge_into",
    "not_in_range": "merge_into",
}


class FastSelect(forms.Select):
    """The same HTML as Django's select, written directly: Django renders a template for every
    option, which was a fifth of the desk's time (a card's form has about 300 options; the
    profile in docs/benchmarks.md)."""

    # The options already written (`Options`), when the form sets them with the choices.
    written: Options | None = None

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        if self.written is not None:
            own = self.build_attrs(self.attrs, attrs)
            options = self.written.html(set(self.format_value(value)))
            return mark_safe(  # every part escaped
                f'<select name="{escape(name)}"{_attrs(own)}>{options}</select>'
            )
        choices = list(self.choices)
        if self.allow_multiple_selected or any(isinstance(c[1], (list, tuple)) for c in choices):
            return self._render_grouped(name, value, attrs)  # not used by the desk's forms
        # As ChoiceWidget.optgroups picks them, without a dict per option (issue 11): the
        # first option whose value is one of the values given is selected.
        wanted = set(self.format_value(value))
        parts = []
        chosen = False
        for option_value, label in choices:
            text = "" if option_value is None else str(option_value)
            selected = not chosen and text in wanted
            chosen = chosen or selected
            parts.append(
                f'<option value="{html.escape(text)}"{" selected" if selected else ""}>'
                f"{html.escape(str(label))}</option>"  # what django's escape does, unwrapped
            )
        own = self.build_attrs(self.attrs, attrs)
        return mark_safe(  # every part escaped
            f'<select name="{escape(name)}"{_attrs(own)}>{"".join(parts)}</select>'
        )

    def _render_grouped(self, name: str, value: Any, attrs: dict[str, Any] | None) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        options = "".join(
            f'<option value="{escape(option["value"])}"{_attrs(option["attrs"])}>'
            f"{escape(option['label'])}</option>"
            for _, group, _ in widget["optgroups"]
            for option in group
        )
        return mark_safe(  # every part escaped
            f'<select name="{escape(widget["name"])}"{_attrs(widget["attrs"])}>{options}</select>'
        )


class Options:
    """A select's options written once (issue 20): the desk's cards are forms of some 300
    options each, the same for a fleet until the world changes, and under load nearly every desk
    is its faction's first in the worker. Each option is written as `FastSelect` writes it; the
    one selected is the first whose value is one of the values given (ChoiceWidget.optgroups).
    Only for (str, str) pairs, as `_set_choices` takes them."""

    __slots__ = ("choices", "heads", "index", "parts")

    def __init__(self, choices: list[tuple[str, str]]) -> None:
        self.choices = choices
        self.heads = [f'<option value="{html.escape(value)}"' for value, _ in choices]
        self.parts = [
            f"{head}>{html.escape(label)}</option>"
            for head, (_, label) in zip(self.heads, choices, strict=True)
        ]
        self.index: dict[str, int] = {}
        for n, (value, _) in enumerate(choices):
            self.index.setdefault(value, n)  # the first of equal values

    def html(self, wanted: set[str]) -> str:
        """The options, the first whose value is wanted selected."""
        found = [self.index[v] for v in wanted if v in self.index]
        if not found:
            return "".join(self.parts)
        n = min(found)
        parts, head = self.parts, self.heads[n]
        chosen = f"{head} selected{parts[n][len(head) :]}"
        return f"{''.join(parts[:n])}{chosen}{''.join(parts[n + 1 :])}"


class FastCheckboxes(forms.CheckboxSelectMultiple):
    """Django's checkbox list, written directly: byte for byte what its templates
    (multiple_input.html, input_option.html, input.html: each included one's last newline
    kept, the whole stripped) write, without a template per ship
    (issue 11: the split's checkboxes were a quarter of the desk's time on the load bench)."""

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        if any(group for group, _, _ in widget["optgroups"]):  # not used by the desk's forms
            return super().render(name, value, attrs, renderer)
        box = widget["attrs"]
        out = ["<div"]
        if box.get("id"):
            out.append(f' id="{conditional_escape(box["id"])}"')
        if box.get("class"):
            out.append(f' class="{conditional_escape(box["class"])}"')
        out.append(">")
        for _, group, _ in widget["optgroups"]:
            for option in group:
                own = option["attrs"]
                label = f' for="{conditional_escape(own["id"])}"' if own.get("id") else ""
                out.append(
                    f"<div>\n    <label{label}>{_input(option)}\n "
                    f"{conditional_escape(option['label'])}</label>\n\n</div>"
                )
        out.append("\n</div>")
        return mark_safe("".join(out))  # every part escaped


class FastTextInput(forms.TextInput):
    """Django's text input, written directly: byte for byte its input.html."""

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        return mark_safe(_input(self.get_context(name, value, attrs)["widget"]))


def _input(widget: dict[str, Any]) -> str:
    """As django/forms/widgets/input.html writes an input (its value through `stringformat`)."""
    value = "" if widget["value"] is None else f' value="{escape(str(widget["value"]))}"'
    return (
        f'<input type="{conditional_escape(widget["type"])}" '
        f'name="{conditional_escape(widget["name"])}"{value}{_attrs(widget["attrs"])}>'
    )


def _set_choices(field: Any, choices: list[tuple[str, str]] | Options) -> None:
    """A choice field's choices, set as ChoiceField.choices sets them but without
    `normalize_choices`, which rebuilds every pair (with an enum check on each): a tenth of the
    desk's time for its 300 options a card (issue 11). Only for a list of (str, str) pairs,
    which it would give back the same; given as `Options`, a select writes them as written."""
    if isinstance(choices, Options):
        field.widget.written = choices
        choices = choices.choices
    # The widget's own setter normalizes them again (Django 5's ChoiceWidget.choices): past it.
    field._choices = field.widget._choices = choices


def _attrs(attrs: dict[str, Any]) -> str:
    """As django/forms/widgets/attrs.html writes them: in order, True bare, False left out."""
    return "".join(
        f" {escape(key)}" if value is True else f' {escape(key)}="{escape(value)}"'
        for key, value in attrs.items()
        if value is not False
    )


# A card's choices, field by field (OrderForm.choices_for): a select's as Options.
CardChoices = dict[str, "list[tuple[str, str]] | Options"]


class OrderForm(forms.Form):
    type = forms.ChoiceField(widget=FastSelect, label="Order")
    destination = forms.ChoiceField(widget=FastSelect, label="Sail to", required=False)
    via = forms.ChoiceField(
        widget=FastSelect,
        label="By way of (optional: another route than the shortest)",
        required=False,
    )
    # M2: the whole route as the map's clicks built it ("kattegat,skagerrak"), sent with
    # `destination` as its last step; empty from the form, where `via` chooses a first step.
    path = forms.CharField(required=False, max_length=2000, widget=forms.HiddenInput)
    # Two fields, as the two orders offer different ports: entering one's own or an ally's
    # (M3), blockading a hostile one (B1, M4).
    port = forms.ChoiceField(widget=FastSelect, label="Port to enter", required=False)
    blockade_port = forms.ChoiceField(widget=FastSelect, label="Port to blockade", required=False)
    support = forms.ChoiceField(widget=FastSelect, label="Support", required=False)
    merge_into = forms.ChoiceField(widget=FastSelect, label="Join fleet", required=False)
    split_ships = forms.MultipleChoiceField(
        label="Ships to split off", required=False, widget=FastCheckboxes
    )
    new_fleet = forms.SlugField(
        label="New fleet's name", required=False, max_length=60, widget=FastTextInput
    )
    stance = forms.ChoiceField(
        widget=FastSelect,
        label="On meeting an enemy",
        choices=[("engage", "engage"), ("evade", "evade if we can")],
    )
    retreat = forms.ChoiceField(widget=FastSelect, label="Ask to retreat", choices=RETREATS)
    retreat_to = forms.ChoiceField(
        widget=FastSelect, label="Retreat towards, if free (R3)", required=False
    )
    evade_to = forms.ChoiceField(
        widget=FastSelect, label="Evade towards, if free (E2)", required=False
    )
    prefer = forms.ChoiceField(
        widget=FastSelect,
        label="Enemy ships",
        choices=[("sink", "sink them"), ("capture", "capture (round 3 on)")],
    )
    if_cornered = forms.ChoiceField(
        widget=FastSelect,
        label="If cornered",
        choices=[("surrender", "surrender"), ("attack", "attack through")],
    )

    def __init__(
        self,
        *args: Any,
        fleet: str,
        legal: LegalOrders,
        ships: list[dict[str, Any]],
        names: dict[str, str],
        choices: CardChoices | None = None,
        **kwargs: Any,
    ) -> None:
        """`choices`: what `choices_for` makes of the same legal orders, ships and names (the
        desk keeps it with the world's version); made here if not given."""
        super().__init__(*args, prefix=fleet, **kwargs)
        self.fleet = fleet
        given = choices if choices is not None else self.choices_for(legal, ships, names)
        for field, options in given.items():
            _set_choices(self.fields[field], options)
        self.legal = legal

    @classmethod
    def choices_for(
        cls, legal: LegalOrders, ships: list[dict[str, Any]], names: dict[str, str]
    ) -> CardChoices:
        """Each select's options and the split's ships, from what the engine says the fleet
        can do (`legal_orders`) and the display names."""
        name = names.get
        kinds = [("hold", "hold")]
        if legal.moves:
            kinds.append(("move", "sail"))
        if legal.enter_port:
            kinds.append(("enter_port", "enter a port"))
        if legal.blockade:
            kinds.append(("blockade", "blockade a port"))
        if legal.support:
            kinds.append(("support", "support a battle next door"))
        if legal.merge_into:
            kinds.append(("merge", "join another fleet"))
        if legal.can_split:
            kinds.append(("split", "split off ships"))
        choose: dict[str, list[tuple[str, str]]] = {}
        choose["type"] = kinds
        choose["destination"] = [("", "—")] + [
            (place, _route(place, path, name))
            for place, path in sorted(legal.moves.items(), key=lambda kv: (len(kv[1]), kv[0]))
        ]
        choose["port"] = _port_choices(legal.enter_port, name)  # M3: own or allied
        choose["blockade_port"] = _port_choices(legal.blockade, name)  # B1: hostile
        choose["support"] = [("", "—")] + [(f, name(f, f)) for f in legal.support]
        choose["merge_into"] = [("", "—")] + [(f, f) for f in legal.merge_into]
        choose["split_ships"] = [(s["id"], s["id"]) for s in ships]
        # Where to retreat or evade to: any sea the fleet could sail to (the engine falls back to
        # the lowest-id free sea when the one chosen is not free, R3 / E2).
        seas = [("", "— the engine chooses —")] + [
            (place, name(place, place)) for place in sorted(legal.moves)
        ]
        # M2: a route of your own through a first step; the rest of the path is the shortest
        # from there (the engine checks it and says if it is too long).
        choose["via"] = [("", "— the shortest route —")] + [
            (place, name(place, place))
            for place, path in sorted(legal.moves.items())
            if len(path) == 1
        ]
        choose["retreat_to"] = seas
        choose["evade_to"] = seas
        # Already pairs of strings, as Django would keep them; the selects' options written.
        made: CardChoices = {f: Options(c) for f, c in choose.items() if f != "split_ships"}
        made["split_ships"] = choose["split_ships"]
        return made

    def desk_fields(self, *, can_split: bool, hint: str | None) -> SafeString:
        """The fields as the desk's card writes them, byte for byte what its loop over the
        fields in templates/fleets/desk.html wrote (issue 11: that loop, 15 fields on each of
        five cards, was a fifth of the desk's time). `can_split`: the split's checkboxes are
        shown; `hint`: the faction key the new fleet's name will start with (a player's desk)."""
        from rulebook.render import clause_links  # as the template's `clauses` filter

        out = []
        for field in self:
            if field.is_hidden:  # the map's route: no label, nothing to see
                out.append(str(field))
                continue
            out.append("\n      ")
            if field.name != "split_ships" or can_split:
                extra = ""
                if field.name == "new_fleet" and hint:
                    called = conditional_escape(hint)
                    extra = f' <span class="muted">it will be called {called}-…</span>'
                if field.errors:
                    extra += conditional_escape(clause_links(field.errors, "naval"))
                out.append(
                    f'\n      <div data-field="{conditional_escape(field.name)}"><label for="'
                    f'{conditional_escape(field.id_for_label)}">{conditional_escape(field.label)}'
                    f"</label>{conditional_escape(field)}{extra}</div>\n      "
                )
            out.append("\n    ")
        return mark_safe("".join(out))  # every part escaped

    # What each order needs chosen, in words (an empty choice sent on was refused by the engine
    # as "there is no province called " with nothing after it).
    NEEDS: ClassVar[dict[str, tuple[str, str]]] = {
        "move": ("destination", "Choose where to sail."),
        "enter_port": ("port", "Choose the port to enter."),
        "blockade": ("blockade_port", "Choose the port to blockade."),
        "support": ("support", "Choose whom to support."),
        "merge": ("merge_into", "Choose the fleet to join."),
        "split": ("split_ships", "Choose the ships to split off."),
    }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        need = self.NEEDS.get(data.get("type", ""))
        if need is not None and not data.get(need[0]) and need[0] not in self.errors:
            self.add_error(need[0], need[1])
        if data.get("type") == "split" and not data.get("new_fleet"):
            self.add_error("new_fleet", "Name the new fleet.")
        if data.get("type") == "move" and data.get("path"):
            self._check_route(data)
        return data

    def _check_route(self, data: dict[str, Any]) -> None:
        """The map's route, by shape: seas this fleet can reach this turn, ending where it
        sails to (else the form's destination and `via` make the route). Whether each step
        borders the last and the points suffice is the engine's to say (M2), in its words."""
        steps = [step.strip() for step in data["path"].split(",")]
        if steps[-1] != data.get("destination"):
            # The destination was chosen again in the form after the map's route (the route is
            # kept in the form with the order given): the form's choice is the order.
            data["path"] = ""
        elif not all(step in self.legal.moves for step in steps):
            self.add_error("destination", "That route leaves the seas this fleet can reach.")
        else:
            data["path"] = steps

    def to_order(self) -> dict[str, Any]:
        """The order in the scenario format (call after is_valid)."""
        data = self.cleaned_data
        kind = data["type"]
        order: dict[str, Any] = {"fleet": self.fleet, "type": kind}
        if kind == "move" and data.get("path"):  # the route the map's clicks built
            order["path"] = list(data["path"])
        elif kind == "move":
            order["path"] = self._path(data["destination"], data.get("via") or "")
        elif kind in ("enter_port", "blockade"):
            port = data["port"] if kind == "enter_port" else data["blockade_port"]
            routes = self.legal.enter_port if kind == "enter_port" else self.legal.blockade
            order["port"] = port
            if routes.get(port):
                order["path"] = list(routes[port])
        elif kind == "support":
            order["faction"] = data["support"]
        elif kind == "merge":
            order["into"] = data["merge_into"]
        elif kind == "split":
            order["ships"] = list(data["split_ships"])
            order["new_fleet"] = data["new_fleet"]
        order["stance"] = data["stance"]
        order["retreat"] = _retreat(data["retreat"])
        order["retreat_to"] = [data["retreat_to"]] if data.get("retreat_to") else []
        order["evade_to"] = [data["evade_to"]] if data.get("evade_to") else []
        order["prefer"] = data["prefer"]
        order["if_cornered"] = data["if_cornered"]
        return order

    def _path(self, destination: str, via: str) -> list[str]:
        """The shortest path, or the route through `via` when the player chose one."""
        shortest = list(self.legal.moves.get(destination, [destination]))
        if not via or via == destination or (shortest and shortest[0] == via):
            return shortest
        return [via, destination]

    def refuse(self, refusal: Refusal) -> None:
        """Show the engine's refusal beside the field it concerns."""
        field = FIELD_OF.get(refusal.code)
        if not hasattr(self, "cleaned_data"):  # an unbound form (a refused withdrawal)
            self.cleaned_data = {}
        if field == "port" and self.cleaned_data.get("type") == "blockade":
            field = "blockade_port"  # the blockade's port has its own field
        self.add_error(field, f"{refusal.message} ({refusal.code})")

    @classmethod
    def initial_from(cls, order: dict[str, Any] | None) -> dict[str, Any]:
        """The form's fields for an order already given."""
        if not order:
            return {}
        retreat = order.get("retreat", "never")
        if isinstance(retreat, dict) and "below" in retreat:
            retreat = f"below:{retreat['below']}"
        elif isinstance(retreat, dict):
            retreat = f"after:{retreat.get('after_round')}"
        path = order.get("path") or []
        return {
            "type": order["type"],
            "destination": path[-1] if path else "",
            "path": ",".join(path) if order["type"] == "move" else "",
            "port": order.get("port", "") if order["type"] == "enter_port" else "",
            "blockade_port": order.get("port", "") if order["type"] == "blockade" else "",
            "support": order.get("faction", ""),
            "merge_into": order.get("into", ""),
            "stance": order.get("stance", "engage"),
            "retreat": retreat,
            "retreat_to": (order.get("retreat_to") or [""])[0],
            "evade_to": (order.get("evade_to") or [""])[0],
            "prefer": order.get("prefer", "sink"),
            "if_cornered": order.get("if_cornered", "surrender"),
        }


def _port_choices(routes: dict[str, tuple[str, ...]], name: Any) -> list[tuple[str, str]]:
    """'Malmö (2 points)': each port with what it costs, the path to its waters and 1 (M3, M4)."""
    return [("", "—")] + [
        (port, f"{name(port, port)} ({len(path) + 1} point{'s' * (len(path) > 0)})")
        for port, path in sorted(routes.items())
    ]


def _route(place: str, path: tuple[str, ...], name: Any) -> str:
    """'Kattegat (2 points: via Øresund)': what a destination costs in movement points (M2)."""
    via = f": via {', '.join(name(p, p) for p in path[:-1])}" if len(path) > 1 else ""
    points = f"{len(path)} point{'s' * (len(path) > 1)}"
    return f"{name(place, place)} ({points}{via})"


def _retreat(choice: str) -> Any:
    if choice.startswith("below:"):
        return {"below": float(choice.split(":")[1])}
    if choice.startswith("after:"):
        return {"after_round": int(choice.split(":")[1])}
    return "never"


class HireForm(forms.Form):
    """P1, P3: ships hired in an own or allied port, paid at the economy phase."""

    port = forms.ChoiceField(
        widget=FastSelect,
    )
    ship_type = forms.ChoiceField(widget=FastSelect, label="Ship type")
    count = forms.IntegerField(min_value=1, max_value=20, initial=1)
    # The slot of the hire this one changes (none: a new hire).
    slot = forms.CharField(required=False, max_length=80, widget=forms.HiddenInput)

    def __init__(
        self,
        *args: Any,
        ports: list[tuple[str, str]],
        ship_types: list[tuple[str, str]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, prefix="hire", **kwargs)
        self.fields["port"].choices = ports
        self.fields["ship_type"].choices = ship_types
