"""`make run` serves as a moderator would run a real game (issue 20 §4): DEBUG off, the site's own
404 and 500 pages (never Django's DEBUG page listing every URL), static files through WhiteNoise,
plain HTTP on 127.0.0.1 and a secret key kept in a file, so a second run keeps the sessions.

The live test starts `manage.py runserver` with the very variables the Makefile's `run` sets
(read from `make -n run`), on a database and a STATIC_ROOT of its own."""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client, RequestFactory
from django.views.defaults import server_error

from config.settings import secret_key_from_file

ROOT = Path(__file__).resolve().parents[1]
MAKE = shutil.which("make")


def run_env(data: Path, *args: str) -> dict[str, str]:
    """The variables `make run` gives runserver (its last command), with DATA=`data`."""
    done = subprocess.run(
        [str(MAKE), "--no-print-directory", "-C", str(ROOT), "-n", "run", f"DATA={data}", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    runserver = next(line for line in done.stdout.splitlines() if "runserver" in line)
    words = shlex.split(runserver)
    return dict(word.split("=", 1) for word in words[: words.index(".venv/bin/python")])


def test_a_secret_key_file_is_made_once_for_its_owner_and_read_after(tmp_path: Path) -> None:
    path = tmp_path / "var" / "secret_key"
    key = secret_key_from_file(path)
    assert len(key) >= 50
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert secret_key_from_file(path) == key  # the second run: the same key


@pytest.mark.skipif(MAKE is None, reason="make is not installed")
def test_make_run_sets_debug_off_plain_http_and_a_kept_key(tmp_path: Path) -> None:
    env = run_env(tmp_path)
    assert env["DEBUG"] == "false"
    assert env["HTTPS"] == "false"  # no redirect to https://127.0.0.1
    assert env["ALLOWED_HOSTS"] == "127.0.0.1,localhost"
    assert env["SECRET_KEY_FILE"] == f"{tmp_path}/secret_key"
    for line in subprocess.run(
        [str(MAKE), "-C", str(ROOT), "-n", "run"], capture_output=True, text=True, timeout=60
    ).stdout.splitlines():
        if "manage.py" in line:  # every step sees the same settings as the server
            assert line.startswith("DEBUG=false HTTPS=false"), line


def test_with_debug_off_an_unknown_address_gets_the_sites_404(client: Client) -> None:
    assert settings.DEBUG is False
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "<h1>Not found</h1>" in page
    assert "⚓ Admiralty" in page
    assert "URLconf" not in page
    assert "urlpatterns" not in page


def test_a_removed_player_gets_the_sites_404(client: Client, people, open_skirmish) -> None:
    client.force_login(people["hanse"])
    assert client.get(f"/c/{open_skirmish.slug}/").status_code == 200
    people["hanse"].memberships.get().delete()
    response = client.get(f"/c/{open_skirmish.slug}/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "<h1>Not found</h1>" in page
    assert "Your campaigns" in page
    assert "URLconf" not in page


def test_the_500_page_is_the_sites_and_needs_no_context() -> None:
    # Django renders it with no request, no user, no context processors at all.
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    page = response.content.decode()
    assert "<h1>Something went wrong</h1>" in page
    assert "⚓ Admiralty" in page
    assert "(server_error)" in page


def test_with_debug_off_whitenoise_serves_the_collected_static_files(
    tmp_path: Path, settings
) -> None:
    from django.core.management import call_command

    settings.STATIC_ROOT = tmp_path / "static"
    settings.DEBUG = False
    call_command("collectstatic", "--noinput", "-v0")
    response = Client().get("/static/admin/css/base.css")  # a new client: a new WhiteNoise
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
    assert response["Cache-Control"] == "max-age=60, public"  # WhiteNoise's, with DEBUG off
    assert b"".join(response.streaming_content).startswith(b"/*")
    assert Client().get("/static/admin/css/no-such.css").status_code == 404


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(url: str) -> tuple[int, dict[str, str], str]:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(url, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


@pytest.mark.slow
@pytest.mark.skipif(MAKE is None, reason="make is not installed")
def test_the_make_run_server_shows_the_sites_404_and_serves_static_files(
    tmp_path: Path,
) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "DEBUG")},
        **run_env(tmp_path / "var"),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "STATIC_ROOT": str(tmp_path / "static"),
    }
    env.pop("SECRET_KEY", None)

    def manage(*args: str) -> None:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr

    manage("migrate", "--noinput", "-v0")
    manage("collectstatic", "--noinput", "-v0")
    key = (tmp_path / "var" / "secret_key").read_text()
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        status, _, _ = _get(f"{base}/c/no-such-campaign/")
        assert status in (302, 404)  # the desk asks a stranger to log in first
        status, _, page = _get(f"{base}/no/such/page/")
        assert status == 404
        assert "<h1>Not found</h1>" in page
        assert "⚓ Admiralty" in page
        assert "URLconf" not in page
        assert "Django" not in page
        status, headers, _css = _get(f"{base}/static/admin/css/base.css")
        assert status == 200
        assert headers["Content-Type"].startswith("text/css")
        status, headers, _ = _get(f"{base}/accounts/login/")
        assert status == 200  # plain HTTP: no redirect to https://
        assert "Strict-Transport-Security" not in headers
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert (tmp_path / "var" / "secret_key").read_text() == key  # made once, kept


@pytest.mark.skipif(MAKE is None, reason="make is not installed")
def test_make_run_keeps_the_mail_in_files_unless_asked_to_print_it(tmp_path: Path) -> None:
    env = run_env(tmp_path)
    assert env["EMAIL_BACKEND"] == "django.core.mail.backends.filebased.EmailBackend"
    assert env["EMAIL_FILE_PATH"] == f"{tmp_path}/mail"
    console = run_env(tmp_path, "MAIL=console")["EMAIL_BACKEND"]
    assert console == "django.core.mail.backends.console.EmailBackend"
    assert run_env(tmp_path, "EMAIL_BACKEND=my.Backend")["EMAIL_BACKEND"] == "my.Backend"


@pytest.mark.django_db(transaction=True)  # the mail leaves after the commit, as in make run
def test_the_demos_mail_goes_to_its_folder_not_between_the_banners(
    tmp_path: Path, settings, capsys: pytest.CaptureFixture[str]
) -> None:
    from django.core.management import call_command

    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path / "mail")
    call_command("demo", "--address", "http://127.0.0.1:8000/")
    call_command("seafarers_demo", "--address", "http://127.0.0.1:8000/")
    printed = capsys.readouterr().out
    assert "Subject:" not in printed
    assert "Content-Type:" not in printed
    kept = "".join(p.read_text() for p in (tmp_path / "mail").iterdir())
    assert "Subject:" in kept  # the demo did send mail: to the folder
