"""What the tests of orders by e-mail share (issue 21 §2): the order addresses' domain and a
free port (the listener's fixture: tests/fleets/conftest.py)."""

from __future__ import annotations

import socket

DOMAIN = "orders.example.org"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
