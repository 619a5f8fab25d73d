"""Issue 10: a human seat is held by a platform Membership (role player) of the game's campaign,
not by a user: every seat's user gets one (or keeps the one they have: a moderator who held a
seat before keeps it through their moderator membership, docs/rulings.md S-41), then the user
column goes. Backwards, each seat gets its membership's user again and the seats' player
memberships go (they have no faction, which the constraint of campaign 0005 requires). The old constraints are dropped before the rows move and made again after
them, so the migration runs both ways on a database with played games."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


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
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("campaign", "0006_membership_seat_is_the_rulesets"),
        ("seafarers", "0003_outbox"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="membership",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="seafaring_seat",
                to="campaign.membership",
            ),
        ),
        migrations.RemoveConstraint(model_name="seat", name="one_seat_per_user"),
        migrations.RemoveConstraint(model_name="seat", name="seat_user_or_bot"),
        migrations.RunPython(seats_to_memberships, memberships_to_seats),
        migrations.RemoveField(model_name="seat", name="user"),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.CheckConstraint(
                condition=models.Q(("bot", True), ("membership__isnull", True))
                | models.Q(("bot", False), ("membership__isnull", False)),
                name="seat_member_or_bot",
            ),
        ),
    ]
