from django.apps import AppConfig


class FleetsConfig(AppConfig):
    """The naval game's app: its rows, its desk, and the naval ruleset it registers."""

    name = "fleets"
    verbose_name = "Fleets"

    def ready(self) -> None:
        # The platform never imports a game: the game's app tells the registry it is here.
        from django.db.models.signals import post_save

        from campaign.models import Campaign
        from campaign.rulesets import (
            bulletin_picture_register,
            bulletin_register,
            campaign_file_register,
            campaign_file_writer_register,
            mail_footer_register,
            ruleset_register,
        )
        from fleets.bulletin import turn_bulletin, turn_bulletin_picture
        from fleets.campaign_files import CAMPAIGN_FORMAT
        from fleets.models import settings_made
        from fleets.order_addresses import mail_footer
        from fleets.ruleset import NAVAL, campaign_file_import
        from fleets.world_files import campaign_file_text

        ruleset_register(NAVAL)
        post_save.connect(settings_made, sender=Campaign, dispatch_uid="naval_settings_made")
        bulletin_register(NAVAL.key, turn_bulletin)  # posted to the webhook on publish
        bulletin_picture_register(NAVAL.key, turn_bulletin_picture)  # the public map, attached
        # The naval campaign file reads a file of no registered format too (every file from
        # before the seam): its reader says what is wrong with it.
        campaign_file_register(CAMPAIGN_FORMAT, campaign_file_import, default=True)
        # And writes it: the world editor's export, for `campaign_export --campaign-file`.
        campaign_file_writer_register(NAVAL.key, campaign_file_text)
        # Every turn e-mail to a naval player names their private order address.
        mail_footer_register(NAVAL.key, mail_footer)
