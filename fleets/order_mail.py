"""Orders by e-mail (issue 21 §2, docs/orders.md "By e-mail", docs/rulings.md R-93–R-97): one
mail to a player's order address, read as the desk's paste box reads a paste
(`written_orders_give`, R-84) and answered at once by e-mail, line by line, with the faction's
orders that count written out.

What decides is the address alone (R-93): the From header and the envelope's sender are never
trusted, and the answer goes to the e-mail of the account the address was made for. What the
listener says at SMTP level (R-95): 250 only once the orders are committed (or when there was
nothing to store: a refusal, answered by e-mail), 451 when the database failed (nothing
stored; the sending server tries again), 552 over `MAX_MAIL`. An unknown token is taken with a
250 and dropped, counted and logged, never answered (R-96: no back-scatter to a forged sender).
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage as ParsedMail
from email.parser import BytesParser

from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage
from django.db import DatabaseError, close_old_connections, connection, transaction
from django.utils import timezone

from fleets.models import Faction, OrderAddress
from fleets.order_addresses import address_dead, address_find, mail_footer, token_in
from fleets.selectors import desk_for
from fleets.written import LineAnswer, desk_written, written_orders_give

log = logging.getLogger(__name__)

# A mail is at most this long, headers and attachments included: a faction's orders
# are a few KB; the paste box takes 64 KB of text.
MAX_MAIL = 256 * 1024
OK = "250 2.0.0 Orders read: the answer is on its way by e-mail"
TAKEN = "250 2.0.0 OK"  # an unknown token's mail, dropped
TRY_AGAIN = "451 4.3.0 The orders could not be stored just now; nothing was kept, try again"
TOO_LONG = f"552 5.3.4 A mail of orders is at most {MAX_MAIL // 1024} KB"

# What the listener's process has seen, by outcome (the command logs it): unknown tokens are
# counted here, since no one is told of them.
SEEN: Counter[str] = Counter()
_SEEN_LOCK = threading.Lock()


@dataclass(frozen=True, slots=True)
class Received:
    """The SMTP answer to one recipient's copy of a mail, and what became of it."""

    status: str
    outcome: str  # given, refused, dead, no_text, unknown, automatic, too_long, database, fault


def order_mail_receive(*, recipient: str, data: bytes) -> Received:
    """Read one mail to one order address and answer it; never raises. Its own database
    connection, closed after (the listener's threads hold none between mails)."""
    close_old_connections()
    try:
        received = _receive(recipient, data)
    except DatabaseError:
        log.exception("order mail: the database failed; answered 451, nothing stored")
        connection.close()  # a broken connection is not reused by the next mail
        received = Received(TRY_AGAIN, "database")
    except Exception:  # a fault of this code on some mail: kept by the sender, not lost
        log.exception("order mail: the mail could not be read; answered 451")
        received = Received(TRY_AGAIN, "fault")
    finally:
        close_old_connections()
    with _SEEN_LOCK:
        SEEN[received.outcome] += 1
    return received


def _receive(recipient: str, data: bytes) -> Received:
    if len(data) > MAX_MAIL:
        return Received(TOO_LONG, "too_long")
    token = token_in(recipient)
    row = address_find(token) if token else None
    if row is None:
        with _SEEN_LOCK:
            unknown = SEEN["unknown"] + 1
        # A few of its characters only: a mistyped address is close to a real one.
        shown = (token or "")[:4]
        log.warning("order mail to an unknown address (%s…), dropped (%d so far)", shown, unknown)
        return Received(TAKEN, "unknown")
    mail = BytesParser(policy=policy.default).parsebytes(data)
    assert isinstance(mail, ParsedMail)
    if str(mail.get("Auto-Submitted", "no")).strip().lower() != "no":
        # An out-of-office or a bounce (RFC 3834): never answered, so that two robots never
        # write to each other; it holds no orders.
        log.info("order mail: an automatic mail (Auto-Submitted), dropped")
        return Received(TAKEN, "automatic")
    membership = row.membership
    dead = address_dead(row, membership)
    if dead is not None:
        _answer(_made_for(row), mail, _dead_words(dead))
        return Received(TAKEN, "dead")
    faction = membership.faction
    assert faction is not None  # a membership without one is dead (address_dead)
    text = mail_text(mail)
    if text is None:
        _answer(membership.user.email, mail, NO_TEXT)
        return Received(TAKEN, "no_text")
    with transaction.atomic():
        # One faction's mails one at a time (two at once would both find no hire, say, and
        # both hire): the faction's row locked until this one's orders are committed.
        Faction.objects.select_for_update().filter(pk=faction.pk).first()
        turn = membership.campaign.current_turn
        view = desk_for(membership)
        answers = written_orders_give(
            turn=turn,
            faction=faction,
            text=text,
            user=membership.user,
            world=view.world,
            names=view.names,
            where="mail",
            fog=view.fog,
        )
        OrderAddress.objects.filter(pk=row.pk).update(last_used_at=timezone.now())
    # Committed: what the answer lists is what the desk shows now (the faction read again:
    # another mail may have set its upkeep priority since this one began).
    try:
        faction.refresh_from_db(fields=["upkeep_priority"])
        written = desk_written(desk_for(membership), moderator=False)
    except DatabaseError:  # stored already: a 451 now would have the mail sent again for naught
        log.exception("order mail: the orders are stored, their list could not be read")
        connection.close()
        written = "(not read just now: your desk shows them)"
    _answer(membership.user.email, mail, _answer_words(answers, written, membership))
    given = any(a.outcome != "refused" for a in answers)
    return Received(OK, "given" if given else "refused")


