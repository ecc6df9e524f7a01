"""golf: the card game Golf in every variant of its rule texts.

>>> import golf
>>> g = golf.Game("six-card", players=3, seed=42)
>>> len(g.legal_actions()) > 0, g.phase
(True, 'setup')
>>> golf.score("A 2 3 / A 5 K", "six-card").total
6
"""

from .actions import Action
from .cards import card_str, parse_card
from .errors import GolfError, IllegalAction, NotationError, RulesError
from .events import Event
from .game import Game, HoleResult
from .rules import Rules, load_rules, preset_names
from .scoring import Score, score
from .state import HoleState, MatchState
from .view import view

__all__ = [
    "Action",
    "Event",
    "Game",
    "GolfError",
    "HoleResult",
    "HoleState",
    "IllegalAction",
    "MatchState",
    "NotationError",
    "Rules",
    "RulesError",
    "Score",
    "card_str",
    "load_rules",
    "parse_card",
    "preset_names",
    "score",
    "view",
]
__version__ = "0.1.0"
