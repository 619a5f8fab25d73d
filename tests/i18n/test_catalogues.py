"""The translation catalogues (issue 22: "`make test` checks that every message in the code has a
translation in each catalogue — no empty msgstr, no fuzzy entries, placeholders identical — and
compiles the catalogues"). The messages marked in the code and templates are extracted by
makemessages into a copy of the project (tools/catalogues.py): the committed catalogues are
never written by a test. The checker is tried on bad catalogues of its own, so that it can fail."""

from __future__ import annotations

import gettext
import textwrap
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from tools import catalogues
from tools.catalogues import catalogue_problems, parse_po

LOCALE = Path(settings.BASE_DIR) / "locale"


@pytest.fixture(scope="module")
def marked() -> list[catalogues.Entry]:
    return catalogues.extracted()


def test_the_site_has_four_languages_each_named_in_itself() -> None:
    assert settings.LANGUAGES == [
        ("en", "English"),
        ("ru", "Русский"),
        ("sv", "Svenska"),
        ("es", "Español"),
    ]
    assert catalogues.languages() == ["ru", "sv", "es"]


def test_the_extraction_finds_the_messages_of_the_code_and_the_templates(marked) -> None:
    """Not an empty list that every catalogue would pass: messages of a template (base.html), a
    plural one (the home page), one with a context, and one of Python code (fleets/ruleset.py)."""
    keys = {e.key for e in marked}
    assert (None, "Log out") in keys
    assert ("the language switcher's button", "Change") in keys
    assert (None, "turn %(number)s: %(status)s") in keys
    plural = next(e for e in marked if e.msgid == "%(counter)s game waits for you.")
    assert plural.msgid_plural == "%(counter)s games wait for you."
    # What is not translated yet is not marked: the engines' refusals (engine/ is not read).
    assert not any("engine/" in e.msgid for e in marked)


@pytest.mark.parametrize("language", ["ru", "sv", "es"])
def test_each_catalogue_translates_every_marked_message(marked, language) -> None:
    path = LOCALE / language / "LC_MESSAGES" / "django.po"
    problems = catalogue_problems(language, path.read_text(), [e.key for e in marked])
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("language", ["ru", "sv", "es"])
def test_the_compiled_catalogue_is_the_committed_one(language) -> None:
    """`make messages` (run by `make test` and `make run`) compiled each .po: the .mo holds the
    same translations, so a page shows what the catalogue says."""
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    mo = po.with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: run `make messages`"
    with mo.open("rb") as compiled:
        table = gettext.GNUTranslations(compiled)
    for entry in parse_po(po.read_text()):
        if not entry.msgid or entry.obsolete:
            continue
        msgid = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
        if entry.msgid_plural is None:
            assert table.gettext(msgid) == entry.msgstr[0], f"{mo} is stale: run `make messages`"
        else:
            assert table.ngettext(msgid, entry.msgid_plural, 1) in entry.msgstr.values()


@pytest.mark.parametrize(
    ("number", "words"),
    [
        (1, "1 игра ждёт вашего хода."),
        (2, "2 игры ждут вашего хода."),
        (5, "5 игр ждут вашего хода."),
        (11, "11 игр ждут вашего хода."),
        (21, "21 игра ждёт вашего хода."),
        (24, "24 игры ждут вашего хода."),
    ],
)
def test_russian_has_three_plural_forms(number, words) -> None:
    with translation.override("ru"):
        said = translation.ngettext(
            "%(counter)s game waits for you.", "%(counter)s games wait for you.", number
        ) % {"counter": number}
    assert said == words


# -- the checker itself ----------------------------------------------------------------------
RUSSIAN_HEADER = r"""
msgid ""
msgstr ""
"Language: ru\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && "
"n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\n"
"""

