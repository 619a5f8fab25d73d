"""The moderator's forms for a seafaring game (issue 13, "Setting up" and "Moderating").

Forms check shape (a number in range, a slug, a user name that names an account); the engine and
the services check the rules. Every message ends with its stable code in brackets, as on the
naval pages, so a refusal reads the same wherever it is shown.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib.auth import get_user_model

from campaign.languages import language_field
from campaign.models import Campaign
from campaign.scenario_files import check_size, described, read_scenario_document
from engine.kernel.problems import ScenarioError
from engine.seafarers import State
from seafarers.action_words import action_words
from seafarers.board_places import Places
from seafarers.boards import BUNDLED, COLOURS, bundled_document

MAX_SEATS = len(COLOURS)
# A player the game waits on is reminded after this many hours (issue 13; Game.reminder_hours):
# at least 1, at most two weeks, on the new-game page and the dashboard alike.
REMINDER_HOURS = (1, 24 * 14)
SOURCES = [
    ("board", "a bundled board"),
    ("generator", "the board generator (seeded)"),
    ("file", "a scenario file (seafarers-scenario/1)"),
]
PIRATE = [
    ("keep", "as the board has it (X16: played when the board places the pirate)"),
    ("off", "no pirate (a 7 or a Knight moves the robber only)"),
]


def island_ids(document: dict[str, Any] | None) -> list[str]:
    """The island ids of a board document, for the setup islands' help (B20)."""
    board = (document or {}).get("board") or {}
    return [str(island.get("id")) for island in board.get("islands") or []]


