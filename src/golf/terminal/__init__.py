"""Playing Golf at a terminal: people (hot-seat) and bots, hints from the expert bot,
save, resume and replay.

The modules, each small: :mod:`~golf.terminal.style` (colour, suits, ASCII),
:mod:`~golf.terminal.board` (drawing the table from a view),
:mod:`~golf.terminal.entry` (what a player types), :mod:`~golf.terminal.narrate`
(sentences about moves), :mod:`~golf.terminal.summary` (the rules in a dozen lines),
:mod:`~golf.terminal.seats` (who plays), :mod:`~golf.terminal.console`,
:mod:`~golf.terminal.session` (a :class:`golf.table.Table` with a screen) and
:mod:`~golf.terminal.replay`. Save files are :mod:`golf.table`'s.
"""

from .console import Console
from .replay import replay
from .seats import seat_table
from .session import Options, Session
from .style import Style, detect

__all__ = [
    "Console",
    "Options",
    "Session",
    "Style",
    "detect",
    "replay",
    "seat_table",
]
