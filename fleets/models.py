"""Fleet models, still to come.

Fleet and Ship (owned by a faction, positioned on the map) and Order rows, one per fleet per turn,
submitted by players and read by turn resolution.
"""
