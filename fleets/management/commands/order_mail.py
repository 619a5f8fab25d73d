"""`manage.py order_mail --port 2525`: the SMTP listener of orders by e-mail (README,
"Production"), beside the web server and the worker."""

from __future__ import annotations

import logging
import signal
import threading
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from fleets.mail_listener import order_mail_controller
from fleets.order_mail import SEEN

log = logging.getLogger("fleets.order_mail")


class Command(BaseCommand):
    help = "Listen for orders by e-mail (SMTP) and answer each mail at once."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1", help="the address to listen on")
        parser.add_argument("--port", type=int, default=2525)
        parser.add_argument("--threads", type=int, default=4, help="mails read at once")

    def handle(self, *args: Any, **options: Any) -> None:
        controller = order_mail_controller(
            host=options["host"], port=options["port"], threads=options["threads"]
        )
        controller.start()
        self.stdout.write(f"order mail: listening on {options['host']}:{options['port']}")
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        try:
            while not stop.wait(600):
                log.info("order mail: %s", dict(SEEN))  # unknown tokens counted here
        finally:
            controller.stop()
            self.stdout.write(f"order mail: stopped ({dict(SEEN)})")
