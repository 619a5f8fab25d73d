"""The world editor's pages (issue 11): a naval campaign built in the browser by its moderator.

`/campaigns/new/` makes an empty campaign (staff; its creator its moderator). Under
`/c/<slug>/world/`: the world's tables, each with its rows and a form to add one; a row's page to
change or delete it; the check (`world_check`: the campaign file's own checks, every problem with
its place in words and a link to the row); *Open the first turn* once the check passes; and the
export as a campaign file (JSON or YAML) that `campaign_import` reads back to the same world.

Every page goes through `world_campaign`, the one permission-checked fetch: the campaign's
moderator (or a superuser) only; anyone else logged in gets a 404, as for a slug no campaign has;
a visitor not logged in is sent to the login page. Every write is a service of
fleets/world_editor.py; a refusal is shown with its code, nothing changed.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaign.models import Campaign, Membership
from fleets.models import Adjacency, MapDrawing, Province, Relation
from fleets.selectors import campaign_drawing
from fleets.world_editor import (
    TABLES,
    WorldRefused,
    campaign_create,
    can_open,
    first_turn_open,
    map_drawing_remove,
    map_drawing_set,
    palette_colour,
    row_name,
    started,
    world_check,
    world_delete,
    world_save,
)
from fleets.world_files import CONTENT_TYPES, Place, campaign_file_text
from fleets.world_forms import (
    FORMS,
    DeleteForm,
    DrawingForm,
    NewCampaignForm,
    OpenForm,
    WorldRowForm,
)
from maps.drawing import drawing_fits

# How each table's rows are read for the page (their links in the same query).
RELATED = {
    "port": ("province", "owner"),
    "adjacency": ("a", "b"),
    "relation": ("low", "high"),
    "fleet": ("owner", "province", "port", "blockading"),
    "ship": ("fleet", "type", "owner"),
}
ORDER = {"adjacency": ("a__key", "b__key"), "relation": ("low__key", "high__key")}
ORDER_DEFAULT = ("key",)
ORDER_SHIPS = ("fleet__key", "position", "key")
# The columns of the tables as the page heads them (the rest are their own words).
COLUMN_WORDS = {
    "key": "id",
    "a": "province",
    "b": "next to",
    "mp_penalty": "movement penalty",
    "ship_type": "type",
}
HELP = {
    "province": "W1: the map's sea and land provinces, with their place on the drawing.",
    "adjacency": "W1: which provinces are next to each other (once per pair).",
    "port": "W2: a port lies in a land province and opens onto sea provinces next to it.",
    "ship-type": "W4: what a ship costs, its attack and its health.",
    "faction": "The factions, their treasuries and incomes (the pirates, W3, are every "
    "campaign's and not listed).",
    "relation": "W3: war or alliance (a pair without one is at peace).",
    "fleet": "W5: the starting fleets, at sea or docked in a port (W8: in their own ports).",
    "ship": "W4, W7: each fleet's ships; a ship may be an ally's.",
}


def world_campaign(request: HttpRequest, slug: str) -> Campaign | HttpResponse:
    """The naval campaign of `slug` for its moderator (or a superuser); the login page for a
    visitor not logged in; a 404 for anyone else, the same as for no campaign at all."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    campaign = (
        Campaign.objects.filter(slug=slug, ruleset="naval").first() if "\x00" not in slug else None
    )
    if campaign is None or not (
        getattr(request.user, "is_superuser", False)
        or Membership.objects.filter(
            campaign=campaign, user_id=request.user.pk, role=Membership.Role.MODERATOR
        ).exists()
    ):
        raise Http404("No such campaign.")
    return campaign


def _rows(campaign: Campaign, table: str) -> list[Any]:
    spec = TABLES[table]
    rows = spec.model._default_manager.filter(campaign=campaign)
    if table == "faction":
        rows = rows.exclude(key="pirates")
    if table == "port":
        rows = rows.prefetch_related("waters")
    ordering = ORDER.get(table, ORDER_SHIPS if table == "ship" else ORDER_DEFAULT)
    return list(rows.select_related(*RELATED.get(table, ())).order_by(*ordering))


