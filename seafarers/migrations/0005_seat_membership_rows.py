"""Issue 10, second of three: a human seat is held by a platform Membership (role player) of
the game's campaign, not by a user: every seat's user gets one (or keeps the one they have: a
moderator who held a seat before keeps it through their moderator membership, docs/rulings.md
S-41); then (0006) the user column goes. Backwards, each seat gets its membership's user again
and the seats' player memberships go (they have no faction, which campaign 0005's constraint
requires). The old constraints are dropped before the rows move (0004) and made again after
them, so the migrations run both ways on a database with played games."""

from django.db import migrations


def seats_to_memberships(apps, schema_editor):
    Seat = apps.get_model("seafarers", "Seat")
    Membership = apps.get_model("campaign", "Membership")
    for seat in Seat.objects.filter(user__isnull=False).select_related("game"):
        membership, _ = Membership.objects.get_or_create(
            user_id=seat.user_id,
            campaign_id=seat.game.campaign_id,
            defaults={"role": "player"},
        )
        seat.membership = membership
        seat.save(update_fields=["membership"])


def memberships_to_seats(apps, schema_editor):
    Seat = apps.get_model("seafarers", "Seat")
    Membership = apps.get_model("campaign", "Membership")
    made = []
    for seat in Seat.objects.filter(membership__isnull=False).select_related("membership"):
        seat.user_id = seat.membership.user_id
        if seat.membership.role == "player" and seat.membership.faction_id is None:
            made.append(seat.membership_id)
        seat.membership = None
        seat.save(update_fields=["user", "membership"])
    Membership.objects.filter(pk__in=made).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("seafarers", "0004_seat_membership"),
    ]

    operations = [
        migrations.RunPython(seats_to_memberships, memberships_to_seats),
    ]
