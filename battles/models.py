"""Battle models, still to come.

Stored results of resolved battles: a report per battle and its rounds, written by turn resolution
from the engine's events and read only for display.
"""