def _row(campaign: Campaign, table: str, pk: int) -> Model:
    if table not in TABLES:
        raise Http404("No such table.")
    row = TABLES[table].model._default_manager.filter(campaign=campaign, pk=pk).first()
    if row is None or (table == "faction" and getattr(row, "key", "") == "pirates"):
        raise Http404("No such row.")
    return row


def _editor_url(campaign: Campaign, table: str = "") -> str:
    return reverse("world", args=[campaign.slug]) + (f"#{table}" if table else "")


def _new_form(campaign: Campaign, table: str, data: Any = None) -> WorldRowForm:
    form = FORMS[table](data, campaign=campaign, prefix=table)
    if table == "faction" and data is None:
        form.initial["colour"] = palette_colour(campaign)
    return form


@require_GET
def world(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = world_campaign(request, slug)
    if isinstance(campaign, HttpResponse):
        return campaign
    check = world_check(campaign)
    tables = [
        {
            "name": name,
            "label": spec.label,
            "help": HELP[name],
            "plural": "adjacencies" if name == "adjacency" else f"{spec.label}s",
            "article": "an" if spec.label[0] in "aeiou" else "a",
            "rows": [(row.pk, spec.shown(row)) for row in _rows(campaign, name)],
            "form": _new_form(campaign, name),
        }
        for name, spec in TABLES.items()
    ]
    for table in tables:
        rows: list[Any] = table["rows"]  # type: ignore[assignment]
        table["columns"] = [COLUMN_WORDS.get(c, c) for c in rows[0][1]] if rows else []
    return render(
        request,
        "fleets/world/editor.html",
        {
            "campaign": campaign,
            "tables": tables,
            "check": check,
            "places": _linked(campaign, check.places),
            "can_open": can_open(campaign),
            "started": started(campaign),
            "has_map": bool(tables[0]["rows"]),
            "drawing": _drawing_state(campaign),
            "drawing_form": DrawingForm(),
            "drawing_remove_form": DeleteForm(prefix="drawing"),
            "open_form": OpenForm(),
            "title": f"{campaign.name}: the world",
        },
    )


@require_http_methods(["GET", "POST"])
def world_add(request: HttpRequest, slug: str, table: str) -> HttpResponse:
    campaign = world_campaign(request, slug)
    if isinstance(campaign, HttpResponse):
        return campaign
    if table not in TABLES:
        raise Http404("No such table.")
    form = _new_form(campaign, table, request.POST if request.method == "POST" else None)
    return _save(request, campaign, table, None, form)


@require_http_methods(["GET", "POST"])
def world_row(request: HttpRequest, slug: str, table: str, pk: int) -> HttpResponse:
    campaign = world_campaign(request, slug)
    if isinstance(campaign, HttpResponse):
        return campaign
    row = _row(campaign, table, pk)
    data = request.POST if request.method == "POST" else None
    form = FORMS[table](data, campaign=campaign, row=row, prefix=table)
    return _save(request, campaign, table, row, form)


def _save(
    request: HttpRequest, campaign: Campaign, table: str, row: Model | None, form: WorldRowForm
) -> HttpResponse:
    refusal: WorldRefused | None = None
    if request.method == "POST" and form.is_valid():
        try:
            saved = world_save(
                campaign=campaign,
                user=request.user,
                table=table,
                row=row,
                values=form.values(),
                reason=form.cleaned_data["reason"],
            )
        except WorldRefused as error:
            refusal = error
            if row is not None:
                row.refresh_from_db()  # the page shows the row as it still is
        else:
            verb = "changed" if row is not None else "added"
            name = row_name(TABLES[table], saved)
            messages.success(request, f"The {TABLES[table].label} {name} is {verb}.")
            return HttpResponseRedirect(_editor_url(campaign, table))
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "fleets/world/row.html",
        {
            "campaign": campaign,
            "table": table,
            "label": TABLES[table].label,
            "row": row,
            "name": row_name(TABLES[table], row) if row is not None else "",
            "key": getattr(row, "key", "") if TABLES[table].keyed else "",
            "form": form,
            "refusal": refusal,
            "places": _linked(campaign, refusal.places) if refusal else [],
            "delete_form": DeleteForm(prefix="delete") if row is not None else None,
            "title": f"{campaign.name}: {'a' if row is None else 'the'} {TABLES[table].label}",
        },
        status=status,
    )


