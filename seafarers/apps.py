from django.apps import AppConfig


class SeafarersConfig(AppConfig):
    """The seafaring game's app: its rows (the action log), its services, and the seafaring
    ruleset it registers (docs/architecture.md, the seam)."""

    name = "seafarers"
    verbose_name = "Seafarers"

    def ready(self) -> None:
        # The platform never imports a game: the game's app tells the registry it is here.
        from campaign.rulesets import campaign_file_register, ruleset_register
        from seafarers.ruleset import SEAFARERS, import_scenario_file

        ruleset_register(SEAFARERS)
        campaign_file_register("seafarers-scenario/1", import_scenario_file)
