"""Issue 10, first of three: the seat's membership column beside its user (the user's
constraints dropped, so the rows can move). Three migrations, each its own transaction, since
PostgreSQL alters no table with row changes pending in the same one (0005 moves the rows)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0007_membership_seat_is_the_rulesets"),
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
    ]