@require_POST
def world_remove(request: HttpRequest, slug: str, table: str, pk: int) -> HttpResponse:
    campaign = world_campaign(request, slug)
    if isinstance(campaign, HttpResponse):
        return campaign
    row = _row(campaign, table, pk)
    form = DeleteForm(request.POST, prefix="delete")
    spec = TABLES[table]
    name = row_name(spec, row)
    try:
        if not form.is_valid():
            raise WorldRefused("reason_required", "Say why: the reason goes to the audit log.")
        world_delete(
            campaign=campaign,
            user=request.user,
            table=table,
            row=row,
            reason=form.cleaned_data["reason"],
        )
    except WorldRefused as error:
        messages.error(request, f"Nothing deleted: {error}")
        for place in error.places:
            messages.error(request, f"{place.words}: {place.message}")
        return HttpResponseRedirect(reverse("world_row", args=[campaign.slug, table, row.pk]))
    messages.success(request, f"The {spec.label} {name} is deleted.")
    return HttpResponseRedirect(_editor_url(campaign, table))


def _drawing_state(campaign: Campaign) -> dict[str, Any] | None:
    """What the editor says of the map's own drawing: none, or when it changed, how many
    shapes it has and whether the map is drawn on it (it fits the world as it stands)."""
    changed = (
        MapDrawing.objects.filter(campaign=campaign).values_list("changed_at", flat=True).first()
    )
    if changed is None:
        return None
    drawing = campaign_drawing(campaign)
    provinces = Province.objects.filter(campaign=campaign).values_list("key", flat=True)
    return {
        "changed": changed,
        "shapes": len(drawing.shapes) if drawing is not None else 0,
        "fits": drawing is not None and drawing_fits(drawing, list(provinces)),
    }


@require_POST
def world_drawing(request: HttpRequest, slug: str) -> HttpResponse:
    """The map's own drawing uploaded (added or replaced), or every problem as a message."""
    campaign = world_campaign(request, slug)
    if isinstance(campaign, HttpResponse):
        return campaign
    form = DrawingForm(request.POST, request.FILES)
    try:
        if not form.is_valid():
            problems = [str(e) for errors in form.errors.values() for e in errors]
            # A reason missing alone is the editor's usual refusal; anything else the drawing's.
            code = "reason_required" if list(form.errors) == ["reason"] else "drawing_refused"
            raise WorldRefused(code, "The drawing was not taken: " + " ".join(problems))
        map_drawing_set(
            campaign=campaign,
            user=request.user,
            text=form.text,
            reason=form.cleaned_data["reason"],
        )
    except WorldRefused as error:
        messages.error(request, str(error))
        for place in error.places:
            messages.error(request, f"{place.words.capitalize()}: {place.message}")
        return HttpResponseRedirect(_editor_url(campaign, "map"))
    messages.success(request, "The map is now drawn on the campaign's own drawing.")
    return HttpResponseRedirect(_editor_url(campaign, "map"))


