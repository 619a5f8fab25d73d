"""The seam between the platform and a game: what a ruleset provides, and the registry of them.

The platform (this app: campaigns, memberships, turns and their lifecycle, the audit log,
deadlines, notifications) runs any game the same way and never asks which game it is running; it
asks the game, through `ruleset_of(campaign)`. A ruleset's own app registers it when Django
starts (its AppConfig.ready()), so the platform imports no game: `naval` is registered by
`fleets` (fleets/ruleset.py), `seafarers` by the seafaring app (seafarers/ruleset.py).

Django's models are `Any` here (no django-stubs): the interface is typed strictly on everything
that is the game's and the platform's own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

Campaign = Any  # campaign.models.Campaign
Turn = Any  # campaign.models.Turn
Seat = Any  # what a membership plays: a naval faction, a seafaring colour
Membership = Any  # campaign.models.Membership
Document = dict[str, Any]  # a JSON document: a scenario, a result, a state


class Cadence(StrEnum):
    """How a game moves on, which decides what the platform's turn lifecycle does with it."""

    # Every seat gives its orders; when the turn locks, the whole turn is resolved at once on a
    # worker, then reviewed and published by the moderator (naval).
    SIMULTANEOUS = "simultaneous"
    # One seat acts at a time; each action is checked and applied at once, under the game's row
    # lock (seafarers).
    SEQUENTIAL = "sequential"


@dataclass(frozen=True)
class Pages:
    """The URL names of a ruleset's pages for a seat (each takes the campaign's slug)."""

    desk: str  # where a seat gives its orders or actions
    map: str  # the board as the seat may see it
    reports: str  # what happened: the campaign's published turns or its log


@dataclass(frozen=True)
class Listing:
    """One of a user's games, as the players' home page lists it."""

    name: str  # the campaign's name
    slug: str
    url: str  # where the user plays it (the desk), or the moderator looks at it
    role: str  # what the user is in it: a faction's name, a colour, "moderator"
    status: str  # plain words: the turn and whose it is, or how it stands
    your_turn: bool  # the game waits for this user (orders due, an action owed)


@dataclass(frozen=True)
class Link:
    """A link of the moderator's dashboard: words and where they lead."""

    text: str
    url: str


@dataclass(frozen=True)
class DashboardPart:
    """A ruleset's part of the moderator's dashboard (campaign/dashboard.py). The platform's
    page lays out what every game has — the turn with its status, buttons and progress, the
    campaign's settings, the audit log — and includes the game's templates at three places, each
    with the platform's variables (`campaign`, `turn`, `missing`: the seats waited for …) and
    `context`'s beside them."""

    turn: Sequence[str] = ()  # template names, inside the turn's section under its buttons
    main: Sequence[str] = ()  # sections of the wide column, after the turn's
    side: Sequence[str] = ()  # sections of the narrow column, before the audit log
    links: Sequence[Link] = ()  # the game's own pages (its admin lists), under the settings
    context: Mapping[str, Any] = field(default_factory=dict)  # what those templates read


@dataclass(frozen=True)
class OpeningProblems:
    """Why a draft turn is not opened (docs/rulings.md R-72): the ruleset's check of the world
    found something a turn cannot be played on. `code` and `message` as every refusal has them
    (`Refused`); `problems`, each in the moderator's words with its place; `check`, the game's
    page that lists them with a link to each row to change."""

    code: str
    message: str
    problems: Sequence[str]
    check: Link | None = None


@dataclass(frozen=True)
class Audited:
    """An audit entry as the log words it (campaign/audit_log.py): what a ruleset's wording of
    its own actions reads, so that it needs no row."""

    action: str  # the entry's id: "moderator_order", "act_for:build_road"
    detail: Mapping[str, Any]  # what the entry keeps ({} when the stored detail is no object)
    turn: str  # "turn 3", or "the turn" for an entry of no turn


# The words of one kind of audit entry, for the moderator's log on the dashboards.
AuditWording = Callable[[Audited], str]


class Refused(Protocol):
    """An input the rules refuse, with the code and the words shown beside it."""

    @property
    def code(self) -> str: ...

    @property
    def message(self) -> str: ...


