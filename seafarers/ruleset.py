"""The seafaring ruleset as the platform sees it (campaign/rulesets.py): SEQUENTIAL — one seat
acts at a time, each action checked and applied when it is sent (seafarers.md G1), so there is
no locked turn to resolve: the turn methods of the interface say so, and `input_apply` and
`campaign_document` are what the sequential cadence adds.

Registered by SeafarersConfig.ready(); the platform reaches it only through `ruleset_of`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Q
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext, gettext_noop, pgettext

from campaign.models import Campaign, Membership
from campaign.rulesets import (
    AuditWording,
    Cadence,
    DashboardPart,
    Document,
    Link,
    Listing,
    OpeningProblems,
    Pages,
    SequentialRuleset,
)
from engine.seafarers import Refusal, State, adjudicate, check, legal_actions
from engine.seafarers.refusals import Refused
from seafarers.audit_words import AUDIT_WORDS
from seafarers.models import Game, Seat
from seafarers.positions import replay, waiting_for
from seafarers.scenario_files import game_document, import_scenario_file
from seafarers.services import action_submit

__all__ = ["SEAFARERS", "SeafarersRuleset", "import_scenario_file"]


def _position(game: Game) -> State:
    return replay(
        game.first_position, game.actions.order_by("index").values_list("action", flat=True)
    )


def _game_of(turn: Any) -> Game:
    """A sequential game has no turns: the platform's turn methods get its campaign (or a turn
    of it, should there be one)."""
    campaign_id = turn.pk if isinstance(turn, Campaign) else turn.campaign_id
    return Game.objects.get(campaign_id=campaign_id)


class NoTurns(RuntimeError):
    """A sequential game has no locked turn; the platform asked for one by mistake."""


class SeafarersRuleset:
    key = "seafarers"
    # Shown to players: no file names (the rulebook is seafarers.md). Kept in English here and
    # translated where it is shown (`{% translate ruleset.name %}`; issue 22).
    name = gettext_noop("Seafarers")
    cadence = Cadence.SEQUENTIAL
    pages = Pages(desk="seafarers_desk", map="seafarers_board", reports="seafarers_log")

    def turn_document(self, turn: Any, *, seed: int | None = None) -> Document:
        """The whole game (first position and log): what `advance` would replay."""
        return game_document(_game_of(turn))

    def state_apply(self, campaign: Any, state: Document) -> None:
        # The position is never written from outside: it is the log's replay (G3).
        raise NoTurns("a seafaring game's state changes only by its actions")

    def input_check(self, *, turn: Any, seat: Any, entry: Mapping[str, Any]) -> Refusal | None:
        """The engine's check (X25) against the game's current position; `seat` is a Seat."""
        state = _position(seat.game)
        try:
            check(state, dict(entry))
        except Refused as refusal:
            return Refusal(seat.game.log_length, refusal.code, refusal.message)
        return None

    def legal_inputs(self, *, turn: Any, seat: Any) -> Any:
        state = _position(seat.game)
        return legal_actions(state, seat.player)

    def seats_waiting(self, turn: Any) -> list[Any]:
        game = _game_of(turn)
        waiting = waiting_for(_position(game))
        return list(game.seats.filter(player__in=waiting))

    def advance(self, document: Document) -> Document:
        """The game's file replayed (pure): its result, the current position in `state`."""
        return adjudicate(document)

    def result_rows_write(self, turn: Any, result: Document) -> None:
        raise NoTurns("a seafaring game's rows are written action by action")

    def result_rows_delete(self, turn: Any) -> None:
        raise NoTurns("a seafaring game is undone action by action (G3)")

    def opening_problems(self, turn: Any) -> OpeningProblems | None:
        """Nothing to check (R-72): a seafaring game has no turn to open — it starts on its own
        dashboard (`game_start`) from a first position its reader checked when the game was
        made (the bundled board, the generator, seafarers-scenario/1's reader)."""
        return None

    def moderator_dashboard(self, campaign: Any, turn: Any) -> DashboardPart:
        """The game is moderated on its own dashboard (seafarers/views/moderate.py): the
        admin's link to it."""
        return DashboardPart(
            links=[
                Link("The game's dashboard", reverse("seafarers_moderate", args=[campaign.slug]))
            ]
        )

    def moderator_page(self, campaign: Any) -> Link:
        """The game's own dashboard (seafarers/views/moderate.py), not the admin's."""
        return Link(gettext("Dashboard"), reverse("seafarers_moderate", args=[campaign.slug]))

    def new_game_page(self) -> Link:
        return Link(gettext("A new seafaring game"), reverse("seafarers_game_new"))

    def moderator_views(self) -> Sequence[tuple[str, Callable[..., Any], str]]:
        return ()  # the moderator's pages come with the action desk (a later session)

    # The game's lifecycle, undo, seats passed on, actions taken for a seat (audit_words.py).
    audit_words: Mapping[str, AuditWording] = AUDIT_WORDS

    def games_of(self, user: Any) -> list[Listing]:
        """The user's seafaring games — their seats, and those they moderate — with whose turn
        it is (G1: the current player, or those owing a discard or a gold pick). Two queries;
        the stored position is read, not replayed."""
        seats = {
            s.game_id: s.player
            for s in Seat.objects.filter(membership__user_id=user.pk).only("game_id", "player")
        }
        moderated = Membership.objects.filter(
            user_id=user.pk, role=Membership.Role.MODERATOR, campaign__ruleset=self.key
        ).values("campaign_id")
        games = (
            Game.objects.filter(Q(pk__in=list(seats)) | Q(campaign_id__in=moderated))
            .select_related("campaign")
            .order_by("campaign__name", "campaign__slug")
        )
        listings = []
        for game in games:
            player = seats.get(game.pk)
            waiting = _waiting(game.state) if game.status in _UNDER_WAY else []
            listings.append(
                Listing(
                    name=game.campaign.name,
                    slug=game.campaign.slug,
                    url=desk_url(game.campaign.slug),
                    role=player if player is not None else pgettext("a member's role", "moderator"),
                    status=_status(game, waiting),
                    your_turn=player is not None and player in waiting,
                )
            )
        return listings

    # Its members (issue 10): a player's seat is a Seat row pointing at the membership.
    membership_related: tuple[str, ...] = ("seafaring_seat",)

    def seat_name(self, membership: Any) -> str:
        if membership.pk is None:
            return ""
        try:
            seat = membership.seafaring_seat  # fetched with the membership where it can be
        except ObjectDoesNotExist:
            return ""
        return str(seat.player)

    def membership_problem(self, membership: Any) -> str | None:
        """A seat is given and passed on with its player's membership on the game's pages (the
        new-game page, "Replace a player"), audited there; the admin gives moderators only, and
        changes no seat's membership (docs/rulings.md S-42)."""
        if membership.role == Membership.Role.PLAYER:
            return (
                "A seafaring player's seat is given on the game's dashboard (Replace a player), "
                "not here (seat_on_dashboard)."
            )
        if membership.pk is not None and Seat.objects.filter(membership_id=membership.pk).exists():
            return (
                "This member holds a seat: pass it on on the game's dashboard (Replace a "
                "player) first (seat_on_dashboard)."
            )
        if membership.faction_id is not None:
            return "A seafaring game has no factions: leave it empty (no_factions)."
        return None

    # The sequential cadence.
    def input_apply(
        self, *, campaign: Any, user: Any, entry: Mapping[str, Any], expected_index: int
    ) -> Document:
        """G1: the action applied now (GameRefused: nothing changed); its log row's index and
        events."""
        game = Game.objects.get(campaign=campaign)
        row = action_submit(game=game, user=user, action=dict(entry), expected_index=expected_index)
        return {"index": row.index, "events": row.events}

    def campaign_document(self, campaign: Any) -> Document:
        return game_document(Game.objects.get(campaign=campaign))


