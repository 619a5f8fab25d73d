"""Who may do what: every URL the project serves, against each role.

The roles: an anonymous visitor, a stranger (logged in, no membership), the player of the faction
the rows are about (the Danes: fleet d2), the player of another faction (the Swedes), the
moderator of another campaign (a staff user), and this campaign's moderator (staff). Beside the
campaign, a seafaring game (issue 13/14): the Danes' player holds its red seat, the Swedes' its
blue, a bot the third; this campaign's moderator moderates it, the rival does not. Its pages and
its API (with each role's seat key) are rows like the others.

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
from fleets.models import Fleet, NavalSettings, Order
from fleets.services import token_issue
from fleets.views import ECONOMY_KINDS
from seafarers.keys import seat_key_issue
from seafarers.models import Action as SeaAction
from seafarers.models import Game as SeaGame
from seafarers.models import Seat
from seafarers.offers import offers_version

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
    "reason": "the access matrix",  # the moderator's, for the audit log (R-60); players' unread
}


@dataclass(frozen=True)
class Row:
    name: str
    method: str
    url: str
    data: dict[str, Any] = field(default_factory=dict)
    # Sent with the role's API key (Bearer) instead of its session: True for the naval key,
    # "sea" for the role's key to its seat of the seafaring game (none: no Authorization).
    api: bool | str = False


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
        Row("moderating", "get", reverse("moderating")),  # the moderator's desk, staff only
        Row("login page", "get", reverse("login")),
        Row("rulebook", "get", reverse("rulebook", args=["naval"])),
        Row("login refused", "post", reverse("login"), {"username": "danes", "password": "no"}),
        Row("logout", "post", reverse("logout")),
        # The header's language switcher (issue 22): a cookie, and the choice on the account.
        Row("language", "post", reverse("set_language"), {"language": "ru", "next": "/"}),
        Row("desk", "get", reverse("desk", args=[SLUG])),
        Row("order", "post", reverse("fleet_order", args=[SLUG, FLEET]), HOLD),
        Row("withdraw", "post", reverse("fleet_withdraw", args=[SLUG, FLEET]), {"reason": "r"}),
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
        # Orders by e-mail (issue 21 §2): a faction's player replaces their own address only.
        Row("order address", "post", reverse("order_address", args=[SLUG])),
        # Written orders (issue 21): answered line by line on the desk, refusals included.
        Row(
            "written orders",
            "post",
            reverse("written_orders", args=[SLUG]),
            {"orders": f"{FLEET}: hold", "reason": "the access matrix"},
        ),
        # "My orders are final" (issue 21 §3, R-89): back to the desk with the answer.
        Row("orders final", "post", reverse("orders_final", args=[SLUG])),
        Row("map", "get", reverse("campaign_map", args=[SLUG])),
        Row("history", "get", reverse("turns", args=[SLUG])),
        Row("report", "get", reverse("turn_report", args=[SLUG, 1])),
        # A faction's private report: the player's own whatever they ask; the moderator's choice.
        Row("report md", "get", reverse("turn_report_md", args=[SLUG, 1]) + "?faction=danes"),
        Row(
            "report bbcode", "get", reverse("turn_report_bbcode", args=[SLUG, 1]) + "?faction=hanse"
        ),
        Row("turn map", "get", reverse("turn_map", args=[SLUG, 1])),
        # The forum export (issue 11): the page, the bulletin to post, the moderator's "replace
        # the public map's link", and that link — the one naval page without a login.
        Row("export", "get", reverse("turn_export", args=[SLUG, 1])),
        Row("bulletin md", "get", reverse("turn_bulletin_md", args=[SLUG, 1])),
        Row("bulletin bbcode", "get", reverse("turn_bulletin_bbcode", args=[SLUG, 1])),
        Row(
            "replace public map",
            "post",
            reverse("public_map_replace", args=[SLUG, 1]),
            {"reason": "leaked"},
        ),
        Row("public map", "get", public_map_url()),
        Row("public map wrong", "get", reverse("public_map", args=[SLUG, 1, "not-a-token"])),
    ]


def public_map_url() -> str:
    """Turn 1's public map link (made on first need, as the export page makes it)."""
    from fleets.public_maps import public_map_issue

    found = public_map_issue(Turn.objects.get(campaign__slug=SLUG, number=1, archived=False))
    assert found is not None
    return reverse("public_map", args=[SLUG, 1, found.token])


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
        Row("api final", "post", f"{base}/final", api=True),  # issue 21 §3, R-89
        Row("api unknown path", "get", "/api/campaigns/nowhere/fleets", api=True),
        Row("api wrong method", "put", f"{base}/orders", hold, api=True),
    ]