class Ruleset(Protocol):
    """Everything the platform needs from a game."""

    key: str  # stored in Campaign.ruleset
    name: str  # shown to players and moderators (home page headings): plain words, no file name
    cadence: Cadence
    pages: Pages

    # Reading and writing the game's documents.
    def turn_document(self, turn: Turn, *, seed: int | None = None) -> Document:
        """What advancing the turn needs, read from the rows as they stand (the world, the
        seed when there is one, the inputs that count): stored with the turn when it locks."""
        ...

    def state_apply(self, campaign: Campaign, state: Document) -> None:
        """Write a state (a result's, or a stored document's when a turn is rolled back) to
        the game's rows."""
        ...

    # The seats' inputs.
    def input_check(self, *, turn: Turn, seat: Seat, entry: Mapping[str, Any]) -> Refused | None:
        """Why the seat cannot give this order or take this action now, or None."""
        ...

    def legal_inputs(self, *, turn: Turn, seat: Seat) -> Any:
        """What the seat may do now (legal orders, legal actions), for its desk and its bots."""
        ...

    def seats_waiting(self, turn: Turn) -> list[Seat]:
        """The seats the turn still waits for (to be reminded before the deadline)."""
        ...

    # Advancing the game.
    def advance(self, document: Document) -> Document:
        """The result of a stored turn document: pure, so running it twice gives the same."""
        ...

    def result_rows_write(self, turn: Turn, result: Document) -> None:
        """The rows the game keeps from a result for lists and queries (a fixed number of
        statements), inside the transaction that stores the result."""
        ...

    def result_rows_delete(self, turn: Turn) -> None:
        """Those rows again, when the turn is rolled back (the result itself is archived)."""
        ...

    # Opening a turn.
    def opening_problems(self, turn: Turn) -> OpeningProblems | None:
        """Why the draft turn may not be opened now (its world's problems), or None: asked by
        the dashboard's *Open* before the turn opens (lifecycle.turn_open_checked, R-72), under
        the turn's row lock, so an answer of None is the world the players get."""
        ...

    # Its pages.
    def moderator_dashboard(self, campaign: Campaign, turn: Turn | None) -> DashboardPart:
        """The game's part of the moderator's dashboard for the campaign and its current turn
        (None before it has one), beside the platform's: the turn's status, actions, deadline,
        progress, settings and audit log."""
        ...

    def moderator_views(self) -> Sequence[tuple[str, Callable[..., Any], str]]:
        """The game's own moderator actions as (route, view, URL name), served by the admin
        under a campaign (`<campaign_id>/route`); each view takes the request and campaign_id."""
        ...

    def moderator_page(self, campaign: Campaign) -> Link:
        """Where the campaign's moderator runs it (the game's dashboard), for the moderator's
        desk (campaign/views.py `moderating`)."""
        ...

    def new_game_page(self) -> Link:
        """Where staff make a new game of this ruleset (its creator becomes its moderator)."""
        ...

    # The words of the game's own audit actions, by action id; a key ending in ":" words a
    # family, every action it begins (seafaring "act_for:<the action's type>"). The platform
    # words its own (a turn's transitions, the memberships …) first and, for an id nobody
    # words, says the id in words (campaign/audit_log.py): so it knows no game's actions.
    audit_words: Mapping[str, AuditWording]

    def games_of(self, user: Any) -> Sequence[Listing]:
        """The user's campaigns of this ruleset (as a player or the moderator), for the home
        page, in a fixed number of queries."""
        ...

    # Its members (issue 10): every person in a campaign is a Membership; a player's seat is
    # the game's.
    def seat_name(self, membership: Membership) -> str:
        """What the member plays, in words (a faction's name and key, a colour); "" for the
        moderator. Reads only what `membership_related` names, so a list of memberships
        fetched with those costs no query a row."""
        ...

    # The relations of Membership that `seat_name` reads (for `select_related`).
    membership_related: tuple[str, ...]

    def membership_problem(self, membership: Membership) -> str | None:
        """Why a membership given or changed in the admin does not fit the game (plain words
        ending with a code in brackets), or None. `membership` is unsaved: the values asked
        for, with the pk of the one changed (None for a new one)."""
        ...


class SequentialRuleset(Ruleset, Protocol):
    """What a SEQUENTIAL ruleset adds: an input is applied when it is sent, under the game's
    row lock, instead of collected for a locked turn; the game is its log, written whole."""

    def input_apply(
        self, *, campaign: Campaign, user: Any, entry: Mapping[str, Any], expected_index: int
    ) -> Document:
        """Check and apply one seat's input now (refused: the ruleset's Refused exception,
        nothing changed); what it produced."""
        ...

    def campaign_document(self, campaign: Campaign) -> Document:
        """The whole game as the ruleset's file (first position and every input), for
        `campaign_export`: reading it back gives the same game."""
        ...


# A campaign file's reader by its `format`, for the formats a ruleset's app brings (naval:
# naval-campaign/1, also the reader of a file of no registered format, as the files from before
# the seam were all naval). The reader takes the document and the importing user and returns the
# new campaign, or raises engine.kernel's ScenarioError (every problem with its path) or
# ValueError (plain words).
CampaignFileImporter = Callable[[Document, Any], Campaign]
_FILE_IMPORTERS: dict[str, CampaignFileImporter] = {}
_DEFAULT_FORMAT: list[str] = []  # the format whose reader reads a file of no registered format


