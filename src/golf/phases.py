"""The phases of a turn, as small ints for the engine and names for everyone else.

>>> PHASES[HOLD]
'hold'
"""

SETUP, TURN, HOLD, FLIP, OVER = range(5)
#: Phase names by phase number: what ``Game.phase`` and views report.
PHASES = ("setup", "turn", "hold", "flip", "over")
#: Where a held card came from.
FROM_STOCK, FROM_DISCARD = 0, 1