GOOD = RUSSIAN_HEADER + textwrap.dedent(
    r"""
    #, python-format
    msgid "turn %(number)s"
    msgstr "ход %(number)s"

    msgctxt "a button"
    msgid "Change"
    msgstr "Сменить"

    msgid "Hello {name}"
    msgstr "Привет, {name}"

    #, python-format
    msgid "%(counter)s game"
    msgid_plural "%(counter)s games"
    msgstr[0] "%(counter)s игра"
    msgstr[1] "%(counter)s игры"
    msgstr[2] "%(counter)s игр"

    msgid ""
    "A long message "
    "over two lines."
    msgstr ""
    "Длинное сообщение "
    "в две строки."
    """
)
GOOD_KEYS = [
    (None, "turn %(number)s"),
    ("a button", "Change"),
    (None, "Hello {name}"),
    (None, "%(counter)s game"),
    (None, "A long message over two lines."),
]


def write(tmp_path: Path, text: str) -> str:
    """The catalogue written to a file and read back, as the check reads the committed ones."""
    path = tmp_path / "django.po"
    path.write_text(text)
    return path.read_text()


def test_a_right_catalogue_has_no_problems(tmp_path) -> None:
    assert catalogue_problems("ru", write(tmp_path, GOOD), GOOD_KEYS) == []


@pytest.mark.parametrize(
    ("broken", "problem"),
    [
        (  # a message marked in the code and missing from the catalogue
            GOOD,
            "missing: 'Log out' is marked in the code",
        ),
        (GOOD.replace('msgstr "Сменить"', 'msgstr ""'), "'Change' (context 'a button') is not"),
        (
            GOOD.replace('msgctxt "a button"', '#, fuzzy\nmsgctxt "a button"'),
            "'Change' (context 'a button') is fuzzy",
        ),
        (GOOD.replace("ход %(number)s", "ход %(num)s"), "placeholders ['%(num)s'] differ"),
        (GOOD.replace("ход %(number)s", "ход"), "placeholders [] differ from ['%(number)s']"),
        (GOOD.replace("Привет, {name}", "Привет, {who}"), "placeholders ['{who}'] differ"),
        (
            GOOD.replace('msgstr[1] "%(counter)s игры"', 'msgstr[1] "игры"'),
            "plural form 1's placeholders [] differ from ['%(counter)s']",
        ),
        (GOOD.replace('msgstr[2] "%(counter)s игр"', 'msgstr[2] ""'), "empty msgstr[2]"),
        (
            GOOD.replace('msgstr[2] "%(counter)s игр"\n', ""),
            "has forms [0, 1], not the header's 3",
        ),
        (  # a two-form header for Russian: 5 would take the form of 2
            GOOD.replace(
                '"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && "\n'
                '"n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"',
                '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
            ),
            "Plural-Forms chooses form 1 for 5, not 2",
        ),
        (GOOD.replace('"Language: ru\\n"', '"Language: sv\\n"'), "Language is 'sv', not 'ru'"),
        (
            GOOD.replace('msgid ""\nmsgstr ""\n"Lang', '#, fuzzy\nmsgid ""\nmsgstr ""\n"Lang'),
            "fuzzy",
        ),
        (GOOD.replace('msgid "turn', "msgid turn"), "cannot be read"),
    ],
)
def test_the_checker_finds_each_fault(tmp_path, broken, problem) -> None:
    keys = [*GOOD_KEYS, (None, "Log out")] if problem.startswith("missing") else GOOD_KEYS
    assert broken != GOOD or problem.startswith("missing")
    found = catalogue_problems("ru", write(tmp_path, broken), keys)
    assert any(problem in line for line in found), found


def test_the_checker_reads_what_makemessages_writes(marked) -> None:
    """The extraction's own .pot is read by the same parser: plural entries, contexts and
    multi-line messages (the 500 page's) come through whole."""
    long = [e for e in marked if e.msgid.startswith("If it happens again")]
    assert long
    assert long[0].msgid.endswith("the error is in the site's log.")
