"""What the load benches' simulated players share (bench/load.py, bench/seafarers_load.py): one
keep-alive connection each with its cookies, every request timed and recorded as a `Sample`,
and gunicorn's access log read back into each route's times in the server.

`http.client` of the standard library, no dependency: a player is a thread of the bench, in a
closed loop. gunicorn's sync workers close a connection after each response, so a request sent
on a connection closed in the meantime is sent again, once, on a new one.
"""

from __future__ import annotations

import http.client
import json
import re
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

# Method, path, status, microseconds in the worker: what gunicorn writes for each request.
ACCESS_FORMAT = "%(m)s %(U)s %(s)s %(D)s"


@dataclass(frozen=True, slots=True)
class Sample:
    kind: str
    status: int
    seconds: float  # the client's clock, from sending to the last byte of the answer
    phase: str = ""
    error: str = ""


class Unexpected(Exception):
    """A response the player did not expect (recorded as an error; the run fails)."""


@dataclass(frozen=True, slots=True)
class Response:
    status: int
    headers: dict[str, str]  # names in lower case
    text: str


class Connection:
    """One player's connection and cookies; every request is appended to `samples`."""

    def __init__(self, port: int, samples: list[Sample], phase: list[str] | None = None) -> None:
        self.port = port
        self.samples = samples
        self.phase = phase  # shared with the run: the phase now running, if it has phases
        self.cookies: dict[str, str] = {}
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)

    def request(
        self,
        kind: str,
        method: str,
        path: str,
        *,
        headers: dict[str, str] | None = None,
        form: dict[str, Any] | list[tuple[str, Any]] | None = None,
        body: dict[str, Any] | None = None,
        expect: tuple[int, ...] = (200,),
        cookies: bool = True,
    ) -> Response:
        """Send, time and record; Unexpected unless the status is one of `expect`. `cookies`:
        send the connection's cookies (it keeps those it is sent either way)."""
        sent = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
        if cookies and self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if form is not None:
            data = urlencode(form, doseq=True).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        elif body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        phase = self.phase[0] if self.phase else ""
        start = time.perf_counter()
        try:
            response = self._send(method, path, data, sent)
        except (OSError, http.client.HTTPException) as error:
            self.samples.append(Sample(kind, 0, time.perf_counter() - start, phase, repr(error)))
            self.conn.close()
            raise Unexpected(f"{kind} {path}: {error!r}") from error
        seconds = time.perf_counter() - start
        problem = "" if response.status in expect else f"status {response.status}, wanted {expect}"
        self.samples.append(Sample(kind, response.status, seconds, phase, problem))
        if problem:
            raise Unexpected(f"{kind} {method} {path}: {problem}: {response.text[:300]}")
        return response

    def _send(
        self, method: str, path: str, data: bytes | None, headers: dict[str, str]
    ) -> Response:
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                text = response.read().decode()
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.conn.close()
                if attempt == 2:
                    raise
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        if response.getheader("Connection", "").lower() == "close":
            self.conn.close()
        return Response(response.status, {k.lower(): v for k, v in response.getheaders()}, text)


@dataclass(frozen=True, slots=True)
class Route:
    """A route of the access log: its method, a pattern of its path, its name in the figures;
    with `status`, only the requests answered with it."""

    method: str
    pattern: str
    name: str
    status: str | None = None


def server_times(log: Path, routes: list[Route]) -> dict[str, list[float]]:
    """Each route's times in a gunicorn worker (seconds), from reading the request to writing
    the response (the wait in the listen queue before a worker takes it is not in them); the
    first route that matches a line counts it, "other" those none matches."""
    times: dict[str, list[float]] = defaultdict(list)
    if not log.exists():
        return times
    compiled = [(r, re.compile(r.pattern)) for r in routes]
    for line in log.read_text().splitlines():
        parts = line.split()
        if len(parts) != 4:
            continue
        method, path, status, micros = parts
        for route, pattern in compiled:
            if (
                method == route.method
                and route.status in (None, status)
                and pattern.fullmatch(path)
            ):
                times[route.name].append(int(micros) / 1e6)
                break
        else:
            times["other"].append(int(micros) / 1e6)
    return times


def gunicorn_args(port: int, workers: int, access_log: Path) -> list[str]:
    """The benches' gunicorn: sync workers on a local port, the access log in ACCESS_FORMAT."""
    return [
        "-m", "gunicorn", "config.wsgi:application",
        "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
        "--backlog", "2048", "--timeout", "300",
        "--access-logfile", str(access_log), "--access-logformat", ACCESS_FORMAT,
    ]  # fmt: skip
