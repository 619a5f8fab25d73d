"""The README's two commands on a fresh machine: `make test` installs Debian's Chromium when it is
missing, `make run` serves on `PORT` and prints links to it, and a missing python3.11 is said in
plain words. The recipes are run for real by make; only apt-get is a stand-in (a test must not
install packages), found first on a PATH where there is no chromium."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAKE = shutil.which("make")

pytestmark = pytest.mark.skipif(MAKE is None, reason="make is not installed")


def _make(*args: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": path} if path is not None else None
    return subprocess.run(
        [str(MAKE), "--no-print-directory", "-C", str(ROOT), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_make_test_installs_chromium_when_it_is_missing(tmp_path: Path) -> None:
    calls = tmp_path / "apt-get.calls"
    apt_get = tmp_path / "apt-get"
    apt_get.write_text(f'#!/bin/sh\necho "$@" >> {calls}\n')
    apt_get.chmod(0o755)
    done = _make("chromium", path=str(tmp_path))  # no chromium on this PATH
    assert done.returncode == 0, done.stderr
    assert "installing Debian's chromium" in done.stdout
    assert calls.read_text().splitlines() == ["update -qq", "install -y -qq chromium"]
    assert "chromium" in _make("-n", "test").stdout.split("-m pytest")[0]


def test_make_test_leaves_an_installed_chromium_alone(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in (("chromium", "true"), ("apt-get", "exit 1")):
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    done = _make("chromium", path=str(bin_dir))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == ""


def test_make_run_serves_on_port_and_prints_links_to_it() -> None:
    commands = _make("-n", "run", "PORT=8123").stdout
    assert "manage.py demo --address http://127.0.0.1:8123/" in commands
    assert "manage.py runserver 127.0.0.1:8123" in commands
    assert ":8000" not in commands


def test_a_missing_python_is_said_in_plain_words(tmp_path: Path) -> None:
    done = _make("venv", f"VENV={tmp_path / 'venv'}", "PYTHON=no-such-python3.11")
    assert done.returncode != 0
    assert "no-such-python3.11 is needed to create" in done.stdout
    assert "make PYTHON=" in done.stdout
    assert not (tmp_path / "venv").exists()
