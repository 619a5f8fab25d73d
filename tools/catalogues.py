"""The translation catalogues (issue 22; README, "Adding a language"): what is marked for
translation in the code and templates, and whether each language's catalogue
(locale/<code>/LC_MESSAGES/django.po) translates all of it, properly.

    python -m tools.catalogues extract   # makemessages: new messages into every catalogue
    python -m tools.catalogues check     # every problem of every catalogue; exit 1 if any

A catalogue is right when every message marked in the code is in it, no translation is empty or
fuzzy, each translation has the same placeholders as its English (`%(name)s`, `%s`, `{name}`;
for a plural message, every form has the English plural's), and its Plural-Forms header has as
many forms as its plural messages and picks the right one for the numbers in PLURAL_SAMPLES.
tests/i18n/test_catalogues.py runs the check; it never writes the committed catalogues: the
messages marked in the code are extracted by makemessages into a copy of the project.
"""

from __future__ import annotations

import gettext
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
# Where makemessages does not look: the tests, the benches and the engines (their refusals and
# reports are part of the file formats, not translated yet), and what is made, not written.
IGNORED = ["tests/*", "bench/*", "engine/*", "staticfiles/*", "var/*", "media/*", "docs/*"]
MAKEMESSAGES = ["--add-location=file", *(f"--ignore={pattern}" for pattern in IGNORED)]

# Numbers and the plural form each takes (the index of msgstr[n]), per language: a Plural-Forms
# header that chooses otherwise is wrong. Russian has three forms (1, 21 …; 2–4, 22–24 …; the rest).
PLURAL_SAMPLES: dict[str, dict[int, int]] = {
    "ru": {0: 2, 1: 0, 2: 1, 4: 1, 5: 2, 11: 2, 12: 2, 14: 2, 21: 0, 22: 1, 25: 2, 101: 0, 111: 2},
    "sv": {0: 1, 1: 0, 2: 1, 21: 1},
    "es": {0: 1, 1: 0, 2: 1, 21: 1},
}

# %(name)s, %s, %d … (not %%) and {name}, {0}, {} (not {{ or }}).
PERCENT = re.compile(
    r"%(?:\((?P<name>[^)]*)\))?[#0 +\-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[diouxXeEfFgGcrsa%]"
)
BRACE = re.compile(r"(?<!\{)\{(?P<name>[^{}]*)\}(?!\})")


@dataclass
class Entry:
    """One message of a catalogue."""

    msgid: str
    line: int  # where it starts in the file, for the problem's words
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)  # msgstr, or msgstr[n] by n
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)

    def named(self) -> str:
        where = f" (context {self.msgctxt!r})" if self.msgctxt else ""
        return f"line {self.line}: {self.msgid!r}{where}"


def _unquote(text: str) -> str:
    body = text.strip()
    if len(body) < 2 or body[0] != '"' or body[-1] != '"':
        raise ValueError(f"not a quoted string: {text!r}")
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}
    return re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), "\\" + m.group(1)), body[1:-1])


