"""Orders by e-mail (issue 21 §2, docs/rulings.md R-93–R-97): real SMTP (smtplib) to the
listener (aiosmtpd) started here on a free port; the answers are read from Django's e-mail
backend (locmem), which the listener sends them through. The database is real, shared with the
listener's threads (transactional_db)."""

from __future__ import annotations

import smtplib
import threading
from email import policy
from email.message import EmailMessage

import pytest
from django.core import mail
from django.db import connections

from campaign import lifecycle
from campaign.models import Membership
from fleets.mail_listener import order_mail_controller
from fleets.models import Faction, Order, OrderAddress
from fleets.order_addresses import order_address_replace, order_address_state
from fleets.order_mail import SEEN
from fleets.selectors import desk_for
from fleets.written import desk_written
from tests.fleets.mail_helpers import DOMAIN, free_port


def address(user) -> str:  # type: ignore[no-untyped-def]
    return order_address_state(user.memberships.get()).address


def message(
    to: str, body: str, *, subject: str = "turn 1", html: str | None = None, auto: str = ""
) -> bytes:
    mail_ = EmailMessage()
    if auto:
        mail_["Auto-Submitted"] = auto
    mail_["From"] = "someone@elsewhere.example"  # never trusted: the answer goes to the account
    mail_["To"] = to
    mail_["Subject"] = subject
    mail_["Message-ID"] = "<m1@elsewhere.example>"
    if html is None:
        mail_.set_content(body)
    else:
        mail_.add_alternative(html, subtype="html")
    return mail_.as_bytes(policy=policy.SMTP)  # CRLF line ends, as a mail server sends


def send(port: int, to: str, body: str | bytes, **kwargs: str) -> None:
    data = body if isinstance(body, bytes) else message(to, body, **kwargs)
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.sendmail("someone@elsewhere.example", [to], data)


def rows(faction_key: str | None = None) -> list[tuple[str, object]]:
    found = Order.objects.order_by("id")
    if faction_key:
        found = found.filter(faction__key=faction_key)
    return list(found.values_list("slot", "payload"))


def written_list(body: str) -> list[str]:
    """The answer's orders that count, a line each."""
    part = body.split("send them back):\n\n", 1)[1]
    return part.split("\n\n", 1)[0].splitlines()


def test_a_whole_turn_by_mail_is_given_and_answered_line_by_line(listener, people) -> None:
    body = (
        "d1: Kattegat; capture\n"
        "hire 2 frigate at Copenhagen\n"
        "upkeep priority d1, d2\n"
        "-- \n"
        "Anna, for the Danes\n"
        "d2: hold\n"  # in the signature: not read
    )
    send(listener, address(people["danes"]), body)
    given = rows()
    assert [slot.split(":")[0] for slot, _ in given] == ["fleet", "hire"]
    assert given[1][1]["count"] == 2
    assert Faction.objects.get(
        key="danes", campaign__slug="skirmish-in-the-sound"
    ).upkeep_priority == [
        "d1",
        "d2",
    ]
    [answer] = mail.outbox
    assert answer.to == ["danes@example.org"]  # the account's, not the From
    assert answer.subject == "Re: turn 1"
    assert answer.extra_headers["In-Reply-To"] == "<m1@elsewhere.example>"
    assert "line 1: accepted — " in answer.body
    assert "line 2: accepted — " in answer.body
    assert "line 3: accepted — Upkeep priority: d1, d2" in answer.body
    assert "line 6" not in answer.body
    assert written_list(answer.body) == [
        "d1: kattegat; capture",
        "hire 2 frigate at copenhagen",
        "upkeep priority d1, d2",
    ]
    assert address(people["danes"]) in answer.body  # every answer names the address