def dashboard_rows(campaign: Campaign) -> list[Row]:
    """The moderator's dashboard and each of its actions, on this campaign (turn 2 open)."""
    first = campaign.turns.get(number=1)
    order = {"faction": "danes", "order": '{"fleet": "d2", "type": "hold"}', "reason": "mail"}
    danes = Membership.objects.get(campaign=campaign, faction__key="danes")
    revoke = {"membership": danes.pk, "reason": "leaked"}
    return [
        Row("dashboard", "get", admin_url("campaign_dashboard", campaign.pk)),
        *(
            Row(f"turn {action}", "post", admin_url("campaign_turn_action", campaign.pk, action))
            for action in (*ACTIONS, "extend")
        ),
        Row("progress", "get", admin_url("campaign_turn_progress", campaign.pk, first.pk)),
        Row("pirate orders", "post", admin_url("campaign_pirate_orders", campaign.pk)),
        Row("moderator order", "post", admin_url("campaign_moderator_order", campaign.pk), order),
        Row(
            "moderator written orders",
            "post",
            admin_url("campaign_moderator_written_orders", campaign.pk),
            {"faction": "danes", "orders": "d2: hold", "reason": "mail"},
        ),
        Row("revoke key", "post", admin_url("campaign_api_key_revoke", campaign.pk), revoke),
        Row("import page", "get", admin_url("campaign_import")),
        Row("import nothing", "post", admin_url("campaign_import")),
    ]


