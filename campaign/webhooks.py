"""Posting to a campaign's webhook without letting it reach inside the site's network.

A moderator types the webhook's address, and the site's web and worker processes post to it: an
address on the loopback, a private range, link-local (a cloud's metadata service at
169.254.169.254), multicast or reserved would let a moderator make the site call its own
services. Such addresses are refused unless the site allows them (`WEBHOOK_ALLOW_PRIVATE`, for
a webhook on the same network, and for the tests' local server) — where the address is entered
(Campaign.clean) and again at the post, against the addresses the host resolves to then (a name
may resolve elsewhere by then). The post connects to the address that was checked, and follows
no redirect."""

from __future__ import annotations

import http.client
import ipaddress
import json
import logging
import re
import secrets
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings

TIMEOUT = 10  # seconds, to connect and for each read
log = logging.getLogger(__name__)


class WebhookRefused(Exception):
    """The address may not be posted to; `str(error)` says why, in plain words."""

    code = "webhook_refused"


def _refused_kind(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    """What makes an address one the site does not post to, or None."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    for kind, flag in (
        ("a loopback", address.is_loopback),
        ("a link-local", address.is_link_local),
        ("a multicast", address.is_multicast),
        ("an unspecified", address.is_unspecified),
        ("a reserved", address.is_reserved),
        ("a private", address.is_private),
        ("a non-public", not address.is_global),
    ):
        if flag:
            return kind
    return None


def vetted_addresses(url: str) -> tuple[str, int, list[str]]:
    """(host, port, addresses to connect to) of a webhook address; raises WebhookRefused."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise WebhookRefused("The webhook address must start with http:// or https:// and a host.")
    host = parts.hostname
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as error:
        raise WebhookRefused("The webhook address has a port that is not a number.") from error
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise WebhookRefused(f"The webhook's host {host} cannot be found.") from error
    addresses = list(dict.fromkeys(str(info[4][0]) for info in found))
    if not settings.WEBHOOK_ALLOW_PRIVATE:
        for address in addresses:
            kind = _refused_kind(ipaddress.ip_address(address.split("%")[0]))
            if kind is not None:
                raise WebhookRefused(
                    f"The webhook's host {host} is {kind} address ({address}): this site posts "
                    "only to public addresses (WEBHOOK_ALLOW_PRIVATE allows others)."
                )
    return host, port, addresses


class _PinnedHTTP(http.client.HTTPConnection):
    """Connects to the checked address, whatever the host name resolves to now."""

    def __init__(self, host: str, port: int, *, address: str) -> None:
        super().__init__(host, port, timeout=TIMEOUT)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """As _PinnedHTTP, over TLS, with the certificate checked against the host name."""

    def __init__(self, host: str, port: int, *, address: str) -> None:
        super().__init__(host, port, timeout=TIMEOUT)
        self.address = address

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def post_json(url: str, body: bytes) -> int:
    """POST the body to the webhook; its HTTP status. Raises WebhookRefused for an address that
    may not be posted to, OSError or http.client.HTTPException if the post fails, and
    WebhookFailed if the webhook answers anything but 2xx (a redirect is not followed)."""
    return post_body(url, body, "application/json")


def post_body(url: str, body: bytes, content_type: str) -> int:
    """POST a body of this content type to the webhook, as `post_json` does."""
    host, port, addresses = vetted_addresses(url)
    parts = urlsplit(url)
    kind = _PinnedHTTPS if parts.scheme == "https" else _PinnedHTTP
    connection = kind(host, port, address=addresses[0])
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        connection.request(
            "POST",
            target,
            body=body,
            headers={"Content-Type": content_type, "User-Agent": "Admiralty"},
        )
        response = connection.getresponse()
        response.read()
    finally:
        connection.close()
    if not 200 <= response.status < 300:
        raise WebhookFailed(f"the webhook answered HTTP {response.status}", response.status)
    return response.status


class WebhookFailed(Exception):
    """The webhook answered, but not with success (`status`: its HTTP status)."""

    def __init__(self, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.status = status


DISCORD_LIMIT = 2000  # characters in one Discord message
# Discord pings nobody for the message's text ("@everyone" in a player's or a fleet's name).
NO_MENTIONS: dict[str, list[str]] = {"parse": []}


def webhook_body(text: str) -> bytes:
    """A Discord-compatible message: the text cut to Discord's limit, and no mentions."""
    return json.dumps(webhook_message(text)).encode()


def webhook_message(text: str) -> dict[str, Any]:
    return {"content": text[:DISCORD_LIMIT], "allowed_mentions": NO_MENTIONS}


@dataclass(frozen=True)
class WebhookFile:
    """A file posted with the message (Discord shows an attached image under the text)."""

    filename: str  # plain: letters, digits, "-", "_" and "." (it goes in a header)
    content: bytes
    content_type: str = "image/png"
    description: str = ""  # the image's alt text

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[A-Za-z0-9_.-]{1,100}", self.filename):
            raise ValueError(f"not a plain file name: {self.filename!r}")


def multipart_body(text: str, files: Sequence[WebhookFile]) -> tuple[bytes, str]:
    """The message as Discord's webhooks take it with files: multipart/form-data holding
    `payload_json` (the message, with an `attachments` entry per file: its id, name and
    description) and each file as `files[n]`. (body, its Content-Type)."""
    payload = webhook_message(text)
    payload["attachments"] = [
        {"id": n, "filename": f.filename, "description": f.description[:1024]}
        for n, f in enumerate(files)
    ]
    boundary = "admiralty-" + secrets.token_hex(16)
    while any(boundary.encode() in f.content for f in files):  # (2^-128 a file: never, but)
        boundary = "admiralty-" + secrets.token_hex(16)
    mark = f"--{boundary}\r\n".encode()
    parts = [
        mark,
        b'Content-Disposition: form-data; name="payload_json"\r\n',
        b"Content-Type: application/json\r\n\r\n",
        json.dumps(payload).encode(),
        b"\r\n",
    ]
    for n, f in enumerate(files):
        parts += [
            mark,
            f'Content-Disposition: form-data; name="files[{n}]"; '
            f'filename="{f.filename}"\r\n'.encode(),
            f"Content-Type: {f.content_type}\r\n\r\n".encode(),
            f.content,
            b"\r\n",
        ]
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def post_with_files(url: str, text: str, files: Sequence[WebhookFile]) -> int:
    """POST the message with its files (multipart/form-data), as `post_json` does."""
    body, content_type = multipart_body(text, files)
    return post_body(url, body, content_type)


def webhook_post(url: str, text: str) -> None:
    """Post news to a campaign's webhook, for every ruleset; an address the site does not post to
    is logged and skipped (retrying would not help), a failed post raises for the task to retry."""
    try:
        post_json(url, webhook_body(text))
    except WebhookRefused as error:
        log.warning("%s: %s", error.code, error)
