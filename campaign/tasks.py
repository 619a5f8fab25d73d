"""The Celery tasks, found here by autodiscovery (config/celery.py). Each is defined beside the
service it calls, so a service that queues a task and the task that calls it are one module,
not two importing each other: `turn_resolve_task` in resolution.py, `deadlines_task` in
deadlines.py, `post_bulletin_task` in notifications.py. Their names stay `campaign.tasks.…`
(tasks already queued, and the beat schedule, name them so).
"""

from campaign.deadlines import deadlines_task
from campaign.notifications import post_bulletin_task
from campaign.resolution import turn_resolve_task

__all__ = ["deadlines_task", "post_bulletin_task", "turn_resolve_task"]
