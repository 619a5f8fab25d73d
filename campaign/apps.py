from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaign"

    def ready(self) -> None:
        # The account's language set as the cookie on login (issue 22).
        from campaign import languages  # noqa: F401