class NewGameForm(forms.Form):
    """A new game: where its board comes from, its name and slug, the seats in seat order (a user
    name or the bot each), and the `rules` settings of seafarers-format.md (blank: the board's or
    the file's own)."""

    name = forms.CharField(max_length=Campaign._meta.get_field("name").max_length)
    slug = forms.SlugField(
        max_length=Campaign._meta.get_field("slug").max_length,
        help_text="The game's address: /g/<slug>/.",
    )
    source = forms.ChoiceField(choices=SOURCES, widget=forms.RadioSelect, initial="board")
    board = forms.ChoiceField(
        choices=[(key, key.replace("-", " ").title()) for key in BUNDLED], required=False
    )
    board.help_text = "Their islands: " + "; ".join(
        f"{key}: {', '.join(island_ids(bundled_document(key)))}" for key in BUNDLED
    )
    generator_seed = forms.IntegerField(min_value=0, max_value=2**63 - 1, required=False)
    file = forms.FileField(required=False)
    # Labelled in words (the field names stay the format's `rules` keys, which posts use); the
    # help cites the clause each setting belongs to.
    victory_points = forms.IntegerField(
        min_value=3,
        max_value=30,
        required=False,
        label="Victory points to win",
        help_text="A player wins on reaching this many during his own turn (seafarers.md X20). "
        "Blank: the board's or the file's (10 if they say nothing).",
    )
    svp_new_island = forms.IntegerField(
        min_value=0,
        max_value=10,
        required=False,
        label="Special victory point for a new island",
        help_text="Points for a player's first settlement on an island that is not one of his "
        "home islands, once per island; 2 in the official scenarios (seafarers.md X19). "
        "Blank: the board's or the file's (0 if they say nothing).",
    )
    setup_islands = forms.CharField(
        required=False,
        max_length=500,
        label="Islands for the setup settlements",
        help_text="Island ids, separated by commas; “anywhere” for no limit; blank: the board's "
        "(seafarers.md B20).",
    )
    pirate = forms.ChoiceField(choices=PIRATE, initial="keep", label="The pirate (PI, X16)")
    # Not a rule of the game: the platform's reminder to a player the game waits on (issue 13).
    reminder_hours = forms.IntegerField(
        min_value=REMINDER_HOURS[0],
        max_value=REMINDER_HOURS[1],
        required=False,
        label="Remind a player after (hours; blank: 24)",
        help_text="A player the game has waited on this long is reminded once, by e-mail and "
        "on the game's webhook.",
    )
    # The game's language (issue 22; Campaign.language): stored and shown for now.
    language = language_field(
        "The game's language",
        "Its log, exports and forum posts will be written in it.",
        blank_is_english=True,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for q in range(MAX_SEATS):
            self.fields[f"seat_{q}"] = forms.CharField(
                required=False, max_length=150, label=f"Seat {q + 1} ({COLOURS[q]}): user name"
            )
            self.fields[f"bot_{q}"] = forms.BooleanField(required=False, label="the bot")
        self.document: dict[str, Any] | None = None  # the uploaded file's, once read

    def rules_fields(self) -> list[Any]:
        """The `rules` settings' fields, in the template's order."""
        return [self[name] for name in ("victory_points", "svp_new_island", "setup_islands")]

    def seat_rows(self) -> list[tuple[Any, Any, str]]:
        """The seats' fields in seat order, for the template: (name field, bot field, colour)."""
        return [(self[f"seat_{q}"], self[f"bot_{q}"], COLOURS[q]) for q in range(MAX_SEATS)]

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data["slug"]
        if Campaign.objects.filter(slug=slug).exists():
            raise forms.ValidationError("That slug is taken by another campaign (slug_taken).")
        return slug

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        source = cleaned.get("source")
        if source == "board" and not cleaned.get("board"):
            self.add_error("board", "Choose a bundled board (bad_source).")
        if source == "generator" and cleaned.get("generator_seed") is None:
            self.add_error("generator_seed", "Give the generator a seed (bad_source).")
        if source == "file":
            self._read_file(cleaned.get("file"))
        cleaned["seats"] = self._seats(cleaned)
        return cleaned

    def _read_file(self, upload: Any) -> None:
        """The file through the platform's reader (size first, then JSON or YAML); every problem
        with its place in the file."""
        if upload is None:
            self.add_error("file", "Choose a scenario file (bad_source).")
            return
        text: str | None = None
        try:
            check_size(upload.name or "", upload.size or 0)  # before reading any of it
            text = upload.read().decode("utf-8")
            document = read_scenario_document(upload.name or "", text)
        except UnicodeDecodeError:
            self.add_error("file", "The file is not UTF-8 text (invalid_file).")
            return
        except ScenarioError as error:
            self.problems = described(error.problems, text)
            self.add_error("file", "The file was not read: its problems are listed (invalid_file).")
            return
        if not isinstance(document, dict) or document.get("format") != "seafarers-scenario/1":
            self.add_error("file", "This is not a seafarers-scenario/1 file (wrong_format).")
            return
        self.document = document
        self.text = text

    def _seats(self, cleaned: dict[str, Any]) -> list[str | None]:
        """The seats in seat order: a user name, or None for the bot. Rows after the last one
        given are not seats; a gap before it is refused (the seat order is the rows' order)."""
        rows = []
        for q in range(MAX_SEATS):
            name = (cleaned.get(f"seat_{q}") or "").strip()
            bot = bool(cleaned.get(f"bot_{q}"))
            if name and bot:
                self.add_error(f"seat_{q}", "A seat is a user or the bot, not both (bad_seats).")
            rows.append(None if bot else name or "")
        while rows and rows[-1] == "":
            rows.pop()
        if any(row == "" for row in rows):
            self.add_error(None, "Give the seats in order, with no empty seat between (bad_seats).")
        names = [row for row in rows if row]
        known = set(
            get_user_model().objects.filter(username__in=names).values_list("username", flat=True)
        )
        for q, row in enumerate(rows):
            if row and row not in known:
                self.add_error(f"seat_{q}", f"There is no user named {row!r} (unknown_user).")
        if len(set(names)) != len(names):
            self.add_error(None, "A user holds one seat at most (bad_seats).")
        if len(rows) < 2:
            self.add_error(None, f"A game has 2 to {MAX_SEATS} seats (bad_seats).")
        return [row or None for row in rows]

    def rules(self) -> dict[str, Any]:
        """The `rules` keys the moderator set (the others stay the board's or the file's)."""
        cleaned = self.cleaned_data
        rules: dict[str, Any] = {
            key: cleaned[key]
            for key in ("victory_points", "svp_new_island")
            if cleaned.get(key) is not None
        }
        islands = (cleaned.get("setup_islands") or "").strip()
        if islands.lower() == "anywhere":
            rules["setup_islands"] = None
        elif islands:
            rules["setup_islands"] = [part.strip() for part in islands.split(",") if part.strip()]
        return rules


class ReasonForm(forms.Form):
    """A button's form: the log's length the page was shown at (`index`: a stale page is refused
    `game_moved_on`) and why (kept in the audit log)."""

    index = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    reason = forms.CharField(max_length=500, required=False)


class ReminderForm(ReasonForm):
    """The reminder's time changed after creation (docs/rulings.md S-38); the reason is
    required (reason_required, checked with its code by the view)."""

    hours = forms.IntegerField(
        min_value=REMINDER_HOURS[0],
        max_value=REMINDER_HOURS[1],
        label="Remind a player after (hours)",
    )
    reason = forms.CharField(
        max_length=500,
        required=False,
        label="Why (it goes to the audit log)",
        widget=forms.TextInput(attrs={"required": True, "size": 30}),
    )


class LanguageForm(ReasonForm):
    """The game's language changed on its dashboard (issue 22; Campaign.language), audited
    `campaign_language` with the old and new; a reason is optional."""

    language = language_field("The game's language")
    reason = forms.CharField(
        max_length=500,
        required=False,
        label="Why (optional; it goes to the audit log)",
        widget=forms.TextInput(attrs={"size": 30}),
    )


class ActForForm(ReasonForm):
    """G4: one of the seat's legal actions, sent for it; the reason is required."""

    # Required by the service (act_for: reason_required), which says so with its code.
    reason = forms.CharField(
        max_length=500,
        required=False,
        label="Why (it goes to the audit log)",
        widget=forms.TextInput(attrs={"required": True, "size": 40}),
    )
    # The choice is offered from legal_actions; what is posted is checked by the engine (X25),
    # so a stale choice is refused with the engine's code rather than a form's.
    action = forms.CharField(max_length=2000, label="Action", widget=forms.Select)

    def __init__(
        self,
        *args: Any,
        legal: list[dict[str, Any]] | None = None,
        places: Places | None = None,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        # In the players' words, as the desk says them (issue 20 §4).
        self.fields["action"].widget.choices = [
            (action_key(a), action_words(a, places)) for a in legal or [] if places is not None
        ]

    def chosen(self) -> dict[str, Any]:
        action: dict[str, Any] = json.loads(self.cleaned_data["action"])
        return action


class BoardActForForm(ActForForm):
    """G4 on the board (issue 20 §4): the places the seat may act on, grouped as the desk lists
    them ("Build a road": …), posted to the same view as ActForForm. A tap on the board fills
    the choice (static/seafarers/board-taps.js: `data-board-action`) and sends nothing while the
    reason (`data-board-reason`) is empty; the service refuses an empty one all the same."""

    def __init__(
        self, *args: Any, groups: list[tuple[str, list[tuple[str, str]]]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        action, reason = self.fields["action"].widget, self.fields["reason"].widget
        action.choices = groups
        action.attrs["data-board-action"] = ""
        reason.attrs["data-board-reason"] = ""


class AwardForm(ReasonForm):
    """X19, G4: special points under a building of a player."""

    reason = forms.CharField(
        max_length=500,
        required=False,
        label="Why (the scenario's goal reached)",
        widget=forms.TextInput(attrs={"required": True, "size": 40}),
    )
    # "player node", offered from the board's buildings; the engine checks it (award_svp).
    building = forms.CharField(max_length=200, label="Under the building", widget=forms.Select)
    points = forms.IntegerField(min_value=1, max_value=5, initial=1)

    def __init__(
        self, *args: Any, state: State | None = None, places: Places | None = None, **kwargs: Any
    ):
        super().__init__(*args, **kwargs)
        choices = buildings(state, places) if state is not None else []
        self.fields["building"].widget.choices = choices

    def clean_building(self) -> str:
        building: str = self.cleaned_data["building"]
        if " " not in building.strip():
            raise forms.ValidationError("Name a player and a building's node (invalid_request).")
        return building.strip()

    def player_and_node(self) -> tuple[str, str]:
        player, node = self.cleaned_data["building"].split(" ", 1)
        return player, node


class ReplaceForm(ReasonForm):
    """The seat passes to another user, or to the bot (no user name)."""

    player = forms.ChoiceField(label="Seat")
    username = forms.CharField(
        max_length=150, required=False, label="New player's user name (blank: the bot)"
    )

    def __init__(self, *args: Any, players: list[str] | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [(p, p) for p in players or []]  # type: ignore[attr-defined]

    def clean_username(self) -> str | None:
        name = (self.cleaned_data.get("username") or "").strip()
        if name and not get_user_model().objects.filter(username=name).exists():
            raise forms.ValidationError(f"There is no user named {name!r} (unknown_user).")
        return name or None


def buildings(state: State, places: Places | None = None) -> list[tuple[str, str]]:
    """Every settlement and city on the board as a choice "player node" (X19: a token lies
    under a building of its player), the building in the players' words (issue 20 §4)."""
    places = places or Places(state)
    names = state.board.node_names
    out = []
    for p, pid in enumerate(state.players):
        for n in sorted(state.player_nodes[p], key=lambda n: places.node(names[n])):
            kind = "city" if state.node_level[n] == 2 else "settlement"
            out.append((f"{pid} {names[n]}", f"{pid}'s {kind} at {places.node(names[n])}"))
    return out


def action_key(action: dict[str, Any]) -> str:
    """An action as the form's value: its JSON, keys sorted (the same action, the same value)."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))
