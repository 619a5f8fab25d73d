"""Campaign models, still to come.

Campaign, Faction, membership of players and moderators, and Turn with its lifecycle state and
the per-turn seed that makes resolution replayable.
"""
