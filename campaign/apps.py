from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaign"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from campaign.fields import use_orjson_loads

        # The turns' documents read with orjson on PostgreSQL too (campaign/fields.py).
        connection_created.connect(use_orjson_loads, dispatch_uid="campaign-orjson-loads")
