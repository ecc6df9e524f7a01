"""Bots: players that see only their seat's view and the legal actions.

>>> from golf import Game
>>> from golf.bots import make_bot
>>> g = Game("six-card", players=2, seed=3)
>>> bot = make_bot("random", g.rules, seed=1)
>>> a = bot.choose(g.view(0, codes=True), g.legal_actions())
>>> a in g.legal_actions()
True
"""

from .base import Bot, Option, bot_available, bot_class, bot_names, make_bot, register
from .expert import ExpertBot
from .greedy import GreedyBot
from .random_bot import RandomBot

__all__ = [
    "Bot", "ExpertBot", "GreedyBot", "Option", "RandomBot", "bot_available", "bot_class",
    "bot_names", "make_bot", "register",
]
