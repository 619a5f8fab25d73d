"""Who may do what: every URL the project serves, against each role.

The roles: an anonymous visitor, a stranger (logged in, no membership), the player of the faction
the rows are about (the Danes: fleet d2), the player of another faction (the Swedes), the
moderator of another campaign (a staff user), and this campaign's moderator (staff).

Each row of `rows()` is one request; `EXPECTED[role]` says what each role gets for each row:
a status code, "login" (redirected to a login page) or "redirect" (redirected elsewhere: back to
the desk or the dashboard, with a message). One test per role sends every row, each inside a
savepoint that is rolled back, so every row meets the same world; it reports every row that
differs at once. `test_every_url_is_in_the_matrix` fails when a URL pattern has no row.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import URLResolver, get_resolver, resolve, reverse

from battles.models import Battle
from campaign.dashboard import ACTIONS
from campaign.models import ArchivedResult, AuditEntry, Campaign, Membership, Turn
from engine.naval.orders import ECONOMY_ORDER_TYPES
from fleets.models import Fleet, Order
from fleets.services import token_issue
from fleets.views import ECONOMY_KINDS

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"
ROLES = ("anonymous", "stranger", "danes", "swedes", "rival", "mod")
# The rows are about the Danish fleet d2, docked in Copenhagen: turn 1's battle in Øresund
# (whose dice are drawn at lock) cannot sink it.
FLEET = "d2"
HOLD = {
    f"{FLEET}-type": "hold",
    f"{FLEET}-stance": "engage",
    f"{FLEET}-retreat": "never",
    f"{FLEET}-prefer": "sink",
    f"{FLEET}-if_cornered": "surrender",
}


@dataclass(frozen=True)
class Row:
    name: str
    method: str
    url: str
    data: dict[str, Any] = field(default_factory=dict)
    api: bool = False  # sent with the role's API key (Bearer) instead of its session


def player_rows() -> list[Row]:
    """The players' pages and actions, about the Danish fleet d2 and turn 1 (published)."""
    economy = {
        "hire": {"hire-port": "copenhagen", "hire-ship_type": "frigate", "hire-count": 1},
        "repair": {"fleet": FLEET},
        "disband": {"fleet": FLEET},
        "buyout": {"fleet": FLEET, "adrift_fleet": "p1"},
        "priority": {"priority": FLEET},
    }
    assert set(economy) == {*ECONOMY_ORDER_TYPES, "priority"}  # every kind the desk gives
    assert {*economy, "withdraw"} == ECONOMY_KINDS  # and the withdrawal of one, below
    return [
        Row("home", "get", reverse("home")),
        Row("login page", "get", reverse("login")),
        Row("rulebook", "get", reverse("rulebook", args=["naval"])),
        Row("login refused", "post", reverse("login"), {"username": "danes", "password": "no"}),
        Row("logout", "post", reverse("logout")),
        Row("desk", "get", reverse("desk", args=[SLUG])),
        Row("order", "post", reverse("fleet_order", args=[SLUG, FLEET]), HOLD),
        Row("withdraw", "post", reverse("fleet_withdraw", args=[SLUG, FLEET])),
        *(
            Row(kind, "post", reverse("economy_order", args=[SLUG, kind]), data)
            for kind, data in economy.items()
        ),
        Row(
            "economy withdraw",
            "post",
            reverse("economy_order", args=[SLUG, "withdraw"]),
            {"slot": "fleet:d2"},
        ),
        Row("api key", "post", reverse("api_key", args=[SLUG])),
        Row("map", "get", reverse("campaign_map", args=[SLUG])),
        Row("history", "get", reverse("turns", args=[SLUG])),
        Row("report", "get", reverse("turn_report", args=[SLUG, 1])),
        Row("report md", "get", reverse("turn_report_md", args=[SLUG, 1])),
        Row("report bbcode", "get", reverse("turn_report_bbcode", args=[SLUG, 1])),
        Row("turn map", "get", reverse("turn_map", args=[SLUG, 1])),
    ]