def campaign_file_register(
    file_format: str, importer: CampaignFileImporter, *, default: bool = False
) -> None:
    _FILE_IMPORTERS[file_format] = importer
    if default:
        _DEFAULT_FORMAT[:] = [file_format]


def campaign_file_importer(document: object) -> CampaignFileImporter | None:
    """The registered reader of the document's `format`, else the default reader (which says
    what is wrong with the file); None when no app registered one."""
    file_format = document.get("format") if isinstance(document, dict) else None
    if isinstance(file_format, str) and file_format in _FILE_IMPORTERS:
        return _FILE_IMPORTERS[file_format]
    return _FILE_IMPORTERS[_DEFAULT_FORMAT[0]] if _DEFAULT_FORMAT else None


# A campaign as its ruleset's campaign file, written out whole (naval: the world editor's export,
# registered by fleets), for `campaign_export --campaign-file`. The writer takes the campaign and
# one of CAMPAIGN_FILE_ENCODINGS and returns the file's text: the same text the game's own page
# gives, so the command and the browser give the same bytes. A ruleset that registers none has
# no campaign file (seafaring: its game is written whole as a scenario file, `campaign_document`).
CAMPAIGN_FILE_ENCODINGS = ("json", "yaml")  # docs/campaign-format.md: "YAML or JSON"
CampaignFileWriter = Callable[[Campaign, str], str]
_FILE_WRITERS: dict[str, CampaignFileWriter] = {}


def campaign_file_writer_register(ruleset_key: str, writer: CampaignFileWriter) -> None:
    _FILE_WRITERS[ruleset_key] = writer


def campaign_file_writer_of(campaign: Campaign) -> CampaignFileWriter | None:
    """The writer of the campaign's file for its ruleset, or None (the game has none)."""
    key = campaign.ruleset
    assert isinstance(key, str)
    return _FILE_WRITERS.get(key)


# What a ruleset posts to a campaign's webhook when a turn is published: the turn's public news
# as Markdown (naval: the bulletin of reports/, registered by fleets). A ruleset that registers
# none posts nothing.
TurnBulletin = Callable[[Turn], str]
_BULLETINS: dict[str, TurnBulletin] = {}


def bulletin_register(ruleset_key: str, writer: TurnBulletin) -> None:
    _BULLETINS[ruleset_key] = writer


def bulletin_of(campaign: Campaign) -> TurnBulletin | None:
    """The writer of the published turn's news for the campaign's ruleset, or None."""
    key = campaign.ruleset
    assert isinstance(key, str)
    return _BULLETINS.get(key)


# What a ruleset attaches to its bulletin's post (naval: the turn's public map as PNG, issue 11):
# a file name, the bytes and the image's alt text, or None. Drawn for the post; a writer that
# fails costs only the attachment, never the bulletin (notifications.post_bulletin).
BulletinPicture = Callable[[Turn], "tuple[str, bytes, str] | None"]
_PICTURES: dict[str, BulletinPicture] = {}


def bulletin_picture_register(ruleset_key: str, writer: BulletinPicture) -> None:
    _PICTURES[ruleset_key] = writer


def bulletin_picture_of(campaign: Campaign) -> BulletinPicture | None:
    key = campaign.ruleset
    assert isinstance(key, str)
    return _PICTURES.get(key)


# What a ruleset adds to each turn e-mail of one member (naval: the player's order address,
# issue 21 §2), or "" for nothing. Asked per recipient, so one member's words never reach
# another's mail.
MailFooter = Callable[[Membership], str]
_FOOTERS: dict[str, MailFooter] = {}


def mail_footer_register(ruleset_key: str, writer: MailFooter) -> None:
    _FOOTERS[ruleset_key] = writer


def mail_footer_of(campaign: Campaign) -> MailFooter | None:
    key = campaign.ruleset
    assert isinstance(key, str)
    return _FOOTERS.get(key)


_REGISTRY: dict[str, Ruleset] = {}


class UnknownRuleset(LookupError):
    """A campaign names a ruleset no installed app registered."""


def ruleset_register(ruleset: Ruleset) -> None:
    """Called once by the ruleset's app when Django starts; a second registration of the same
    key (the app set up twice, as in some test runners) replaces the first."""
    _REGISTRY[ruleset.key] = ruleset


def ruleset_get(key: str) -> Ruleset:
    try:
        return _REGISTRY[key]
    except KeyError:
        raise UnknownRuleset(
            f"No ruleset {key!r} is installed (installed: {', '.join(sorted(_REGISTRY))})."
        ) from None


def ruleset_of(campaign: Campaign) -> Ruleset:
    """The ruleset a campaign is played by: the one way the platform reaches a game."""
    key = campaign.ruleset
    assert isinstance(key, str)
    return ruleset_get(key)


def ruleset_all() -> list[Ruleset]:
    """Every installed ruleset, by key."""
    return [_REGISTRY[key] for key in sorted(_REGISTRY)]