def test_good_and_bad_lines_are_each_answered(listener, people) -> None:
    send(listener, address(people["danes"]), "d1: hold\nd1x: hold\nd2: sail to Atlantis\n")
    [answer] = mail.outbox
    assert "line 1: accepted — Hold" in answer.body
    assert "line 2: refused (unknown_fleet)" in answer.body
    assert "line 3: refused (unknown_province)" in answer.body
    assert [slot for slot, _ in rows()] == ["fleet:d1"]
    assert written_list(answer.body) == ["d1: hold", "upkeep priority d1"]


def test_a_quoted_reply_reads_only_the_new_lines(listener, people) -> None:
    body = (
        "d1: hold\n"
        "\n"
        "On Mon, 7 Dec 2026 at 10:00, Admiralty <admiralty@localhost> wrote:\n"
        "> d1: kattegat; capture\n"
        ">> hire 2 frigate at copenhagen\n"
    )
    send(listener, address(people["danes"]), body, subject="Re: your orders")
    [answer] = mail.outbox
    assert answer.subject == "Re: your orders"
    said = [line for line in answer.body.splitlines() if line.startswith("line ")]
    assert said == ["line 1: accepted — Hold"]
    assert [p["type"] for _, p in rows()] == ["hold"]


def test_a_wrong_token_gets_no_answer_and_is_counted(listener, people) -> None:
    before = SEEN["unknown"]
    send(listener, f"orders+{'a' * 26}@{DOMAIN}", "d1: hold")
    assert mail.outbox == []  # no back-scatter
    assert rows() == []
    assert SEEN["unknown"] == before + 1
    # Not an order address at all (another domain, no token): refused at RCPT.
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        send(listener, f"orders+{'a' * 26}@elsewhere.example", "d1: hold")
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        send(listener, f"postmaster@{DOMAIN}", "d1: hold")


def test_a_replaced_address_finds_nothing(listener, people) -> None:
    old = address(people["danes"])
    new = order_address_replace(membership=people["danes"].memberships.get())
    assert new != old
    send(listener, old, "d1: hold")
    assert mail.outbox == []
    send(listener, new, "d1: hold")
    assert len(mail.outbox) == 1
    assert [slot for slot, _ in rows()] == ["fleet:d1"]


def test_a_dead_address_is_answered_and_changes_nothing(
    listener, people, django_user_model
) -> None:
    danes = people["danes"]
    old = address(danes)
    # The membership passes to another player: the address was Anna's, and dies (R-47's seal).
    successor = django_user_model.objects.create_user("bo", "bo@example.org", "pw")
    Membership.objects.filter(user=danes).update(user=successor)
    send(listener, old, "d1: hold")
    [answer] = mail.outbox
    assert answer.to == ["danes@example.org"]  # whom it was made for, not the new player
    assert "no longer works (this membership has changed" in answer.body
    assert rows() == []
    # A deactivated player's address is dead too.
    swedes = people["swedes"]
    theirs = address(swedes)
    django_user_model.objects.filter(pk=swedes.pk).update(is_active=False)
    send(listener, theirs, "s1: hold")
    assert "no longer works (its user's account is deactivated)" in mail.outbox[1].body
    assert rows() == []


def test_a_closed_turn_is_answered_and_changes_nothing(listener, people, open_skirmish) -> None:
    to = address(people["danes"])
    lifecycle.turn_lock(open_skirmish.current_turn, user=None)
    send(listener, to, "d1: hold")
    [answer] = mail.outbox
    # Locked (or resolved already, when the worker is this process): closed either way.
    assert "your orders: refused (turn_closed) — Turn 1 is " in answer.body
    assert ": orders are closed." in answer.body
    assert rows() == []


def test_html_only_and_empty_mails_are_answered(listener, people) -> None:
    to = address(people["danes"])
    send(listener, to, "", html="<p>d1: hold</p>")
    assert "has no plain text in it" in mail.outbox[0].body
    send(listener, to, "Hello admiral,\n\nall well.\n")
    assert "line 1: refused" in mail.outbox[1].body  # not an order: said, nothing given
    send(listener, to, "\n\n")
    assert "your orders: refused (invalid_order) — There is no order in the text." in (
        mail.outbox[2].body
    )
    assert rows() == []


