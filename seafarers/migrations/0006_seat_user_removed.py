"""Issue 10, last of three: the seat's user column goes (its membership's user is the seat's
player), and a seat is a member's or the bot's."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("seafarers", "0005_seat_membership_rows"),
    ]

    operations = [
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
