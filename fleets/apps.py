from django.apps import AppConfig


class FleetsConfig(AppConfig):
    """The naval game's app: its rows, its desk, and the naval ruleset it registers."""

    name = "fleets"
    verbose_name = "Fleets"

    def ready(self) -> None:
        # The platform never imports a game: the game's app tells the registry it is here.
        from campaign.rulesets import ruleset_register
        from fleets.ruleset import NAVAL

        ruleset_register(NAVAL)