_UNDER_WAY = (Game.Status.SETUP, Game.Status.PLAYING)


def _waiting(state: Document) -> list[str]:
    """positions.waiting_for, read off a stored position document (no replay for a list)."""
    turn = state["turn"]
    if turn["phase"] in ("discard", "gold"):
        owed = "discard" if turn["phase"] == "discard" else "gold_picks"
        return [p["id"] for p in state["players"] if p[owed]]
    return [] if turn["phase"] == "over" else [turn["player"]]


def _status(game: Game, waiting: list[str]) -> str:
    """How the game stands, for the home page, in the reader's language (issue 22); the seats'
    colours are the file's ids, as the desk shows them."""
    turn = game.state["turn"]
    if game.status == Game.Status.NEW:
        return gettext("not started")
    if game.status == Game.Status.PAUSED:
        return gettext("paused by the moderator")
    if game.status == Game.Status.OVER:
        if turn.get("winner"):
            return gettext("won by %(winner)s") % {"winner": turn["winner"]}
        return gettext("over")
    when = (
        gettext("setup")
        if game.status == Game.Status.SETUP
        else gettext("turn %(number)s") % {"number": turn["number"]}
    )
    who = {"when": when, "players": ", ".join(waiting)}
    if turn["phase"] == "discard":
        return gettext("%(when)s: %(players)s to discard") % who
    if turn["phase"] == "gold":
        return gettext("%(when)s: %(players)s to pick gold") % who
    return gettext("%(when)s: %(players)s to act") % who


def desk_url(slug: str) -> str:
    """The game's desk (a seat plays there; Pages.desk); until the desk's page is installed,
    the address it will have."""
    try:
        return reverse(SeafarersRuleset.pages.desk, args=[slug])
    except NoReverseMatch:
        return f"/g/{slug}/"


SEAFARERS: SequentialRuleset = SeafarersRuleset()
