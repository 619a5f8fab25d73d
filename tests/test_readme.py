"""The README shows real output: the example's report is exactly what `adjudicate` prints."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_example_report_is_current() -> None:
    out = StringIO()
    call_command(
        "adjudicate",
        str(ROOT / "examples" / "baltic-skirmish.scenario.json"),
        "--format",
        "text",
        stdout=out,
    )
    assert out.getvalue() in (ROOT / "README.md").read_text()


def test_the_readme_seafaring_report_is_current() -> None:
    out = StringIO()
    call_command(
        "adjudicate",
        str(ROOT / "examples" / "seafarers-skirmish.scenario.json"),
        "--format",
        "text",
        stdout=out,
    )
    assert out.getvalue() in (ROOT / "README.md").read_text()
