"""The naval ruleset as the platform sees it (campaign/rulesets.py): simultaneous turns, resolved
whole on a worker by engine/naval, from documents read from this app's rows.

Registered by FleetsConfig.ready(); the platform reaches it only through `ruleset_of`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext, gettext_noop, pgettext, pgettext_lazy

from battles.services import battle_rows_delete, battle_rows_write
from campaign.bulk import insert_rows
from campaign.models import DOCUMENTS, Membership, Turn
from campaign.rulesets import (
    AuditWording,
    Cadence,
    DashboardPart,
    Document,
    Link,
    Listing,
    OpeningProblems,
    Pages,
    Ruleset,
)
from engine.naval import LegalOrders, Refusal, adjudicate, legal_orders, parse_scenario
from fleets.audit_words import AUDIT_WORDS
from fleets.campaign_files import read_campaign_file
from fleets.final import final_factions
from fleets.importing import ImportRefused, campaign_import
from fleets.mapping import apply_state, orders_document, world_document
from fleets.models import Faction, FinalOrders, LedgerLine, Order
from fleets.selectors import factions_without_orders
from fleets.services import order_check

DASHBOARD = "admin/fleets/dashboard/"  # the naval part's templates
# The naval admin pages the dashboard links to: words, URL name, and the filter's path to the
# campaign (a change page takes the campaign's id: the settings are one row per campaign).
ADMIN_PAGES = (
    ("Rules and fog of war", "admin:fleets_navalsettings_change", ""),
    ("Fleets and ships", "admin:fleets_fleet_changelist", "campaign"),
    ("Factions and treasuries", "admin:fleets_faction_changelist", "campaign"),
    ("Relations", "admin:fleets_relation_changelist", "campaign"),
    ("Ports", "admin:fleets_port_changelist", "campaign"),
    ("Orders as submitted", "admin:fleets_order_changelist", "turn__campaign"),
    ("Battle reports", "admin:battles_battle_changelist", "turn__campaign"),
)


# A turn's status as the players' home page words it (issue 22: in the reader's language).
TURN_STATUS_WORDS = {
    Turn.Status.DRAFT: pgettext_lazy("a turn's status", "draft"),
    Turn.Status.OPEN: pgettext_lazy("a turn's status", "open"),
    Turn.Status.LOCKED: pgettext_lazy("a turn's status", "locked"),
    Turn.Status.RESOLVING: pgettext_lazy("a turn's status", "resolving"),
    Turn.Status.RESOLVED: pgettext_lazy("a turn's status", "resolved"),
    Turn.Status.PUBLISHED: pgettext_lazy("a turn's status", "published"),
    Turn.Status.FAILED: pgettext_lazy("a turn's status", "failed"),
}


class NavalRuleset:
    key = "naval"
    # Shown to players: no file names (the rulebook is naval.md). Kept in English here and
    # translated where it is shown (`{% translate ruleset.name %}`; issue 22).
    name = gettext_noop("Naval campaign")
    cadence = Cadence.SIMULTANEOUS
    pages = Pages(desk="desk", map="campaign_map", reports="turns")

    def turn_document(self, turn: Any, *, seed: int | None = None) -> Document:
        """The scenario document (scenario-format.md): the world from the rows, the seed, the
        orders that count (the latest per slot), in that order of keys."""
        document: Document = world_document(turn.campaign)
        if seed is not None:
            document["seed"] = seed
        document["orders"] = orders_document(turn)
        return document

    def state_apply(self, campaign: Any, state: Document) -> None:
        apply_state(campaign, state)

    def input_check(self, *, turn: Any, seat: Any, entry: Mapping[str, Any]) -> Refusal | None:
        refusal: Refusal | None = order_check(turn=turn, faction=seat, order=dict(entry))
        return refusal

    def legal_inputs(self, *, turn: Any, seat: Any) -> dict[str, LegalOrders]:
        """Each of the faction's fleets' legal orders (naval.md: what a fleet can do now)."""
        world = parse_scenario(world_document(turn.campaign)).world
        return {
            key: legal_orders(world, key)
            for key, fleet in sorted(world.fleets.items())
            if fleet.owner == seat.key
        }

    def seats_waiting(self, turn: Any) -> list[Any]:
        """Whom the reminders go to: the factions with no orders yet, but not one whose player
        marked them final (R-91: "no orders, my fleets hold" is an answer)."""
        final = final_factions(turn)
        waiting: list[Any] = [f for f in factions_without_orders(turn) if f.pk not in final]
        return waiting

    def advance(self, document: Document) -> Document:
        """The whole turn (naval.md T1)."""
        return adjudicate(document)

    def result_rows_write(self, turn: Any, result: Document) -> None:
        """Battle and ledger rows, for lists and queries (the events themselves, every die
        included, are in the result): three statements in all."""
        events = result["events"]
        battle_rows_write(turn, events)
        faction_id = dict(
            Faction.objects.filter(campaign_id=turn.campaign_id).values_list("key", "id")
        )
        insert_rows(
            LedgerLine,
            ["turn", "faction", "kind", "amount"],
            [
                (turn.pk, faction_id[e["faction"]], e["type"], e["amount"])
                for e in events
                if "amount" in e
            ],
        )

    def result_rows_delete(self, turn: Any) -> None:
        LedgerLine.objects.filter(turn=turn).delete()
        battle_rows_delete(turn)

    def opening_problems(self, turn: Any) -> OpeningProblems | None:
        """The world editor's check (`world_check`: the campaign file's own checks and
        something to play, R-51) on the world as it stands: an imported campaign's draft turn
        opens from the dashboard only as the world editor's *Open the first turn* does, when
        the check finds nothing (R-72). The code is the editor's for the same refusal."""
        from fleets.world_editor import world_check  # it imports the admin: loaded when asked

        places = world_check(turn.campaign).places
        if not places:
            return None
        count = len(places)
        return OpeningProblems(
            code="world_invalid",
            message=(
                f"the world has {count} problem{'s' if count != 1 else ''}: "
                f"fix {'them' if count != 1 else 'it'}, then open"
            ),
            problems=[f"{place.words}: {place.message}" for place in places],
            check=Link("the check", reverse("world_check", args=[turn.campaign.slug])),
        )

    def moderator_dashboard(self, campaign: Any, turn: Any) -> DashboardPart:
        """Who has ordered (in the turn's section); the whole map, the result to review, an
        order for any faction, the pirates' suggestions; the members' API keys; the world's
        admin lists (fleets/moderation.py, templates/admin/fleets/dashboard/)."""
        from fleets.moderation import dashboard_context  # views: loaded with the admin

        return DashboardPart(
            turn=[f"{DASHBOARD}orders.html"],
            main=[f"{DASHBOARD}{name}.html" for name in ("map", "review", "order", "pirates")],
            side=[f"{DASHBOARD}api_keys.html"],
            links=[
                Link(text, reverse(page, args=[campaign.pk]))
                if page.endswith("_change")
                else Link(text, f"{reverse(page)}?{through}__id__exact={campaign.pk}")
                for text, page, through in ADMIN_PAGES
            ],
            context=dashboard_context(turn) if turn is not None else {},
        )

    def moderator_views(self) -> Sequence[tuple[str, Callable[..., Any], str]]:
        from fleets.moderation import (
            accept_pirate_orders,
            moderator_order,
            moderator_written_orders,
            revoke_api_key,
        )

        return [
            ("pirates/", accept_pirate_orders, "campaign_pirate_orders"),
            ("order/", moderator_order, "campaign_moderator_order"),
            ("written-orders/", moderator_written_orders, "campaign_moderator_written_orders"),
            ("keys/revoke/", revoke_api_key, "campaign_api_key_revoke"),
        ]

    def moderator_page(self, campaign: Any) -> Link:
        """The platform's dashboard in the admin, which holds the naval parts (above)."""
        return Link(gettext("Dashboard"), reverse("admin:campaign_dashboard", args=[campaign.pk]))

    def new_game_page(self) -> Link:
        return Link(gettext("A new naval campaign"), reverse("world_campaign_new"))

    # The moderator's orders, the pirates', upkeep priorities, revoked keys (fleets/audit_words.py).
    audit_words: Mapping[str, AuditWording] = AUDIT_WORDS

    def games_of(self, user: Any) -> list[Listing]:
        """The user's naval campaigns, each with its current turn; a player's turn is "theirs"
        while it is open and their faction has given no order yet, nor marked its orders final
        (R-91). Four queries."""
        memberships = list(
            Membership.objects.filter(user_id=user.pk, campaign__ruleset=self.key)
            .select_related("campaign", "faction")
            .order_by("campaign__name", "campaign__slug")
        )
        current: dict[int, Any] = {}
        turns = Turn.objects.filter(
            campaign_id__in=[m.campaign_id for m in memberships], archived=False
        ).defer(*DOCUMENTS)
        for last in turns.order_by("campaign_id", "number"):
            current[last.campaign_id] = last  # the last, by number
        ordered = set(
            Order.objects.filter(
                turn_id__in=[t.pk for t in current.values()], withdrawn=False
            ).values_list("turn_id", "faction_id")
        )
        final = set(
            FinalOrders.objects.filter(
                turn_id__in=[t.pk for t in current.values()], marked_at__isnull=False
            ).values_list("turn_id", "faction_id")
        )
        listings = []
        for m in memberships:
            turn = current.get(m.campaign_id)
            status = (
                gettext("turn %(number)s: %(status)s")
                % {"number": turn.number, "status": TURN_STATUS_WORDS[turn.status]}
                if turn
                else "—"
            )
            is_final = turn is not None and (turn.pk, m.faction_id) in final
            due = (
                turn is not None
                and turn.status == Turn.Status.OPEN
                and m.faction_id is not None
                and (turn.pk, m.faction_id) not in ordered
                and not is_final
            )
            if is_final and turn is not None and turn.status == Turn.Status.OPEN:
                status += gettext(", your orders are final")
            listings.append(
                Listing(
                    name=m.campaign.name,
                    slug=m.campaign.slug,
                    url=reverse(self.pages.desk, args=[m.campaign.slug]),
                    role=m.faction.name if m.faction else pgettext("a member's role", "moderator"),
                    status=status + (gettext(", your orders are due") if due else ""),
                    your_turn=due,
                )
            )
        return listings

    # Its members (issue 10): a player's seat is a faction, the membership's own column.
    membership_related: tuple[str, ...] = ("faction",)

    def seat_name(self, membership: Any) -> str:
        faction = membership.faction
        return f"{faction.name} ({faction.key})" if faction is not None else ""

    def membership_problem(self, membership: Any) -> str | None:
        """A naval player plays one faction, a moderator none (naval.md: a faction per player;
        the table checks only the second, for every ruleset)."""
        if membership.role == Membership.Role.PLAYER and membership.faction_id is None:
            return "A naval player plays a faction: choose one (faction_required)."
        if membership.role == Membership.Role.MODERATOR and membership.faction_id is not None:
            return "A moderator plays no faction: leave it empty (moderator_has_no_faction)."
        return None


NAVAL: Ruleset = NavalRuleset()  # mypy checks here that it is one


def campaign_file_import(document: Document, user: Any) -> Any:
    """A new campaign from a naval campaign file (docs/campaign-format.md), for the platform's
    `campaign_import` and the admin's import page (registered for CAMPAIGN_FORMAT)."""
    try:
        return campaign_import(read_campaign_file(document), user=user)
    except ImportRefused as error:  # the registry's readers say "cannot" with a ValueError
        raise ValueError(str(error)) from error
