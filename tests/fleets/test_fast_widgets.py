"""The desk's hand-written widgets (fleets/forms.py, issue 11) write byte for byte what
Django's own widgets write with their templates, escaping, ids and checked boxes included."""

from __future__ import annotations

from typing import Any

import pytest
from django import forms

from engine.naval import LegalOrders
from fleets.forms import FastCheckboxes, FastTextInput, OrderForm


def d1_orders(**given: Any) -> LegalOrders:
    """What fleet d1 (2 points, not adrift) may do: nothing but what `given` adds."""
    nothing: dict[str, Any] = {
        "moves": {},
        "enter_port": {},
        "blockade": {},
        "support": (),
        "merge_into": (),
        "can_split": False,
        "repair": (),
        "buyout": {},
    }
    return LegalOrders(fleet="d1", points=2, adrift=False, **{**nothing, **given})


CHOICES = [("d1-s1", "d1-s1"), ("a&b", 'Ø <x> "2"'), ("d1-s3", "d1-s3")]


@pytest.mark.parametrize(
    ("value", "attrs"),
    [
        (None, {"id": "id_d1-split_ships"}),
        (["d1-s1"], {"id": "id_d1-split_ships"}),
        (["a&b", "d1-s3"], {"id": "id_d1-split_ships", "class": "x<y"}),
        ([], None),
        (["d1-s1"], {"data-x": "1", "disabled": True, "hidden": False}),
    ],
)
def test_the_fast_checkboxes_write_what_djangos_write(value: Any, attrs: Any) -> None:
    ours = FastCheckboxes(choices=CHOICES).render("d1-split_ships", value, attrs)
    django = forms.CheckboxSelectMultiple(choices=CHOICES).render("d1-split_ships", value, attrs)
    assert ours == django


@pytest.mark.parametrize("value", [None, "", "d1-new", 'a&"b<', 3])
def test_the_fast_text_input_writes_what_djangos_writes(value: Any) -> None:
    attrs = {"id": "id_d1-new_fleet", "maxlength": "60", "required": False, "autofocus": True}
    ours = FastTextInput().render("d1-new_fleet", value, attrs)
    assert ours == forms.TextInput().render("d1-new_fleet", value, attrs)


def test_the_order_forms_fields_render_as_with_djangos_widgets() -> None:
    """A whole bound order form (a split asked for, with an error) renders the same with the
    fast widgets as with Django's."""
    legal = d1_orders(can_split=True)
    ships = [{"id": "d1-s1"}, {"id": "d1-s2"}]
    data = {"d1-type": "split", "d1-split_ships": ["d1-s2"], "d1-new_fleet": "bad name!"}
    form = OrderForm(data, fleet="d1", legal=legal, ships=ships, names={})
    form.is_valid()
    for name, widget in [("split_ships", forms.CheckboxSelectMultiple), ("new_fleet", None)]:
        ours = str(form[name])
        field = form.fields[name]
        field.widget = (widget or forms.TextInput)(
            attrs=field.widget.attrs, **({"choices": field.choices} if widget else {})
        )
        assert ours == str(form[name])


@pytest.mark.parametrize("value", [None, "", "x", ["x"], 2, "2", ["nowhere"]])
def test_the_fast_select_picks_the_option_djangos_picks(value: Any) -> None:
    """FastSelect writes its options from the choices directly (no dict per option): the first
    of equal values is the one selected, None is the empty value, numbers match their text."""
    from fleets.forms import FastSelect

    choices = [(None, "—"), ("x", "X"), ("x", "X again"), (2, "two"), ("", "empty")]
    ours = FastSelect(choices=choices).render("d1-type", value, {"id": "id_d1-type"})
    django = forms.Select(choices=choices).render("d1-type", value, {"id": "id_d1-type"})
    assert ours == django.replace("\n", "").replace("  ", "")


def test_the_order_forms_choices_are_as_djangos_setter_keeps_them() -> None:
    """OrderForm sets its choices without `normalize_choices` (fleets.forms._set_choices): the
    same choices, validation and HTML as through ChoiceField's own setter."""
    legal = d1_orders(
        moves={"kattegat": ("kattegat",), "a&b": ("kattegat", "a&b")},
        enter_port={"aarhus": ("kattegat",)},
        support=("se",),
        merge_into=("d2",),
        can_split=True,
    )
    ships = [{"id": "d1-s1"}, {"id": "d1-s2"}]
    data = {"d1-type": "move", "d1-destination": "a&b", "d1-stance": "engage"}
    ours = OrderForm(data, fleet="d1", legal=legal, ships=ships, names={"se": "Sweden"})
    theirs = OrderForm(data, fleet="d1", legal=legal, ships=ships, names={"se": "Sweden"})
    for field in theirs.fields.values():
        if isinstance(field, forms.ChoiceField):
            field.choices = list(field.choices)  # through Django's setter
    assert ours.is_valid() == theirs.is_valid()
    assert ours.cleaned_data == theirs.cleaned_data
    for name in ours.fields:
        assert str(ours[name]) == str(theirs[name])
        if isinstance(ours.fields[name], forms.ChoiceField):
            assert ours.fields[name].choices == theirs.fields[name].choices


OLD_LOOP = """{% load rulebook %}    {% for field in card.form %}{% if field.is_hidden %}{{ field }}{% else %}
      {% if field.name != "split_ships" or card.card.legal.can_split %}
      <div data-field="{{ field.name }}"><label for="{{ field.id_for_label }}">{{ field.label }}</label>{{ field }}{% if field.name == "new_fleet" and faction and desk.membership.role != "moderator" %} <span class="muted">it will be called {{ faction.key }}-…</span>{% endif %}{% if field.errors %}{{ field.errors|clauses:"naval" }}{% endif %}</div>
      {% endif %}
    {% endif %}{% endfor %}
"""  # noqa: E501 (the desk template's loop over a card's fields, before issue 11; the map's hidden route since issue 20)


@pytest.mark.parametrize("can_split", [True, False])
@pytest.mark.parametrize("role", ["player", "moderator"])
@pytest.mark.parametrize("bound", [False, True])
def test_the_desk_fields_are_what_the_templates_loop_wrote(
    can_split: bool, role: str, bound: bool
) -> None:
    """OrderForm.desk_fields writes a card's fields byte for byte as the desk template's loop
    did: errors beside their fields (with clause links), the new fleet's hint on a player's
    desk only, the split's checkboxes only when the fleet can split."""
    from types import SimpleNamespace

    from django.template import Context, Template

    legal = d1_orders(moves={"kattegat": ("kattegat",)}, can_split=can_split)
    ships = [{"id": "d1-s1"}, {"id": "d1-s2"}]
    if bound:
        data = {"d1-type": "split", "d1-new_fleet": "bad name!", "d1-stance": "x"}
        form = OrderForm(data, fleet="d1", legal=legal, ships=ships, names={})
        form.is_valid()
        form.add_error("destination", "Not adjacent (M2).")
    else:
        form = OrderForm(fleet="d1", legal=legal, ships=ships, names={})
    faction = SimpleNamespace(key="dk")
    desk = SimpleNamespace(membership=SimpleNamespace(role=role))
    card = {"form": form, "card": SimpleNamespace(legal=legal)}
    old = Template(OLD_LOOP).render(Context({"card": card, "faction": faction, "desk": desk}))
    hint = "dk" if role == "player" else None
    assert "    " + form.desk_fields(can_split=can_split, hint=hint) + "\n" == old
