"""The seafaring game's Celery tasks, found here by autodiscovery (config/celery.py); each is
defined beside the service it calls. The bot's turn and the players' news go through the
outbox (outbox_task, swept by outbox_sweep_task); bot_play_task and news_send_task stay for
messages queued before it."""

from seafarers.notifications import news_send_task
from seafarers.outbox import outbox_sweep_task, outbox_task
from seafarers.reminders import reminders_task
from seafarers.services import bot_play_task

__all__ = ["bot_play_task", "news_send_task", "outbox_sweep_task", "outbox_task", "reminders_task"]