def world_rows(campaign: Campaign) -> list[Row]:
    """The world editor (issue 11: fleets/world_views.py), about this campaign's Kattegat. Its
    first turn is open, so *Open* is refused (already_open) and the edits, posted empty, are
    refused by their forms."""
    slug, kattegat = campaign.slug, campaign.provinces.get(key="kattegat").pk
    return [
        Row("world new", "get", reverse("world_campaign_new")),
        Row("world", "get", reverse("world", args=[slug])),
        Row("world check", "get", reverse("world_check", args=[slug])),
        Row("world open", "post", reverse("world_open", args=[slug])),
        Row("world export", "get", reverse("world_export", args=[slug, "json"])),
        Row("world add", "post", reverse("world_add", args=[slug, "province"])),
        Row("world row", "get", reverse("world_row", args=[slug, "province", kattegat])),
        Row("world delete", "post", reverse("world_delete", args=[slug, "province", kattegat])),
        Row("world drawing", "post", reverse("world_drawing", args=[slug])),
        Row("world drawing remove", "post", reverse("world_drawing_remove", args=[slug])),
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
    sea = seafaring_game()
    objects = {
        Campaign: campaign,
        NavalSettings: NavalSettings.objects.get(campaign=campaign),
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
        SeaGame: sea,
        Seat: sea.seats.get(player="red"),
        SeaAction: sea.actions.get(index=0),
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


SEA_SLUG = "sea-matrix"


def seafaring_game() -> Any:
    """A seafaring game (issue 13) beside the naval campaign: the Danes' player holds red, the
    Swedes' blue, the third seat a bot; this campaign's moderator moderates it, the rival (staff)
    does not. Red has placed a setup settlement, so the log has an action for the admin's rows."""
    from engine.seafarers import legal_actions
    from seafarers.models import Game
    from seafarers.services import action_submit, game_create, game_start
    from tests.seafarers.helpers import position

    found = Game.objects.filter(campaign__slug=SEA_SLUG).first()
    if found is not None:
        return found
    mod, danes = User.objects.get(username="mod"), User.objects.get(username="danes")
    game = game_create(
        name="Sea",
        slug=SEA_SLUG,
        moderator=mod,
        board="small-isles",
        seats=["danes", "swedes", None],
    )
    game_start(game=game, user=mod)
    first = legal_actions(position(game), "red")[0]
    action_submit(game=game, user=danes, action=first, expected_index=0)
    game.refresh_from_db()
    return game


def seafaring_rows() -> list[Row]:
    """Every seafaring page (/g/) and seafaring API route (/api/games/, with the role's seat key)
    about that game. Posts carry what a careless or hostile client sends: an action the engine
    refuses (a roll in setup), empty forms, an offer that does not exist."""
    game = seafaring_game()
    g = f"/api/games/{SEA_SLUG}"
    act = {"expected": str(game.log_length), "control": "dice", "type": "roll"}
    return [
        Row("sea desk", "get", reverse("seafarers_desk", args=[SEA_SLUG])),
        Row(
            "sea poll",
            "get",
            reverse("seafarers_poll", args=[SEA_SLUG])
            + f"?index={game.log_length}&offers={offers_version(game)}",
        ),
        Row("sea act", "post", reverse("seafarers_act", args=[SEA_SLUG]), act),
        Row("sea offers", "get", reverse("seafarers_offers", args=[SEA_SLUG])),
        Row("sea offer make", "post", reverse("seafarers_offer_make", args=[SEA_SLUG])),
        Row(
            "sea offer reply",
            "post",
            reverse("seafarers_offer_reply", args=[SEA_SLUG, 999999, "accept"]),
        ),
        Row("sea api key", "get", reverse("seafarers_api_key", args=[SEA_SLUG])),
        Row("sea new game", "get", reverse("seafarers_game_new")),
        Row("sea moderate", "get", reverse("seafarers_moderate", args=[SEA_SLUG])),
        Row("sea export", "get", reverse("seafarers_export", args=[SEA_SLUG])),
        Row("sea award", "post", reverse("seafarers_award", args=[SEA_SLUG])),
        Row("sea replace", "post", reverse("seafarers_replace", args=[SEA_SLUG])),
        Row("sea act for", "post", reverse("seafarers_act_for", args=[SEA_SLUG, "red"])),
        Row("sea undo", "post", reverse("seafarers_game_action", args=[SEA_SLUG, "undo"])),
        Row("sea log", "get", reverse("seafarers_log", args=[SEA_SLUG])),
        Row("sea log md", "get", reverse("seafarers_log_md", args=[SEA_SLUG])),
        Row("sea log bbcode", "get", reverse("seafarers_log_bbcode", args=[SEA_SLUG])),
        Row("sea table", "get", reverse("seafarers_table", args=[SEA_SLUG])),
        Row("sea board png", "get", reverse("seafarers_board_png", args=[SEA_SLUG])),
        Row("sea board public", "get", reverse("seafarers_board_public", args=[SEA_SLUG, "x"])),
        Row("sea api root", "get", "/api/games/"),
        Row("sea api schema", "get", "/api/games/openapi.json"),
        Row("sea api docs", "get", "/api/games/docs"),
        Row("sea api nowhere", "get", "/api/games/nothing/here/at/all", api="sea"),
        Row("sea api me", "get", "/api/games/me", api="sea"),
        Row("sea api state", "get", f"{g}/state", api="sea"),
        Row("sea api legal", "get", f"{g}/legal", api="sea"),
        Row("sea api act", "post", f"{g}/actions", {"expected_index": 0, "action": {}}, api="sea"),
        Row("sea api log", "get", f"{g}/log", api="sea"),
        Row("sea api offers", "get", f"{g}/offers", api="sea"),
        Row("sea api offer", "post", f"{g}/offers", {}, api="sea"),
        Row("sea api reply", "post", f"{g}/offers/999999/accept", {}, api="sea"),
    ]


def rows(campaign: Campaign) -> list[Row]:
    return [
        *player_rows(),
        *seafaring_rows(),
        *api_rows(),
        *dashboard_rows(campaign),
        *world_rows(campaign),
        *admin_site_rows(),
        *admin_model_rows(campaign),
    ]


def admin_url(name: str, *args: Any) -> str:
    return reverse(f"admin:{name}", args=args)


# ---- What each role gets --------------------------------------------------------------------

PLAYER_PAGES = ("desk", "map", "history", "report", "report md", "report bbcode", "turn map")
PLAYER_PAGES += ("export", "bulletin md", "bulletin bbcode")
# The public map's link is for anyone holding it; a wrong one is not found, for everyone.
PUBLIC_MAP = {"public map": 200, "public map wrong": 404}
PLAYER_ACTIONS = ("order", "withdraw", "hire", "repair", "disband", "buyout", "priority")
# The seafaring game's pages for its seats (and, to look, its moderator), its moderator's pages,
# its API's public routes and those that take a seat's key.
SEA = ("sea desk", "sea poll", "sea act", "sea offers", "sea offer make", "sea offer reply")
SEA += ("sea api key", "sea log", "sea log md", "sea log bbcode", "sea table", "sea board png")
SEA_MOD = ("sea new game", "sea moderate", "sea export", "sea award", "sea replace")
SEA_MOD += ("sea act for", "sea undo")
SEA_API_PUBLIC = {
    "sea api root": 404,  # nothing lives at /api/games/ itself, as at /api/
    "sea api schema": 200,
    "sea api docs": 200,
    "sea api nowhere": 404,  # an unknown path: {code, message}, key or none
    "sea board public": 404,  # no login asked: a bad signature is not found, for everyone
}
SEA_API = ("sea api me", "sea api state", "sea api legal", "sea api act", "sea api log")
SEA_API += ("sea api offers", "sea api offer", "sea api reply")
# A seat's key: its state, legal actions, log and offers; the roll in setup refused (400), an
# empty offer not the schema's shape (422), an offer that does not exist not found (404).
SEA_SEAT_API = dict(zip(SEA_API, (200, 200, 200, 400, 200, 200, 422, 404), strict=True))
PLAYER_ACTIONS += ("economy withdraw",)
# A paste of written orders: the desk comes back (200) with each line's answer, for a player
# (another faction's fleet refused there) and for the moderator (refused on the all-fleets
# desk: written orders are given on a faction's).
WRITTEN = {"written orders": 200}
# Every API answer is JSON {code, message}: a path it does not have, a method it does not take,
# for anyone, with a key or without (issue 11).
API_NOWHERE = {"api unknown path": 404, "api wrong method": 405}
API = [r.name for r in api_rows()]
DASHBOARD = ("dashboard", *(f"turn {a}" for a in (*ACTIONS, "extend")), "progress")
DASHBOARD += ("pirate orders", "moderator order", "moderator written orders", "revoke key")
IMPORT = ("import page", "import nothing")
# The world editor: the new-campaign page for staff; the campaign's pages for its moderator only
# (404 for everyone else logged in, as the desk's; the login page for a visitor).
WORLD = ("world", "world check", "world open", "world export", "world add", "world row")
WORLD += ("world delete", "world drawing", "world drawing remove")
WORLD_MOD = {
    "world": 200,
    "world check": 200,
    "world open": "redirect",  # refused already_open, back to the check with the message
    "world export": 200,
    "world add": 400,  # the empty form, refused field by field
    "world row": 200,
    "world delete": "redirect",  # refused reason_required, back to the row's page
    "world drawing": "redirect",  # no file: refused, back to the editor with the message
    "world drawing remove": "redirect",  # refused reason_required, back to the editor
}
ADMIN_SITE = [r.name for r in admin_site_rows()]
MODELS = (
    "campaign",
    "navalsettings",
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
    "game",
    "seat",
    "action",
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
    "language": "redirect",  # anyone chooses the site's language: back to the page (`next`)
    "api root": 404,  # nothing lives at /api/ itself
    "api schema": 200,
    "api docs": 200,
    "admin login": 200,
    "admin logout": "redirect",  # to the admin's login page, as no longer (or never) logged in
    **API_NOWHERE,
    **PUBLIC_MAP,
}
# Anyone not allowed into the admin (not staff) is sent to its login page, as is an anonymous
# visitor from every page but the public ones; without a key, the API answers 401.
OUTSIDE_ADMIN = dict.fromkeys((*DASHBOARD, *IMPORT, *ADMIN_SITE, *ADMIN_MODEL), "login")
NO_KEY = {**dict.fromkeys(API, 401), **dict.fromkeys(SEA_API, 401), **SEA_API_PUBLIC}
ANONYMOUS = {
    **dict.fromkeys(
        ("home", "moderating", *PLAYER_PAGES, *PLAYER_ACTIONS, "api key", *SEA, *SEA_MOD), "login"
    ),
    "written orders": "login",
    "orders final": "login",
    "order address": "login",
    "replace public map": "login",
    **dict.fromkeys(("world new", *WORLD), "login"),
    **OUTSIDE_ADMIN,
    **NO_KEY,
    **PUBLIC,
}
# Logged in, not a member: the campaign's pages do not exist for them (404, not 403, so that a
# campaign's existence is not given away).
STRANGER = {
    **ANONYMOUS,
    "home": 200,
    "moderating": 404,  # a staff page: for anyone else logged in, no such page
    **dict.fromkeys((*PLAYER_PAGES, *PLAYER_ACTIONS, "api key", *SEA, *SEA_MOD), 404),
    "replace public map": 404,  # the moderator's only: for anyone else, no such page
    **dict.fromkeys(("world new", *WORLD), 404),
    "written orders": 404,
    "orders final": 404,
    "order address": 404,  # the moderator too: an order address is a faction's player's
}
# The Danes' player: their own fleet d2; an action comes back to the desk with its message.
DANES = {
    **STRANGER,
    **dict.fromkeys(PLAYER_PAGES, 200),
    **dict.fromkeys(PLAYER_ACTIONS, "redirect"),
    **WRITTEN,
    # Their seat's pages; the roll refused on the desk (wrong_phase), the empty offer and the
    # reply to no offer refused on the offers' page (200, with the refusal).
    **dict.fromkeys(SEA, 200),
    "sea poll": 204,  # the game has not moved since the page's index
    **SEA_SEAT_API,
    "api key": 200,
    "order address": "redirect",  # back to the desk, the new address on it
    "api me": 200,
    "api state": 200,
    "api legal": 200,
    "api orders": 200,
    "api give": 201,
    "api withdraw": 204,
    "api turns": 200,
    "api report": 200,
    "api final": 200,
    "orders final": "redirect",
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
            # A seafaring game's log is only changed through its services (seafarers/admin.py).
            "game delete",
            "seat add",
            "seat delete",
            "action add",
            "action delete",
            # A naval campaign's settings come with it from its import, and stay.
            "navalsettings add",
            "navalsettings delete",
        ),
        403,
    ),
    "game add": "redirect",  # to the new-game page (seafarers/views/moderate.py)
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
    "sea new game": 200,  # staff may make a game (and moderate it); not this one's pages
    "world new": 200,  # and a naval campaign
    "moderating": 200,  # the games they moderate (their own only: tests/campaign)
}
MOD = {
    **RIVAL,
    **{k: v for k, v in DANES.items() if k in (*PLAYER_PAGES, "api key")},
    **dict.fromkeys(PLAYER_ACTIONS, "redirect"),
    **WRITTEN,
    **dict.fromkeys(API[3:], 200),
    "api give": 400,  # orders for a faction are given on the dashboard, not with a key
    "api withdraw": 400,
    "api final": 400,  # not_commander: only a faction's player marks its orders final
    "orders final": "redirect",  # refused not_commander, back to the desk with the message
    **API_NOWHERE,
    "order": "redirect",
    "withdraw": "redirect",
    **dict.fromkeys(DASHBOARD, "redirect"),
    "replace public map": "redirect",  # back to the export page, with a message
    **dict.fromkeys(SEA, 200),  # the game's moderator looks; acting is refused not_your_seat
    "sea poll": 204,
    "sea api key": 404,  # a key is a seat's; the moderator holds none
    **dict.fromkeys(SEA_MOD, "redirect"),  # each button refused (no log index), with a message
    "sea new game": 200,
    "sea moderate": 200,
    "sea export": 200,
    "sea replace": 200,  # refused, the dashboard drawn with the refusal at the form, as typed
    "dashboard": 200,
    "progress": 200,
    **WORLD_MOD,
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
    key = sea_key = None
    if role in ("danes", "swedes", "mod", "rival"):
        key = token_issue(membership=user.memberships.get(campaign__ruleset="naval"))
    table = rows(open_skirmish)  # the seafaring game is made here, before its seats' keys
    seat = (
        Seat.objects.filter(game__campaign__slug=SEA_SLUG, membership__user=user).first()
        if user
        else None
    )
    if seat is not None:
        sea_key = seat_key_issue(seat=seat)
    got: dict[str, int | str] = {}
    for row in table:
        client = Client()
        with transaction.atomic():
            cache.clear()
            headers = {}
            bearer = sea_key if row.api == "sea" else key
            if row.api and bearer:
                headers["Authorization"] = f"Bearer {bearer}"
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
