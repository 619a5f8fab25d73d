"""The seafaring game's Celery tasks, found here by autodiscovery (config/celery.py); each is
defined beside the service it calls."""

from seafarers.notifications import news_send_task
from seafarers.reminders import reminders_task
from seafarers.services import bot_play_task

__all__ = ["bot_play_task", "news_send_task", "reminders_task"]
