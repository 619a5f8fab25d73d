"""Resolution as a service and a task: flat query counts, once-only, rollback, failure."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.database import imported_campaign
from bench.generate import Spec
from campaign import lifecycle
from campaign.models import ArchivedResult, AuditEntry, Turn
from campaign.resolution import turn_resolve
from campaign.tasks import turn_resolve_task
from engine.naval import adjudicate
from fleets.models import Order, Ship

Status = Turn.Status


def generated_campaign(fleets: int, slug: str):
    """A generated campaign (bench/generate.py) imported, its turn open with every fleet's move."""
    campaign, _ = imported_campaign(Spec(fleets=fleets, sea=120, land=20, factions=8), slug)
    return campaign, lifecycle.turn_open(campaign.current_turn, user=None)


def locked(turn: Turn) -> Turn:
    """Lock without running the queued resolution (the tests run it themselves)."""
    lifecycle.turn_lock(turn, user=None)  # on_commit never fires inside the test transaction
    turn.refresh_from_db()
    return turn


@pytest.mark.django_db
def test_query_counts_do_not_grow_with_fleets_or_ships() -> None:
    counts = {}
    for fleets in (20, 200):
        _, turn = generated_campaign(fleets, f"gen-{fleets}")
        with CaptureQueriesContext(connection) as lock_queries:
            turn = locked(turn)
        with CaptureQueriesContext(connection) as resolve_queries:
            assert turn_resolve(turn_id=turn.pk) == "resolved"
        turn.refresh_from_db()
        with CaptureQueriesContext(connection) as publish_queries:
            lifecycle.turn_publish(turn, user=None)
        battles = sum(1 for e in turn.result["events"] if e["type"] == "battle")
        assert battles > fleets // 20  # real work, growing with the campaign
        counts[fleets] = (len(lock_queries), len(resolve_queries), len(publish_queries))
    assert counts[20] == counts[200], counts


@pytest.mark.django_db
def test_a_second_delivery_does_nothing(skirmish) -> None:
    turn = locked(lifecycle.turn_open(skirmish.current_turn, user=None))
    assert turn_resolve_task.apply(args=[turn.pk]).get() == "resolved"
    assert turn_resolve_task.apply(args=[turn.pk]).get() == "skipped"  # redelivered or clicked
    turn.refresh_from_db()
    assert turn.attempts == 1
    assert turn.battles.count() == sum(e["type"] == "battle" for e in turn.result["events"])
    assert AuditEntry.objects.filter(turn=turn, action="resolve").count() == 1


@pytest.mark.django_db
def test_rollback_archives_and_the_same_seed_gives_the_same_result(skirmish, moderator) -> None:
    turn = lifecycle.turn_open(skirmish.current_turn, user=moderator)
    danes = skirmish.factions.get(key="danes")
    Order.objects.create(
        turn=turn,
        faction=danes,
        slot="fleet:d1",
        payload={"fleet": "d1", "type": "move", "path": ["arkona_basin"]},
    )
    turn = locked(turn)
    turn_resolve(turn_id=turn.pk)
    turn.refresh_from_db()
    first = turn.result
    lifecycle.turn_publish(turn, user=moderator)
    ships_after = sorted(Ship.objects.filter(campaign=skirmish).values_list("key", "health"))
    lifecycle.turn_rollback(turn, user=moderator, reason="d1 was meant to hold")
    turn.refresh_from_db()
    assert (turn.status, turn.result) == (Status.OPEN, None)
    assert ArchivedResult.objects.get(turn=turn).result == first  # kept, never deleted
    assert skirmish.current_turn == turn  # the next turn was cancelled (archived)
    assert Turn.objects.filter(campaign=skirmish, number=2, archived=True).exists()
    ships_before = sorted(Ship.objects.filter(campaign=skirmish).values_list("key", "health"))
    assert ships_before != ships_after  # the world is back as it was at the lock
    # The same orders and the same seed: the same result, byte for byte.
    turn = locked(turn)
    turn_resolve(turn_id=turn.pk)
    turn.refresh_from_db()
    assert turn.result == first
    # Corrected orders, same seed: a different turn.
    lifecycle.turn_rollback(turn, user=moderator, reason="really hold")
    Order.objects.create(
        turn=turn, faction=danes, slot="fleet:d1", payload={"fleet": "d1", "type": "hold"}
    )
    turn = locked(turn)
    turn_resolve(turn_id=turn.pk)
    turn.refresh_from_db()
    assert turn.result != first
    assert turn.seed == ArchivedResult.objects.first().scenario["seed"]


@pytest.mark.django_db
def test_a_rollback_needs_a_reason(skirmish, moderator) -> None:
    turn = locked(lifecycle.turn_open(skirmish.current_turn, user=moderator))
    turn_resolve(turn_id=turn.pk)
    turn.refresh_from_db()
    with pytest.raises(lifecycle.TransitionError, match="Say why"):
        lifecycle.turn_rollback(turn, user=moderator, reason=" ")


@pytest.mark.django_db
def test_a_failing_resolution_marks_the_turn_failed_and_retry_resolves_it(skirmish) -> None:
    turn = locked(lifecycle.turn_open(skirmish.current_turn, user=None))
    good = turn.scenario
    Turn.objects.filter(pk=turn.pk).update(scenario={**good, "map": {"provinces": "nonsense"}})
    result = turn_resolve_task.apply(args=[turn.pk])
    assert result.failed()
    turn.refresh_from_db()
    assert turn.status == Status.FAILED
    assert "ScenarioError" in turn.error  # the moderator sees what went wrong
    Turn.objects.filter(pk=turn.pk).update(scenario=good)
    turn.refresh_from_db()
    lifecycle.turn_retry(turn, user=None, reason="fixed the stored scenario")
    assert turn_resolve(turn_id=turn.pk) == "resolved"
    turn.refresh_from_db()
    assert turn.result == adjudicate(good)


@pytest.mark.django_db
def test_publishing_from_the_dashboard_reads_only_the_results_state(skirmish) -> None:
    from fleets.mapping import world_document
    from tests.conftest import resolve_with_the_swedes_attacking

    state = resolve_with_the_swedes_attacking(skirmish).result["state"]
    turn = skirmish.current_turn_for_action()  # as the dashboard's buttons get it
    assert {"scenario", "result"} <= turn.get_deferred_fields()
    with CaptureQueriesContext(connection) as queries:
        lifecycle.turn_publish(turn, user=None)
    reads = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    assert not [sql for sql in reads if '"scenario"' in sql]  # the scenario is not read…
    assert len([sql for sql in reads if '"result"' in sql]) == 1  # …and of the result, its state
    world = world_document(skirmish)
    by_id = sorted(state["fleets"], key=lambda f: f["id"])
    assert world["fleets"] == by_id
    treasuries = {f["id"]: f["treasury"] for f in world["factions"]}
    assert treasuries == {f["id"]: f["treasury"] for f in state["factions"]}


@pytest.mark.django_db
def test_the_documents_are_stored_as_json_text_on_postgresql(skirmish) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite stores every JSON value as text")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE column_name IN ('scenario', 'result') AND table_name LIKE 'campaign_%%'"
        )
        types = {(table, column): kind for table, column, kind in cursor.fetchall()}
    assert set(types.values()) == {"json"}, types
    assert len(types) == 4
    from tests.conftest import resolve_with_the_swedes_attacking

    turn = resolve_with_the_swedes_attacking(skirmish)
    assert turn.result == adjudicate(turn.scenario)  # the documents come back as dicts
    assert list(turn.scenario) == list(Turn.objects.get(pk=turn.pk).scenario)  # keys in order