@require_POST
def world_drawing_remove(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = world_campaign(request, slug)
    if isinstance(campaign, HttpResponse):
        return campaign
    form = DeleteForm(request.POST, prefix="drawing")
    try:
        if not form.is_valid():
            raise WorldRefused("reason_required", "Say why: the reason goes to the audit log.")
        map_drawing_remove(campaign=campaign, user=request.user, reason=form.cleaned_data["reason"])
    except WorldRefused as error:
        messages.error(request, f"Nothing removed: {error}")
        return HttpResponseRedirect(_editor_url(campaign, "map"))
    messages.success(request, "The campaign's own drawing is removed: the map is drawn anew.")
    return HttpResponseRedirect(_editor_url(campaign, "map"))


@require_GET
def world_check_page(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = world_campaign(request, slug)
    if isinstance(campaign, HttpResponse):
        return campaign
    check = world_check(campaign)
    return render(
        request,
        "fleets/world/check.html",
        {
            "campaign": campaign,
            "check": check,
            "places": _linked(campaign, check.places),
            "can_open": can_open(campaign),
            "open_form": OpenForm(),
            "title": f"{campaign.name}: the check",
        },
    )


@require_POST
def world_open(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = world_campaign(request, slug)
    if isinstance(campaign, HttpResponse):
        return campaign
    form = OpenForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        turn = first_turn_open(campaign=campaign, user=request.user, reason=reason)
    except WorldRefused as error:
        messages.error(request, f"Turn 1 was not opened: {error}")
        return HttpResponseRedirect(reverse("world_check", args=[campaign.slug]))
    messages.success(
        request, f"Turn {turn.number} is open; its deadline is {turn.deadline:%Y-%m-%d %H:%M} UTC."
    )
    return HttpResponseRedirect(reverse("admin:campaign_dashboard", args=[campaign.pk]))


@require_GET
def world_export(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """The campaign as a campaign file, as its world stands now (docs/campaign-format.md)."""
    campaign = world_campaign(request, slug)
    if isinstance(campaign, HttpResponse):
        return campaign
    if fmt not in CONTENT_TYPES:
        raise Http404("No such format.")
    response = HttpResponse(campaign_file_text(campaign, fmt), content_type=CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{campaign.slug}.campaign.{fmt}"'
    return response


@require_http_methods(["GET", "POST"])
def campaign_new(request: HttpRequest) -> HttpResponse:
    """A new naval campaign, for staff (moderators): its creator becomes its moderator."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not request.user.is_staff:
        raise Http404("No such page.")
    form = NewCampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            campaign = campaign_create(
                user=request.user,
                name=data["name"],
                slug=data["slug"],
                description=data["description"],
                turn_hours=data["turn_hours"],
                fog_of_war=data["fog_of_war"],
                language=data["language"] or "en",
            )
        except WorldRefused as error:
            form.add_error("slug", str(error))
        else:
            messages.success(request, f"{campaign.name} is made: now build its world.")
            return HttpResponseRedirect(_editor_url(campaign))
    return render(
        request,
        "fleets/world/new.html",
        {"form": form, "title": "A new naval campaign"},
        status=400 if form.errors else 200,
    )


def _linked(campaign: Campaign, places: list[Place]) -> list[tuple[Place, str]]:
    """Each problem with the address of the row to edit ("" when it is the campaign's own)."""
    out = []
    for place in places:
        out.append((place, _place_url(campaign, place)))
    return out


def _place_url(campaign: Campaign, place: Place) -> str:
    if not place.table or not place.key:
        return ""
    spec = TABLES[place.table]
    row: Any
    if place.table in ("adjacency", "relation"):
        a, _, b = place.key.partition("~")
        low, high = sorted((a, b))
        if place.table == "adjacency":
            row = Adjacency.objects.filter(campaign=campaign, a__key=low, b__key=high).first()
        else:
            row = Relation.objects.filter(campaign=campaign, low__key=low, high__key=high).first()
    else:
        row = spec.model._default_manager.filter(campaign=campaign, key=place.key).first()
    if row is None:
        return ""
    return reverse("world_row", args=[campaign.slug, place.table, row.pk])