def api_rows() -> list[Row]:
    """Every API endpoint (django-ninja), with the role's key."""
    base = f"/api/campaigns/{SLUG}"
    hold = {"order": {"fleet": FLEET, "type": "hold"}}
    return [
        Row("api root", "get", "/api/"),
        Row("api schema", "get", "/api/openapi.json"),
        Row("api docs", "get", "/api/docs"),
        Row("api me", "get", "/api/me", api=True),
        Row("api state", "get", f"{base}/state", api=True),
        Row("api legal", "get", f"{base}/fleets/{FLEET}/legal", api=True),
        Row("api orders", "get", f"{base}/orders", api=True),
        Row("api give", "post", f"{base}/orders", hold, api=True),
        Row("api withdraw", "delete", f"{base}/orders/fleet:{FLEET}", api=True),
        Row("api turns", "get", f"{base}/turns", api=True),
        Row("api report", "get", f"{base}/turns/1/report", api=True),
        Row("api unknown path", "get", "/api/campaigns/nowhere/fleets", api=True),
        Row("api wrong method", "put", f"{base}/orders", hold, api=True),
    ]


def dashboard_rows(campaign: Campaign) -> list[Row]:
    """The moderator's dashboard and each of its actions, on this campaign (turn 2 open)."""
    first = campaign.turns.get(number=1)
    order = {"faction": "danes", "order": '{"fleet": "d2", "type": "hold"}', "reason": "mail"}
    return [
        Row("dashboard", "get", admin_url("campaign_dashboard", campaign.pk)),
        *(
            Row(f"turn {action}", "post", admin_url("campaign_turn_action", campaign.pk, action))
            for action in (*ACTIONS, "extend")
        ),
        Row("progress", "get", admin_url("campaign_turn_progress", campaign.pk, first.pk)),
        Row("pirate orders", "post", admin_url("campaign_pirate_orders", campaign.pk)),
        Row("moderator order", "post", admin_url("campaign_moderator_order", campaign.pk), order),
        Row("import page", "get", admin_url("campaign_import")),
        Row("import nothing", "post", admin_url("campaign_import")),
    ]


def admin_site_rows() -> list[Row]:
    """Django admin's own pages (not about one model)."""
    return [
        Row("admin index", "get", admin_url("index")),
        Row("admin login", "get", admin_url("login")),
        Row("admin logout", "post", admin_url("logout")),
        Row("admin password", "get", admin_url("password_change")),
        Row("admin password done", "get", admin_url("password_change_done")),
        Row("admin autocomplete", "get", admin_url("autocomplete")),
        Row("admin jsi18n", "get", admin_url("jsi18n")),
        Row("admin app list", "get", admin_url("app_list", "fleets")),
        Row("admin catch-all", "get", "/admin/nothing/here/"),
        Row("admin view on site", "get", "/admin/r/1/1/"),
    ]


def admin_model_rows(campaign: Campaign) -> list[Row]:
    """For every model in the admin, its list, add page, and the change, history and delete
    pages of one of this campaign's objects (and the bare object address, which redirects)."""
    first = campaign.turns.get(number=1)
    objects = {
        Campaign: campaign,
        campaign.factions.model: campaign.factions.get(key="danes"),
        campaign.relations.model: campaign.relations.first(),
        campaign.ports.model: campaign.ports.get(key="copenhagen"),
        campaign.ship_types.model: campaign.ship_types.first(),
        Membership: Membership.objects.get(campaign=campaign, faction__key="danes"),
        Turn: first,
        ArchivedResult: ArchivedResult.objects.get(turn=first),
        AuditEntry: AuditEntry.objects.filter(campaign=campaign).first(),
        Fleet: Fleet.objects.get(campaign=campaign, key=FLEET),
        Order: Order.objects.filter(turn__campaign=campaign).first(),
        Battle: Battle.objects.get(turn=first),
        User: User.objects.get(username="danes"),
        Group: Group.objects.get(),
    }
    assert set(objects) == set(admin.site._registry), "a model in the admin has no object here"
    rows = []
    for model, obj in objects.items():
        name = model._meta.model_name
        label = f"{model._meta.app_label}_{name}"
        rows += [
            Row(f"{name} list", "get", admin_url(f"{label}_changelist")),
            Row(f"{name} add", "get", admin_url(f"{label}_add")),
            Row(f"{name} change", "get", admin_url(f"{label}_change", obj.pk)),
            Row(f"{name} history", "get", admin_url(f"{label}_history", obj.pk)),
            Row(f"{name} delete", "get", admin_url(f"{label}_delete", obj.pk)),
            Row(f"{name} object", "get", admin_url(f"{label}_change", obj.pk)[: -len("change/")]),
        ]
    user = objects[User]
    rows.append(Row("user password", "get", admin_url("auth_user_password_change", user.pk)))
    return rows


def rows(campaign: Campaign) -> list[Row]:
    return [
        *player_rows(),
        *api_rows(),
        *dashboard_rows(campaign),
        *admin_site_rows(),
        *admin_model_rows(campaign),
    ]


