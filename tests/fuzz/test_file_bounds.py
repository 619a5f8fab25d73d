"""Every file read is bounded in time and memory (issue 11): a few hundred bytes of nested YAML
aliases (a "billion laughs") took 75 s and 3 GB in `adjudicate` and `campaign_import`, and
seconds of a web process on the admin's import page; a file past the size limit is refused before
it is parsed. The real YAML loader on real files, the command as a real process."""

from __future__ import annotations

import subprocess
import sys
import time
from io import StringIO
from pathlib import Path

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from campaign.models import Campaign
from campaign.scenario_files import MAX_ALIASED, MAX_YAML_BYTES, read_scenario_document
from engine.naval import ScenarioError

ROOT = Path(__file__).resolve().parents[2]
BALTIC = ROOT / "examples" / "baltic.campaign.yaml"


def bomb(levels: int) -> str:
    """Nine aliases of the level below at each level: 9**levels strings from ~40 bytes a level."""
    lines = ['l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for n in range(1, levels):
        lines.append(f"l{n}: &l{n} [" + ",".join([f"*l{n - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def test_the_billion_laughs_through_adjudicate_ends_at_once(tmp_path: Path) -> None:
    path = tmp_path / "bomb.scenario.yaml"
    path.write_text(bomb(9))  # 9**9 = 387 million strings
    assert path.stat().st_size < 500
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "manage.py", "adjudicate", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,  # before the fix: 75 s and 3 GB
    )
    assert time.monotonic() - started < 30
    assert done.returncode == 2, done.stderr
    assert f"its aliases repeat more than {MAX_ALIASED:,} values" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.django_db
def test_an_alias_bomb_through_campaign_import_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bomb.campaign.yaml"
    path.write_text(bomb(6))  # 531,441 strings: seconds before the fix, then other problems
    with pytest.raises(CommandError) as refused:
        call_command("campaign_import", str(path), stdout=StringIO(), stderr=(err := StringIO()))
    assert refused.value.returncode == 2
    assert f"not a YAML file this tool reads: its aliases repeat more than {MAX_ALIASED:,}" in (
        err.getvalue()
    )
    assert not Campaign.objects.exists()


@pytest.mark.django_db
def test_an_alias_bomb_on_the_admin_import_page_is_refused(admin_client) -> None:
    page = admin_client.post(
        "/admin/campaign/campaign/import/",
        {"file": SimpleUploadedFile("bomb.yaml", bomb(9).encode())},
    )
    assert page.status_code == 200
    assert f"its aliases repeat more than {MAX_ALIASED:,} values" in page.content.decode()
    assert not Campaign.objects.exists()


def test_aliases_within_the_budget_still_read(tmp_path: Path) -> None:
    path = tmp_path / "small.yaml"
    path.write_text(bomb(5))  # 9**5 = 59,049 strings
    assert len(read_scenario_document(path)["l4"]) == 9  # type: ignore[index]


def test_a_campaign_file_with_an_anchor_imports_as_without(tmp_path: Path) -> None:
    text = BALTIC.read_text()
    document = yaml.safe_load(text)
    document["x-ships"] = document["fleets"][0]["ships"]  # the same list, written as an alias
    path = tmp_path / "anchored.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False))
    assert "*id" in path.read_text()
    assert read_scenario_document(path) == document


@pytest.mark.parametrize("suffix", ["yaml", "json"])
def test_a_file_past_the_size_limit_is_refused_before_it_is_parsed(
    tmp_path: Path, suffix: str
) -> None:
    path = tmp_path / f"big.{suffix}"
    limit = MAX_YAML_BYTES if suffix == "yaml" else 16_000_000
    path.write_bytes(b"[" + b" " * limit + b"]")
    with pytest.raises(ScenarioError) as refused:
        read_scenario_document(path)
    assert [str(p) for p in refused.value.problems] == [f"the file is larger than {limit:,} bytes"]


def test_adjudicate_reads_at_most_the_limit_from_stdin() -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", "adjudicate", "-"],
        cwd=ROOT,
        input=b"[" + b" " * 16_000_001 + b"]",
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert b"the file is larger than 16,000,000 bytes" in done.stderr
