"""Fixtures of the naval app's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fleets.mail_listener import order_mail_controller
from tests.fleets.mail_helpers import DOMAIN, free_port


@pytest.fixture
def listener(transactional_db, settings) -> Iterator[int]:  # type: ignore[no-untyped-def]
    """The order listener (aiosmtpd) on a free port for the test, its answers in Django's
    locmem outbox; the database shared with its threads (transactional_db)."""
    settings.ORDER_MAIL_DOMAIN = DOMAIN
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    port = free_port()
    controller = order_mail_controller(host="127.0.0.1", port=port)
    controller.start()
    yield port
    controller.stop()
    controller.handler.executor.shutdown()