def admin_url(name: str, *args: Any) -> str:
    return reverse(f"admin:{name}", args=args)


# ---- What each role gets --------------------------------------------------------------------

PLAYER_PAGES = ("desk", "map", "history", "report", "report md", "report bbcode", "turn map")
PLAYER_ACTIONS = ("order", "withdraw", "hire", "repair", "disband", "buyout", "priority")
PLAYER_ACTIONS += ("economy withdraw",)
# Every API answer is JSON {code, message}: a path it does not have, a method it does not take,
# for anyone, with a key or without (issue 11).
API_NOWHERE = {"api unknown path": 404, "api wrong method": 405}
API = [r.name for r in api_rows()]
DASHBOARD = ("dashboard", *(f"turn {a}" for a in (*ACTIONS, "extend")), "progress")
DASHBOARD += ("pirate orders", "moderator order")
IMPORT = ("import page", "import nothing")
ADMIN_SITE = [r.name for r in admin_site_rows()]
MODELS = (
    "campaign",
    "faction",
    "relation",
    "port",
    "shiptype",
    "membership",
    "turn",
    "archivedresult",
    "auditentry",
    "fleet",
    "order",
    "battle",
    "user",
    "group",
)
ADMIN_PAGES = ("list", "add", "change", "history", "delete", "object")
ADMIN_MODEL = [f"{m} {p}" for m in MODELS for p in ADMIN_PAGES] + ["user password"]

# Everyone may see the login page and the rulebooks, try to log in, log out; the API's schema and
# docs are public.
PUBLIC = {
    "login page": 200,
    "rulebook": 200,  # the rules, like a printed rulebook
    "login refused": 200,
    "logout": 200,  # "logged out", also for someone who was not logged in
    "api root": 404,  # nothing lives at /api/ itself
    "api schema": 200,
    "api docs": 200,
    "admin login": 200,
    "admin logout": "redirect",  # to the admin's login page, as no longer (or never) logged in
    **API_NOWHERE,
}
# Anyone not allowed into the admin (not staff) is sent to its login page, as is an anonymous
# visitor from every page but the public ones; without a key, the API answers 401.
OUTSIDE_ADMIN = dict.fromkeys((*DASHBOARD, *IMPORT, *ADMIN_SITE, *ADMIN_MODEL), "login")
NO_KEY = dict.fromkeys(API, 401)
ANONYMOUS = {
    **dict.fromkeys(("home", *PLAYER_PAGES, *PLAYER_ACTIONS, "api key"), "login"),
    **OUTSIDE_ADMIN,
    **NO_KEY,
    **PUBLIC,
}
# Logged in, not a member: the campaign's pages do not exist for them (404, not 403, so that a
# campaign's existence is not given away).
STRANGER = {
    **ANONYMOUS,
    "home": 200,
    **dict.fromkeys((*PLAYER_PAGES, *PLAYER_ACTIONS, "api key"), 404),
}
# The Danes' player: their own fleet d2; an action comes back to the desk with its message.
DANES = {
    **STRANGER,
    **dict.fromkeys(PLAYER_PAGES, 200),
    **dict.fromkeys(PLAYER_ACTIONS, "redirect"),
    "api key": 200,
    "api me": 200,
    "api state": 200,
    "api legal": 200,
    "api orders": 200,
    "api give": 201,
    "api withdraw": 204,
    "api turns": 200,
    "api report": 200,
}
# Another faction's player: d2 is not theirs (404 for pages about it; the API refuses the order
# with not_commander). A hire at Copenhagen or a priority naming d2 is their own faction's order,
# refused with a message on the desk.
SWEDES = {
    **DANES,
    **dict.fromkeys(("order", "withdraw", "repair", "disband", "buyout"), 404),
    "api legal": 404,
    "api give": 400,
    "api withdraw": 404,
}
# The moderator of another campaign: staff, so the admin lets them in, but this campaign's
# dashboard is a 404 and its objects "do not exist" (the admin redirects to its index); the
# players' pages are a 404; their key belongs to their own campaign (404 here).
ADMIN_NO_PERMISSION = {
    # Models whose add or delete pages no moderator has; Django's users and groups need model
    # permissions, which moderators do not have.
    **dict.fromkeys(
        (
            "turn add",
            "turn delete",
            "archivedresult add",
            "auditentry add",
            "auditentry delete",
            "order add",
            "order delete",
            "battle add",
            "battle delete",
            "user password",
        ),
        403,
    ),
    **{f"{m} {p}": 403 for m in ("user", "group") for p in ADMIN_PAGES},
}
RIVAL = {
    **STRANGER,
    "api me": 200,  # their key works, for their own campaign only
    **dict.fromkeys(API[4:], 404),
    **API_NOWHERE,
    **dict.fromkeys(DASHBOARD, 404),
    **dict.fromkeys(IMPORT, 200),
    **dict.fromkeys(ADMIN_SITE, 200),
    "admin login": "redirect",  # already logged in: to the admin's index
    "admin autocomplete": 403,  # no model of the project offers autocompletion
    "admin catch-all": 404,
    "admin view on site": 404,  # no model of the project has a page "on site"
    **{f"{m} {p}": 200 for m in MODELS for p in ("list", "add")},  # their own rows only
    **{f"{m} {p}": "redirect" for m in MODELS for p in ("change", "history", "delete", "object")},
    **ADMIN_NO_PERMISSION,
    "user object": "redirect",  # to its change page, which is refused (403)
    "group object": "redirect",
}
MOD = {
    **RIVAL,
    **{k: v for k, v in DANES.items() if k in (*PLAYER_PAGES, "api key")},
    **dict.fromkeys(PLAYER_ACTIONS, "redirect"),
    **dict.fromkeys(API[3:], 200),
    "api give": 400,  # orders for a faction are given on the dashboard, not with a key
    "api withdraw": 400,
    **API_NOWHERE,
    "order": "redirect",
    "withdraw": "redirect",
    **dict.fromkeys(DASHBOARD, "redirect"),
    "dashboard": 200,
    "progress": 200,
    **{f"{m} {p}": 200 for m in MODELS for p in ("change", "history", "delete")},
    **ADMIN_NO_PERMISSION,
    **{f"{m} object": "redirect" for m in MODELS},  # to its change page
}
EXPECTED = {
    "anonymous": ANONYMOUS,
    "stranger": STRANGER,
    "danes": DANES,
    "swedes": SWEDES,
    "rival": RIVAL,
    "mod": MOD,
}


