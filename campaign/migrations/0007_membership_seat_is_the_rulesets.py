"""Issue 10: a membership's seat is its ruleset's. The table keeps only what holds for every
game — a moderator has no faction; a seafaring player's membership has none (its seat is a
seafarers.Seat row), and "a naval player has a faction" is the naval ruleset's check."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0006_naval_settings_to_fleets"),
        ("fleets", "0008_navalsettings"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="membership",
            name="player_has_faction_moderator_has_none",
        ),
        migrations.AddConstraint(
            model_name="membership",
            constraint=models.CheckConstraint(
                condition=models.Q(("role", "player"))
                | models.Q(("role", "moderator"), ("faction__isnull", True)),
                name="player_or_moderator_without_faction",
            ),
        ),
    ]
