"""Issue 21's "done when": a turn of the bundled Baltic campaign played from its opening to its
lock with every faction's orders sent as e-mails to the running listener (real SMTP), each mail
answered line by line and ending `final`, the turn locked by itself once every faction with a
player is final (R-90) and resolved; and the same orders given through the desk's service to a
second import of the same campaign, locked by the moderator with the same seed, resolve to the
same bytes (docs/rulings.md R-89–R-97)."""

from __future__ import annotations

import dataclasses
import json
import smtplib
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.core import mail

from campaign import lifecycle
from campaign.models import AuditEntry, Campaign, Membership, Turn
from campaign.scenario_files import read_scenario_document
from engine.naval import legal_orders, parse_scenario
from engine.naval.written import write_order
from fleets.campaign_files import read_campaign_file
from fleets.final import EARLY_REASON
from fleets.importing import campaign_import
from fleets.mapping import world_document
from fleets.names import campaign_names
from fleets.order_addresses import order_address_state
from fleets.services import order_submit
from fleets.written import lexicon_for
from tests.fleets.mail_helpers import DOMAIN

BALTIC = Path(__file__).resolve().parents[2] / "examples" / "baltic.campaign.yaml"
SEED = 1710


def baltic(slug: str, *, resolve_early: bool) -> Campaign:
    source = read_campaign_file(read_scenario_document(BALTIC))
    settings = {**source.settings, "resolve_early": resolve_early}
    campaign = campaign_import(dataclasses.replace(source, slug=slug, settings=settings))
    for faction in campaign.factions.exclude(key="pirates"):  # the pirates: the moderator's
        user = User.objects.create_user(f"{slug}-{faction.key}", f"{faction.key}@{slug}.example")
        Membership.objects.create(user=user, campaign=campaign, role="player", faction=faction)
    turn = lifecycle.turn_open(campaign.current_turn, user=None)
    Turn.objects.filter(pk=turn.pk).update(seed=SEED)  # the same dice on both imports (T2)
    return campaign


def orders_of(campaign: Campaign) -> dict[str, list[dict[str, Any]]]:
    """Each player's faction's fleets sailing as far as they can, with standing choices."""
    world = parse_scenario(world_document(campaign)).world
    players = set(campaign.factions.exclude(key="pirates").values_list("key", flat=True))
    orders: dict[str, list[dict[str, Any]]] = {key: [] for key in sorted(players)}
    for fleet in sorted(world.fleets.values(), key=lambda f: f.id):
        if fleet.owner not in players or fleet.adrift:
            continue
        moves = sorted(legal_orders(world, fleet.id).moves.items())
        if moves:
            _, path = moves[-1]
            # Every standing choice said, as the desk's order form sends them (D5, D6, R3).
            order = {"fleet": fleet.id, "type": "move", "path": list(path), "stance": "engage"}
            orders[fleet.owner].append(
                {
                    **order,
                    "retreat": {"below": 0.5},
                    "retreat_to": [],
                    "evade_to": [],
                    "prefer": "capture",
                    "if_cornered": "surrender",
                }
            )
    return orders


def mail_text(campaign: Campaign, faction_key: str, orders: list[dict[str, Any]]) -> str:
    """The orders as a player writes them, in the campaign's names (the desk's writer)."""
    faction = campaign.factions.get(key=faction_key)
    world = parse_scenario(world_document(campaign)).world
    lexicon = lexicon_for(world, campaign_names(campaign.pk), faction, fog=True, moderator=False)
    return "\n".join([*(write_order(o, lexicon) for o in orders), "final", "-- ", "sent by post"])


def send(port: int, to: str, body: str) -> None:
    message = EmailMessage()
    message["From"] = "player@elsewhere.example"
    message["To"] = to
    message["Subject"] = "Turn 1 orders"
    message.set_content(body)
    with smtplib.SMTP("127.0.0.1", port, timeout=60) as client:
        client.send_message(message)


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False).encode()


def test_a_baltic_turn_by_mail_resolves_early_as_the_desk_would(listener) -> None:
    by_mail = baltic("baltic-by-mail", resolve_early=True)
    on_desk = baltic("baltic-on-desk", resolve_early=False)
    orders = orders_of(by_mail)
    assert orders == orders_of(on_desk)
    assert sum(len(o) for o in orders.values()) >= 6  # every faction of players has moves

    factions = list(orders)
    for n, key in enumerate(factions):
        membership = Membership.objects.get(campaign=by_mail, faction__key=key)
        address = order_address_state(membership).address
        assert address.startswith("orders+")
        assert address.endswith(f"@{DOMAIN}")
        send(listener, address, mail_text(by_mail, key, orders[key]))
        turn = Turn.objects.get(campaign=by_mail, number=1)
        last = n == len(factions) - 1
        # Open until the last faction's `final`; then locked by itself and resolved (eager).
        assert (turn.status == Turn.Status.OPEN) is not last, (key, turn.status)
        answer = mail.outbox[-1]
        assert answer.to == [f"{key}@baltic-by-mail.example"]
        lines = [line for line in answer.body.splitlines() if line.startswith("line ")]
        assert len(lines) == len(orders[key]) + 1
        assert all(": accepted" in line for line in lines), lines
        assert "final" in lines[-1]

    turn = Turn.objects.get(campaign=by_mail, number=1)
    assert turn.status == Turn.Status.RESOLVED, turn.error
    lock = AuditEntry.objects.get(campaign=by_mail, turn=turn, action="lock")
    assert lock.user is None
    assert lock.reason == EARLY_REASON

    desk_turn = Turn.objects.get(campaign=on_desk, number=1)
    for key, given in orders.items():
        faction = on_desk.factions.get(key=key)
        for order in given:  # the service behind the desk's order forms
            result = order_submit(turn=desk_turn, faction=faction, order=order)
            assert not hasattr(result, "code"), result
    lifecycle.turn_lock(desk_turn, user=None)
    desk_turn.refresh_from_db()
    assert desk_turn.status == Turn.Status.RESOLVED, desk_turn.error

    assert canonical(turn.scenario["orders"]) == canonical(desk_turn.scenario["orders"])
    assert canonical(turn.result) == canonical(desk_turn.result)
    assert any(e["type"] == "moved" for e in turn.result["events"])
    assert turn.result["refused"] == []
