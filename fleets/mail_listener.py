"""The SMTP listener of orders by e-mail (aiosmtpd; `manage.py order_mail`): the site's mail
server forwards `orders+*@ORDER_MAIL_DOMAIN` here (README, "Production"). Each mail is read
on a thread of its own (Django's ORM is synchronous) and answered at SMTP level only when it
has been dealt with (fleets/order_mail.py, R-95)."""

from __future__ import annotations

import asyncio
import functools
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from aiosmtpd.controller import Controller

from fleets.order_addresses import token_in
from fleets.order_mail import MAX_MAIL, order_mail_receive

NOT_OURS = "550 5.1.1 Not an order address of this site"


class OrderMailHandler:
    """aiosmtpd's handler: RCPT takes order addresses only (a well-formed one; whether its
    token is known is not said, R-96); DATA reads the mail once per recipient."""

    def __init__(self, threads: int = 4) -> None:
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="order-mail")

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list[str]
    ) -> str:
        if token_in(address) is None:
            return NOT_OURS
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        data = envelope.original_content or envelope.content or b""
        loop = asyncio.get_running_loop()
        status = ""
        for recipient in envelope.rcpt_tos:
            received = await loop.run_in_executor(
                self.executor, functools.partial(order_mail_receive, recipient=recipient, data=data)
            )
            # One failed copy fails the mail: sent again, the copies already given answer
            # "unchanged", so none is given twice.
            if not received.status.startswith("250") or not status:
                status = received.status
        return status or "250 OK"


def order_mail_controller(*, host: str, port: int, threads: int = 4) -> Controller:
    """The listener, not yet started: `start()` serves on a thread of its own."""
    return Controller(
        OrderMailHandler(threads),
        hostname=host,
        port=port,
        data_size_limit=MAX_MAIL,
        ident="Admiralty order mail",
    )