def outcome(response: Any) -> int | str:
    if response.status_code != 302:
        return int(response.status_code)
    where = response["Location"]
    return "login" if "/login/" in where else "redirect"


@pytest.mark.parametrize("role", ROLES)
def test_access(played, open_skirmish, role) -> None:
    user = played.get(role)
    key = None
    if role in ("danes", "swedes", "mod", "rival"):
        key = token_issue(membership=user.memberships.get())
    got: dict[str, int | str] = {}
    for row in rows(open_skirmish):
        client = Client()
        with transaction.atomic():
            cache.clear()
            headers = {}
            if row.api and key:
                headers["Authorization"] = f"Bearer {key}"
            elif not row.api and user is not None:
                client.force_login(user)
            if row.method in ("get", "delete"):
                response = getattr(client, row.method)(row.url, headers=headers)
            elif row.api:
                response = getattr(client, row.method)(
                    row.url, json.dumps(row.data), content_type="application/json", headers=headers
                )
            else:
                response = client.post(row.url, row.data, headers=headers)
            got[row.name] = outcome(response)
            transaction.set_rollback(True)
    expected = EXPECTED[role]
    wrong = {
        name: (expected.get(name), got[name]) for name in got if got[name] != expected.get(name)
    }
    assert not wrong, f"{role}: row -> (expected, got): {wrong}"


def test_every_row_has_an_expectation_for_every_role(played, open_skirmish) -> None:
    names = [row.name for row in rows(open_skirmish)]
    assert len(names) == len(set(names)), "two rows with one name"
    for role, expected in EXPECTED.items():
        assert set(expected) == set(names), role


def test_every_url_is_in_the_matrix(played, open_skirmish) -> None:
    """A new URL pattern, anywhere in the project, fails this until it has a row."""
    covered = {resolve(row.url.split("?")[0]).route for row in rows(open_skirmish)}
    served = set(url_routes(get_resolver().url_patterns))
    assert not served - covered, f"URLs with no row in the access matrix: {served - covered}"


def url_routes(patterns: list[Any], prefix: str = "") -> list[str]:
    """Every URL pattern's full route, joined as Django joins them for `ResolverMatch.route`."""
    routes = []
    for pattern in patterns:
        route = URLResolver._join_route(prefix, str(pattern.pattern))
        if isinstance(pattern, URLResolver):
            routes += url_routes(pattern.url_patterns, route)
        else:
            routes.append(route)
    return routes