def parse_po(text: str) -> list[Entry]:
    """The entries of a .po file's text, the header (msgid "") first if it has one; obsolete
    entries (#~) are kept, marked."""
    entries: list[Entry] = []
    flags: set[str] = set()
    current: Entry | None = None
    field_name: str | None = None
    index = 0

    def finish() -> None:
        nonlocal current
        if current is not None:
            entries.append(current)
        current = None

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        is_obsolete = line.startswith("#~")
        if is_obsolete:
            line = line[2:].strip()
        if not line:
            finish()
            flags, field_name = set(), None
            continue
        if line.startswith("#,"):
            finish()
            flags |= {flag.strip() for flag in line[2:].split(",") if flag.strip()}
            continue
        if line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if keyword.startswith('"'):  # a continued string
            value = _unquote(line)
            if current is None or field_name is None:
                raise ValueError(f"line {number}: a string outside an entry")
            if field_name == "msgctxt":
                current.msgctxt = (current.msgctxt or "") + value
            elif field_name == "msgid":
                current.msgid += value
            elif field_name == "msgid_plural":
                current.msgid_plural = (current.msgid_plural or "") + value
            else:
                current.msgstr[index] += value
            continue
        if keyword == "msgctxt" or (keyword == "msgid" and (current is None or current.msgstr)):
            finish()
            current = Entry(msgid="", line=number, flags=flags, obsolete=is_obsolete)
            flags = set()
        if current is None:
            raise ValueError(f"line {number}: {keyword} before msgid")
        match = re.fullmatch(r"msgstr\[(\d+)\]", keyword)
        if keyword == "msgctxt":
            current.msgctxt, field_name = _unquote(rest), "msgctxt"
        elif keyword == "msgid":
            current.msgid, field_name = _unquote(rest), "msgid"
        elif keyword == "msgid_plural":
            current.msgid_plural, field_name = _unquote(rest), "msgid_plural"
        elif keyword == "msgstr" or match:
            index = int(match.group(1)) if match else 0
            current.msgstr[index], field_name = _unquote(rest), "msgstr"
        else:
            raise ValueError(f"line {number}: unknown keyword {keyword!r}")
    finish()
    return entries


def placeholders(text: str, *, percent: bool, brace: bool) -> Counter[str]:
    """The placeholders of a message: when `percent`, its %-placeholders (python-format, or any
    message with a %(name)s), when `brace` its {name} ones (python-brace-format, or any message
    that has one)."""
    found: Counter[str] = Counter()
    if percent:
        found.update(m.group(0) for m in PERCENT.finditer(text) if m.group(0) != "%%")
    if brace:
        found.update("{" + m.group("name") + "}" for m in BRACE.finditer(text))
    return found


def header_fields(entry: Entry) -> dict[str, str]:
    out = {}
    for line in entry.msgstr.get(0, "").splitlines():
        name, _, value = line.partition(":")
        if name.strip():
            out[name.strip()] = value.strip()
    return out


def plural_problems(language: str, entries: Sequence[Entry]) -> tuple[list[str], int | None]:
    """What is wrong with the Plural-Forms header, and its number of forms."""
    header = next((e for e in entries if e.msgid == "" and e.msgctxt is None), None)
    if header is None:
        return ['no header entry (msgid "")'], None
    problems = []
    if "fuzzy" in header.flags:
        problems.append("the header is marked fuzzy (gettext then ignores it)")
    fields = header_fields(header)
    if fields.get("Language") != language:
        problems.append(f"the header's Language is {fields.get('Language')!r}, not {language!r}")
    forms = fields.get("Plural-Forms", "")
    matched = re.fullmatch(r"\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.+?);?\s*", forms)
    if not matched:
        return [*problems, f"the Plural-Forms header {forms!r} cannot be read"], None
    nplurals = int(matched.group(1))
    try:
        choose = gettext.c2py(matched.group(2))
    except (ValueError, SyntaxError) as error:
        return [*problems, f"the plural expression cannot be read: {error}"], nplurals
    for number, form in PLURAL_SAMPLES.get(language, {}).items():
        chosen = choose(number)
        if chosen != form:
            problems.append(f"Plural-Forms chooses form {chosen} for {number}, not {form}")
    return problems, nplurals