def test_a_mail_of_a_megabyte_is_refused_at_smtp(listener, people) -> None:
    to = address(people["danes"])
    big = message(to, "d1: hold\n" + "# filler\n" * 120_000)
    assert len(big) > 1_000_000
    with pytest.raises((smtplib.SMTPSenderRefused, smtplib.SMTPDataError)) as refused:
        send(listener, to, big)
    assert refused.value.smtp_code == 552
    # Declared without SIZE, the body itself is refused after it is read.
    with smtplib.SMTP("127.0.0.1", listener, timeout=30) as client:
        client.ehlo()
        client.esmtp_features.pop("size", None)
        with pytest.raises(smtplib.SMTPDataError) as too_long:
            client.sendmail("a@elsewhere.example", [to], big)
    assert too_long.value.smtp_code == 552
    assert rows() == []
    assert mail.outbox == []


def test_many_mails_at_once_none_lost_none_twice(listener, people) -> None:
    mails = {
        "danes": ["d1: hold", "d2: hold", "hire 1 frigate at copenhagen", "upkeep priority d2, d1"],
        "swedes": ["s1: hold", "s2: hold", "s3: hold", "hire 1 galley at gothenburg"],
        "hanse": ["h1: hold"],
    }
    to = {name: address(people[name]) for name in mails}
    failures: list[BaseException] = []

    def post(name: str, body: str) -> None:
        try:
            send(listener, to[name], body)
        except BaseException as error:
            failures.append(error)

    threads = [
        threading.Thread(target=post, args=(name, body))
        for name, bodies in mails.items()
        for body in bodies
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []
    assert len(mail.outbox) == 9  # every mail answered once
    for answer in mail.outbox:
        assert [line for line in answer.body.splitlines() if line.startswith("line ")] == [
            line for line in answer.body.splitlines() if line.startswith("line 1: accepted")
        ]
    assert len(rows()) == 8  # one row per order given (the priority is the faction's column)
    for name in mails:
        answers = [a for a in mail.outbox if a.to == [f"{name}@example.org"]]
        assert len(answers) == len(mails[name])
        on_desk = desk_written(desk_for(people[name].memberships.get()), moderator=False)
        lists = [written_list(a.body) for a in answers]
        # Every answer lists only orders that were given (the upkeep priority is one setting,
        # replaced, not added to); the last one committed lists all of it: the desk's list.
        orders = [{line for line in each if not line.startswith("upkeep")} for each in lists]
        assert all(each <= set(on_desk.splitlines()) for each in orders), (lists, on_desk)
        assert on_desk.splitlines() in lists
        # Each line is its own written form; fleet orders first, then economy, as they came.
        assert sorted(on_desk.splitlines()) == sorted(mails[name])


def test_the_database_down_answers_451_and_stores_nothing(listener, people) -> None:
    to = address(people["danes"])
    database = connections.settings["default"]
    name = database["NAME"]
    database["NAME"] = "/nonexistent/admiralty/no-such-database"  # each mail connects anew
    try:
        with pytest.raises(smtplib.SMTPDataError) as refused:
            send(listener, to, "d1: hold")
    finally:
        database["NAME"] = name
    assert refused.value.smtp_code == 451
    assert rows() == []
    assert mail.outbox == []
    send(listener, to, "d1: hold")  # the sending server's retry: the listener lived on
    assert [slot for slot, _ in rows()] == ["fleet:d1"]
    assert len(mail.outbox) == 1


def test_the_address_is_kept_as_a_hash_and_shown_again(transactional_db, people, settings) -> None:
    settings.ORDER_MAIL_DOMAIN = DOMAIN
    membership = people["danes"].memberships.get()
    first = order_address_state(membership).address
    assert first == order_address_state(membership).address  # shown again, the same
    row = OrderAddress.objects.get(membership=membership)
    token = first.split("+", 1)[1].split("@", 1)[0]
    assert len(token) == 26
    assert token not in str(list(OrderAddress.objects.values()))  # only its hash is kept
    assert row.digest != token


def test_an_automatic_mail_is_never_answered(listener, people) -> None:
    send(listener, address(people["danes"]), "I am away until Monday.", auto="auto-replied")
    assert mail.outbox == []  # two robots never write to each other (RFC 3834)
    assert rows() == []


@pytest.mark.skipif(
    connections["default"].vendor != "sqlite", reason="holds SQLite's write lock to stall it"
)
def test_a_database_that_cannot_write_mid_mail_answers_451(listener, people) -> None:
    """The address is found and the world read, then the write cannot start (another process
    holds the database's write lock past the wait): 451, nothing kept, the retry given."""
    import sqlite3

    to = address(people["danes"])
    database = connections.settings["default"]
    wait = database["OPTIONS"]["timeout"]
    database["OPTIONS"]["timeout"] = 1  # the listener's next connection waits 1 s, not 20
    holder = sqlite3.connect(database["NAME"], timeout=0)
    try:
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(smtplib.SMTPDataError) as refused:
            send(listener, to, "d1: hold")
        holder.rollback()
    finally:
        holder.close()
        database["OPTIONS"]["timeout"] = wait
    assert refused.value.smtp_code == 451
    assert rows() == []
    send(listener, to, "d1: hold")
    assert [slot for slot, _ in rows()] == ["fleet:d1"]
    assert len(mail.outbox) == 1


@pytest.mark.parametrize(
    "raw",
    [
        b"no headers at all, d1: hold",
        b"Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nbroken",
        b"Content-Type: text/plain; charset=no-such-charset\r\n\r\nd1: hold",
        b"Content-Transfer-Encoding: base64\r\n\r\n!!!not base64!!!",
        bytes(range(1, 256)).replace(b"\r", b"").replace(b"\n", b"\r\n"),
    ],
)
def test_a_malformed_mail_is_answered_never_a_fault(listener, people, raw: bytes) -> None:
    send(listener, address(people["danes"]), raw)
    [answer] = mail.outbox  # answered (an order read, or why none was), the listener alive
    assert answer.to == ["danes@example.org"]
    assert SEEN["fault"] == 0


class _Sink:
    """A real SMTP server that keeps what it is sent (aiosmtpd's handler protocol)."""

    def __init__(self) -> None:
        self.received: list[tuple[list[str], bytes]] = []
        self.arrived = threading.Event()

    async def handle_DATA(self, server, session, envelope) -> str:  # type: ignore[no-untyped-def]
        self.received.append((list(envelope.rcpt_tos), bytes(envelope.content)))
        self.arrived.set()
        return "250 OK"


def test_the_answer_goes_out_over_smtp_to_a_real_sink(transactional_db, people, settings) -> None:
    """The listener's answer through Django's SMTP backend, as production sends it (the
    locmem outbox above stands for it elsewhere): a real SMTP server receives it, addressed to
    the account's e-mail, with each line's answer."""
    from aiosmtpd.controller import Controller

    sink = _Sink()
    outgoing = Controller(sink, hostname="127.0.0.1", port=free_port())
    outgoing.start()
    settings.ORDER_MAIL_DOMAIN = DOMAIN
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", outgoing.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    port = free_port()
    listener = order_mail_controller(host="127.0.0.1", port=port)
    listener.start()
    try:
        send(port, address(people["danes"]), "d1: Kattegat\nd9: hold\n")
        assert sink.arrived.wait(30)
    finally:
        listener.stop()
        listener.handler.executor.shutdown()
        outgoing.stop()
    [(to, content)] = sink.received
    assert to == ["danes@example.org"]
    text = content.decode("utf-8", "replace")
    assert "line 1: accepted" in text
    assert "line 2: refused (unknown_fleet)" in text
    assert [slot for slot, _ in rows()] == ["fleet:d1"]
