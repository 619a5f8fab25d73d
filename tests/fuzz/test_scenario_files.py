"""Scenario files through `adjudicate` (issue 5): whatever the file, the command ends with a
result that keeps the invariants (exit 0) or with every problem listed by its place (exit 2),
never a traceback."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import CommandError, call_command
from hypothesis import given
from hypothesis import strategies as st

from engine.naval import ScenarioError, adjudicate
from tests.engine.naval.invariants import check_invariants
from tests.fuzz.mutations import mutated
from tests.fuzz.profile import FUZZ

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "baltic-skirmish.scenario.json"
SCENARIO = json.loads(EXAMPLE.read_text())


def outcome(document: object) -> dict[str, Any] | list[str]:
    """The result, or the problems as the command prints them; anything else is a bug."""
    given = copy.deepcopy(document)
    try:
        result = adjudicate(document)
    except ScenarioError as error:
        assert document == given, "a refused file was changed"
        problems = error.problems
    else:
        assert document == given, "adjudicate changed its input"
        json.dumps(result)  # the result is JSON as it stands
        check_invariants(copy.deepcopy(document), result)  # type: ignore[arg-type]
        return result
    assert problems, "a refusal names at least one problem"
    for problem in problems:
        assert problem.message, problem
        assert problem.path or not isinstance(document, dict), problem
    return [str(p) for p in problems]


# Cases the fuzzers found, kept (each crashed or hung the engine, or was wrongly accepted, before
# its fix).
def _with(change: Any) -> dict[str, Any]:
    doc = copy.deepcopy(SCENARIO)
    change(doc)
    return doc


FOUND = {
    "unhashable order type": _with(lambda d: d["orders"][0].update(type=["move"])),
    "unhashable stance": _with(lambda d: d["orders"][0].update(stance=["engage"])),
    "unhashable prefer": _with(lambda d: d["orders"][0].update(prefer={"a": 1})),
    "unhashable ship owner": _with(lambda d: d["fleets"][0]["ships"][0].update(owner=["danes"])),
    "fleet without ships": _with(lambda d: d["fleets"][0].pop("ships")),
    "endless battle": _with(
        lambda d: (
            d["rules"].update(max_rounds=10**9),
            [t.update(attack=0) for t in d["ship_types"]],
        )
    ),
    "retreat with mixed keys": _with(lambda d: d["orders"][0].update(retreat={"below": 1, 2: 3})),
}


@pytest.mark.parametrize("name", sorted(FOUND))
def test_what_the_fuzzers_found_is_refused_plainly(name: str) -> None:
    assert isinstance(outcome(FOUND[name]), list | dict)


@FUZZ
@given(mutated(SCENARIO))
def test_a_mutated_scenario_gives_a_result_or_its_problems(doc: dict[str, Any]) -> None:
    outcome(doc)


@FUZZ
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
        ),
        max_leaves=20,
    )
)
def test_any_json_value_is_refused_with_its_problems(doc: object) -> None:
    assert isinstance(outcome(doc), list)


def run_command(path: Path) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command("adjudicate", str(path), stdout=out, stderr=err)
    except CommandError as error:
        return error.returncode, out.getvalue(), f"{err.getvalue()}\n{error}"
    return 0, out.getvalue(), err.getvalue()


def check_command(path: Path) -> None:
    code, out, err = run_command(path)
    assert "Traceback" not in out + err
    if code == 0:
        result = json.loads(out)
        document = json.loads(path.read_text()) if path.suffix == ".json" else None
        if document is not None:
            check_invariants(document, result)
    else:
        assert code == 2, err
        assert "is not a valid scenario" in err
        problems = err.strip("\n").splitlines()[:-1]
        assert problems, err  # the problems first, one an indented line, then the summary
        assert all(line.startswith("  ") for line in problems[:1]), err


BROKEN_FILES: dict[str, bytes] = {
    "empty.json": b"",
    "not-json.json": b"{format: naval-scenario/1",
    "random-bytes.json": bytes(range(256)),
    "latin-1.json": '{"format": "naval-scenario/1", "map": "Øresund"}'.encode("latin-1"),
    "deep.json": b"[" * 100_000 + b"]" * 100_000,
    "deep.yaml": b"[" * 100_000 + b"]" * 100_000,
    "huge-int.json": b'{"format": "naval-scenario/1", "seed": 1' + b"0" * 5000 + b"}",
    "huge-int.yaml": b"format: naval-scenario/1\nseed: 1" + b"0" * 5000 + b"\n",
    "nan.json": b'{"format": "naval-scenario/1", "seed": NaN, "map": {}}',
    "not-yaml.yaml": b"format: [unclosed\n  - : :",
    "yaml-tags.yaml": b"format: !!python/object:os.system ls\n",
    "yaml-set.yaml": b"format: naval-scenario/1\nmap: !!set {a, b}\n",
    "yaml-date.yaml": b"format: naval-scenario/1\nmap: {provinces: [{id: 2026-11-29}]}\n",
    "yaml-int-keys.yaml": b"format: naval-scenario/1\nmap: {}\n1: 2\n",
    "top-list.json": b"[1, 2, 3]",
    "surrogate.json": b'{"format": "naval-scenario/1", "map": {}, "relations": '
    b'[{"between": ["\\ud800", "\\ud800"], "state": "war"},'
    b' {"between": ["a\\ud800", "b"], "state": "war"},'
    b' {"between": ["a\\ud800", "b"], "state": "war"}]}',
    "nul.json": b'{"format": "naval-scenario/1\\u0000", "map": {}}',
}


@pytest.mark.parametrize("name", sorted(BROKEN_FILES))
def test_a_broken_file_lists_its_problems(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(BROKEN_FILES[name])
    code, _, err = run_command(path)
    assert code == 2, err
    assert "Traceback" not in err


@FUZZ
@given(mutated(SCENARIO), st.sampled_from(["json", "yaml"]))
def test_a_mutated_file_through_the_command(
    tmp_path_factory, doc: dict[str, Any], kind: str
) -> None:
    path = tmp_path_factory.mktemp("fuzz") / f"case.{kind}"
    text = json.dumps(doc) if kind == "json" else yaml.safe_dump(doc)
    path.write_text(text)
    check_command(path)


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes_through_the_command(tmp_path_factory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "case.json"
    path.write_bytes(data)
    check_command(path)


@pytest.mark.parametrize(
    "name", ["deep.json", "huge-int.yaml", "random-bytes.json", "top-list.json", "surrogate.json"]
)
def test_a_broken_file_through_a_real_process(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(BROKEN_FILES[name])
    done = subprocess.run(
        [sys.executable, "manage.py", "adjudicate", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "is not a valid scenario" in done.stderr


def test_a_good_file_through_a_real_process() -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", "adjudicate", str(EXAMPLE)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    check_invariants(copy.deepcopy(SCENARIO), json.loads(done.stdout))