def catalogue_problems(
    language: str, text: str, expected: Iterable[tuple[str | None, str]] | None = None
) -> list[str]:
    """Every problem of one catalogue's text; `expected`: the (context, msgid) pairs marked in the
    code, each of which must be in it."""
    try:
        entries = parse_po(text)
    except ValueError as error:
        return [f"cannot be read: {error}"]
    problems, nplurals = plural_problems(language, entries)
    live = [e for e in entries if not e.obsolete and not (e.msgid == "" and e.msgctxt is None)]
    for entry in live:
        name = entry.named()
        if "fuzzy" in entry.flags:
            problems.append(f"{name} is fuzzy")
        brace = "python-brace-format" in entry.flags
        if entry.msgid_plural is None:
            if set(entry.msgstr) != {0}:
                problems.append(f"{name} has plural forms but no msgid_plural")
            translated = entry.msgstr.get(0, "")
            if not translated.strip():
                problems.append(f"{name} is not translated (empty msgstr)")
                continue
            brace = brace or bool(BRACE.search(entry.msgid))
            percent = "python-format" in entry.flags or "%(" in entry.msgid
            want = placeholders(entry.msgid, percent=percent, brace=brace)
            got = placeholders(translated, percent=percent, brace=brace)
            if want != got:
                problems.append(f"{name}: placeholders {sorted(got)} differ from {sorted(want)}")
            continue
        if nplurals is not None and sorted(entry.msgstr) != list(range(nplurals)):
            problems.append(f"{name} has forms {sorted(entry.msgstr)}, not the header's {nplurals}")
        brace = brace or bool(BRACE.search(entry.msgid_plural))
        percent = "python-format" in entry.flags or "%(" in entry.msgid_plural
        want = placeholders(entry.msgid_plural, percent=percent, brace=brace)
        for n, translated in sorted(entry.msgstr.items()):
            if not translated.strip():
                problems.append(f"{name}: plural form {n} is not translated (empty msgstr[{n}])")
                continue
            got = placeholders(translated, percent=percent, brace=brace)
            if got != want:
                problems.append(
                    f"{name}: plural form {n}'s placeholders {sorted(got)} differ from "
                    f"{sorted(want)}"
                )
    if expected is not None:
        have = {e.key for e in live}
        for context, msgid in sorted(set(expected) - have, key=lambda k: (k[1], k[0] or "")):
            where = f" (context {context!r})" if context else ""
            problems.append(
                f"missing: {msgid!r}{where} is marked in the code, not in the catalogue"
            )
    return problems


def languages() -> list[str]:
    """The site's languages with a catalogue: every one but English (the messages' own)."""
    from django.conf import settings

    return [code for code, _ in settings.LANGUAGES if code != "en"]


def extracted(root: Path = ROOT) -> list[Entry]:
    """The messages marked in the code and templates, as makemessages finds them: run on a copy of
    the project (makemessages writes the catalogues it is run on), its .pot kept and read."""
    # Not copied: what makemessages does not read and Django needs not to start (the engines
    # are imported by the apps, so they are copied, and not read: IGNORED); hidden entries (.git,
    # .venv, the tools' caches) and what is made (the database, compiled modules and catalogues).
    skip = shutil.ignore_patterns(
        ".*", "__pycache__", "*.sqlite3*", "_compiled", "*.mo", "tests", "bench", "docs",
        "staticfiles", "var", "media", "node_modules",
    )  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="catalogues-") as work:
        copy = Path(work) / "project"
        shutil.copytree(root, copy, ignore=skip, symlinks=True)
        (copy / "locale").mkdir(exist_ok=True)
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
        run = subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-l", "en", "--keep-pot", *MAKEMESSAGES],
            cwd=copy,
            env=env,
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            raise RuntimeError(f"makemessages failed: {run.stderr or run.stdout}")
        return [e for e in parse_po((copy / "locale" / "django.pot").read_text()) if e.msgid]


def check(root: Path = ROOT) -> dict[str, list[str]]:
    """Every catalogue's problems, by language."""
    marked = [e.key for e in extracted(root)]
    out = {}
    for language in languages():
        path = root / "locale" / language / "LC_MESSAGES" / "django.po"
        if not path.exists():
            out[language] = [f"no catalogue: {path.relative_to(root)}"]
            continue
        out[language] = catalogue_problems(language, path.read_text(), marked)
    return out


def main(argv: Sequence[str]) -> int:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    django.setup()
    command = argv[0] if argv else "check"
    if command == "extract":
        from django.core.management import call_command

        os.chdir(ROOT)
        call_command("makemessages", *(f"-l{code}" for code in languages()), *MAKEMESSAGES)
        return 0
    if command != "check":
        print("usage: python -m tools.catalogues [check | extract]", file=sys.stderr)
        return 2
    found = check()
    for language, problems in found.items():
        for problem in problems:
            print(f"locale/{language}: {problem}")
    return 1 if any(found.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