NO_TEXT = (
    "Your mail has no plain text in it (only HTML, or nothing readable), so no order was "
    "read and nothing changed.\n\nSend your orders as plain text, one order a line "
    "(written orders: the orders' page of the rules), or paste them on your desk."
)


def mail_text(mail: ParsedMail) -> str | None:
    """The orders in the mail's text/plain part: a quoted line (`>`) and the line before the
    quote that introduces it ("… wrote:") blanked, the signature (after `-- `) left out; the
    lines keep their numbers, so that the answer's line numbers are the mail's. None when
    there is no text/plain part (HTML only)."""
    part = mail.get_body(preferencelist=("plain",))
    if part is None:
        return None
    try:
        body = str(part.get_content())
    except (LookupError, UnicodeError, KeyError):  # an unknown charset: nothing readable
        return ""
    lines = body.splitlines()
    kept: list[str] = []
    for n, line in enumerate(lines):
        if line.rstrip() == "--":  # the signature's delimiter, "-- " (some clients trim it)
            break
        if line.lstrip().startswith(">") or _introduces_quote(line, lines[n + 1 :]):
            kept.append("")
        else:
            kept.append(line)
    return "\n".join(kept)


def _introduces_quote(line: str, after: list[str]) -> bool:
    if not line.rstrip().endswith(":"):
        return False
    following = next((other for other in after if other.strip()), "")
    return following.lstrip().startswith(">")


def _answer_words(answers: list[LineAnswer], written: str, membership: object) -> str:
    lines = [answer.words for answer in answers]
    listed = written or "(none: every fleet holds)"
    return (
        "Your mail of orders, line by line:\n\n"
        + "\n".join(lines)
        + "\n\nYour orders that count now, written (copy, change and send them back):\n\n"
        + listed
        + "\n\n"
        + mail_footer(membership)
    )


def _dead_words(why: str) -> str:
    return (
        f"This order address no longer works ({why}), so no order was read and nothing "
        "changed. If you still command a faction, your desk shows your new address."
    )


def _made_for(row: OrderAddress) -> str:
    """The e-mail of the user the address was made for (its seal's), not the membership's
    holder now: only the one who was given the address hears of it."""
    user_id = row.seal.split(":", 1)[0]
    User = get_user_model()
    found = User.objects.filter(pk=int(user_id)).values_list("email", flat=True).first()
    return found or ""


def _answer(address: str, mail: ParsedMail, words: str) -> None:
    """The answer, by the site's e-mail backend, to the account's address (never the mail's
    From, R-93). A backend that fails costs the answer only: the orders are stored, and the
    desk shows them."""
    if not address:
        log.warning("order mail: the account has no e-mail address, no answer sent")
        return
    subject = " ".join(str(mail.get("Subject", "")).split())[:150] or "your orders"
    message = EmailMessage(
        subject=subject if subject.lower().startswith("re:") else f"Re: {subject}",
        body=words,
        to=[address],
    )
    message_id = " ".join(str(mail.get("Message-ID", "")).split())
    if message_id and len(message_id) < 250:
        message.extra_headers = {"In-Reply-To": message_id, "References": message_id}
    try:
        message.send()
    except Exception:  # the mail server's fault, not the orders'
        log.exception("order mail: the answer could not be sent")
