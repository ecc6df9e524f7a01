"""Golf as an OpenSpiel game: importing this module registers ``python_golf``.

Parameters: ``preset`` (a preset name or TOML path, default ``six-card``), ``players``
(default 2), ``rules`` (overrides as ``KEY:VALUE`` items separated by ``;``, values as
on the command line; OpenSpiel game strings cannot hold ``=`` or commas, so a list is
written ``match:columns+rows``), ``reward`` (``score``: minus each seat's match
total; ``match``: +1 to the winners, -1 to the others) and ``observation`` (the
tensors: ``scaled``, every number in [-1, 1], or ``raw``; see docs/rl.md). The game
type's ``min_num_players`` is 2, what every preset needs, but for nine-card's
solitaire: ``python_golf(preset=nine-card,players=1)`` loads and plays all the same.

The engine plays every rule; this module only deals. Chance is explicit: each hole
opens with one chance node per card dealt (every seat's grid in seat order, cell by
cell, then the card that starts the discard pile), and every ``draw`` from the stock
is followed by a chance node choosing the card drawn. A chance outcome is a card
(id ``4 * (rank - 1) + suit``, 56 ids), each with its share of the cards left.
Player actions are the ids of :class:`golf.envs.Encoding`.

A seat's information state is its view (:func:`golf.view.view`: its own peeked cards,
every face-up card, the whole discard pile, the scores, and the stock's cards once a
reshuffle has shown them, where every other seat has peeked) plus the public
actions of the hole so far; its observation is the view alone. The observation tensor
is the encoding's vector of the view; the information-state tensor is that vector
followed by one slot per action a hole can take (:func:`hole_actions`), holding the
hole's public actions in order (id + 1, 0 for none yet; divided by the number of ids
when scaled): perfect recall, one tensor per information state. The strings write
ranks without suits, which never matter to the rules. :func:`resample` (also
``state.resample_from_infostate``) deals a world consistent with everything a seat
has seen, for OpenSpiel's IS-MCTS; :class:`Restartable` lets ``ISMCTSBot`` play in
``evaluate_bots``. OpenSpiel's Python ``MCTSBot`` searches the true state, so it
sees every face-down card: use it only as a cheating baseline.

Serialising: pyspiel's ``state.serialize()`` for a Python game writes the history
and a pickled ``__dict__``, and ``game.deserialize_state`` unpickles it, which can
run any code: never feed it text you did not write. Here the pickle holds only a
marker (the state is rebuilt from its history), and :func:`serialize_state` /
:func:`deserialize_state` do the same with no pickle at all, checking every action.

>>> import pyspiel, golf.envs.openspiel
>>> game = pyspiel.load_game("python_golf(players=3,rules=holes:1)")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)
>>> while state.is_chance_node():
...     state.apply_action(state.chance_outcomes()[0][0])   # deal the lowest cards
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()][:2]
(0, ['reveal 1', 'reveal 2'])
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from ..actions import DRAW
from ..cards import JOKER, card_str, make_card, rank, suit
from ..errors import GolfError
from ..game import MAX_PLAYOFFS, Game
from ..knowledge import Sampler
from ..position import draw_pool, redraw
from ..rules import Rules, load_rules, parse_rule_option
from ..types import ViewDict
from .encoding import Encoding, describe

NAME = "python_golf"
DEFAULTS: dict[str, Any] = {"preset": "six-card", "players": 2, "rules": "", "reward": "score",
                            "observation": "scaled"}
NUM_CARD_IDS = 56
MAX_PLAYERS = 16
#: A match played to a points target has no fixed length; OpenSpiel needs bounds, so
#: they assume it lasts at most this many holes per point of the target (see docs/rl.md).
TARGET_HOLES_PER_POINT = 1

GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Golf (golf-cards)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def card_id(card: int) -> int:
    """The chance outcome id of a card code."""
    return (rank(card) - 1) * 4 + suit(card)


def id_card(outcome: int) -> int:
    """The card code of a chance outcome id."""
    return make_card(outcome // 4 + 1, outcome % 4)


def parse_rules_param(text: str) -> dict[str, Any]:
    """``"holes:1;match:columns+rows"`` -> ``{"holes": 1, "match": ["columns", "rows"]}``
    (``KEY=VALUE`` is read too, but only ``:`` survives in an OpenSpiel game string).

    >>> parse_rules_param("holes:1; match:columns+rows; points.2:-2")
    {'holes': 1, 'match': ['columns', 'rows'], 'points.2': -2}
    """
    out: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in text.split(";"))):
        key, sep, value = item.partition(":")
        if not sep or "=" in key:
            key, _, value = item.partition("=")
        parsed = parse_rule_option(f"{key.strip()}={value.strip()}")[1]
        if isinstance(parsed, str) and "+" in parsed:
            parsed = [v.strip() for v in parsed.split("+") if v.strip()]
        out[key.strip()] = parsed
    return out


def format_rules_param(overrides: Mapping[str, Any]) -> str:
    """The ``rules`` parameter text of overrides (the inverse of :func:`parse_rules_param`).

    >>> format_rules_param({"holes": 1, "final_turns": False, "match": ["columns", "rows"]})
    'holes:1;final_turns:false;match:columns+rows'
    """
    def text(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, list | tuple):
            return "+".join(text(x) for x in v)
        return str(v)

    return ";".join(f"{k}:{text(v)}" for k, v in overrides.items())


def _bounds(rules: Rules, players: int) -> tuple[int, float, float]:
    """(max game length, min and max return of a seat under ``reward="score"``)."""
    present = list(range(1, 14)) + ([14] if rules.jokers_per_deck else [])
    pts = [rules.points[r] for r in present]
    cells, blocks = rules.cells, rules.cells // 4
    hole_min = cells * min(0, *pts) + blocks * min(0, rules.block_points)
    hole_max = cells * max(0, *pts) + blocks * max(0, rules.block_points)
    holes = rules.holes or max(1, rules.target * TARGET_HOLES_PER_POINT)
    # Returns are minus the totals.
    return ((holes + MAX_PLAYOFFS) * hole_actions(rules, players), float(-holes * hole_max),
            float(-holes * hole_min))


def hole_actions(rules: Rules, players: int) -> int:
    """The most player actions one hole can take: every seat's setup choices, then at
    most three actions (draw, discard, flip) per turn up to the turn limit."""
    return players * rules.setup_count + 3 * rules.turn_limit


class GolfGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type hints
    """``python_golf``: see the module docs. ``rules`` (a Rules object) replaces the
    preset and overrides, for in-process use (the game string then shows the preset)."""

    def __init__(self, params: Mapping[str, Any] | None = None, *,
                 rules: Rules | None = None) -> None:
        p = {**DEFAULTS, **(params or {})}
        players = p["players"]
        if p["reward"] not in ("score", "match"):
            raise GolfError(f"reward must be 'score' or 'match', got {p['reward']!r}")
        if p["observation"] not in ("scaled", "raw"):
            raise GolfError(f"observation must be 'scaled' or 'raw', got {p['observation']!r}")
        overrides = parse_rules_param(str(p["rules"]))
        p["rules"] = format_rules_param(overrides)  # a form the game string can carry
        self.golf_rules = rules if rules is not None else load_rules(
            str(p["preset"]), overrides or None)
        self.golf_rules.check_players(players)
        if players > MAX_PLAYERS:
            raise GolfError(f"python_golf takes at most {MAX_PLAYERS} players")
        self.reward = p["reward"]
        self.encoding = Encoding(self.golf_rules, players,
                                 scaled=p["observation"] == "scaled")
        length, low, high = _bounds(self.golf_rules, players)
        if self.reward == "match":
            low, high = -1.0, 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=NUM_CARD_IDS,
            num_players=players,
            min_utility=low - 1.0 if low == high else low,
            max_utility=high,
            utility_sum=None,
            max_game_length=length,
        )
        super().__init__(GAME_TYPE, info, {k: p[k] for k in DEFAULTS})
        self.deck_counts = Counter(self.golf_rules.deck(players))
        self.template = Game(self.golf_rules, players=players, seed=0)

    def new_initial_state(self) -> GolfState:
        return GolfState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None,
    ) -> GolfObserver:
        return GolfObserver(self, iig_obs_type, params)


class _Core:
    """A state's data. pyspiel clones a Python state by deep-copying its attributes,
    so this copies itself the cheap way (Game.clone); a new state shares the game's
    template until its first move. Pickled (pyspiel's ``serialize``), it is only a
    :class:`_Saved` marker: the state is rebuilt by replaying its action history,
    unless its cards were placed from outside (:func:`resample`, :func:`state_at`)."""

    __slots__ = ("_g", "dealing", "drawing", "game", "placed", "public", "rules", "shared")

    def __init__(self, game: GolfGame, g: Game, shared: bool = False) -> None:
        self.game = game  # kept here: asking the state for it crosses into C++ every time
        self.rules = game.golf_rules
        self._g = g
        self.shared = shared  # g is the game's template: clone before the first move
        self.placed = False  # cards placed from outside, not reached by the history
        self.dealing: list[int] | None = []  # cards dealt so far while a deal is open
        self.drawing = False  # a draw awaits the chance node that picks its card
        self.public: list[str] = []  # this hole's actions, as every seat saw them

    @property
    def g(self) -> Game:
        return self._g

    @g.setter
    def g(self, game: Game) -> None:
        """A game put in from outside: the state no longer follows from its history."""
        self._g, self.shared, self.placed = game, False, True

    def __deepcopy__(self, memo: Any) -> _Core:
        c = _Core.__new__(_Core)
        c.game, c.rules = self.game, self.rules
        c._g = self._g if self.shared else self._g.clone()
        c.shared, c.placed = self.shared, self.placed
        c.dealing = None if self.dealing is None else self.dealing[:]
        c.drawing = self.drawing
        c.public = self.public[:]
        return c

    def __reduce__(self) -> tuple[type[_Saved], tuple[dict[str, Any] | None]]:
        return _Saved, (self.placed_data() if self.placed else None,)

    def placed_data(self) -> dict[str, Any]:
        """Everything beyond the history, as JSON-ready data."""
        return {"position": self._g.position(), "dealing": self.dealing,
                "drawing": self.drawing, "public": self.public}

    def place(self, data: Mapping[str, Any]) -> None:
        self.g = Game.from_position(self.rules, data["position"])
        self.dealing = data["dealing"]
        self.drawing = bool(data["drawing"])
        self.public = [str(x) for x in data["public"]]

    def apply(self, action: int) -> None:
        """Play one chance outcome or player action id."""
        game = self.game
        if self.shared:
            self._g, self.shared = self._g.clone(), False
        g = self._g
        if self.dealing is not None:
            self.dealing.append(id_card(action))
            if len(self.dealing) == len(g.active) * g.rules.cells + 1:
                self._finish_deal(game)
            return
        if self.drawing:
            redraw(g, id_card(action))
            self.drawing = False
            return
        a = game.encoding.action(action)
        self.public.append(str(a))
        g.apply(a)
        if a == DRAW:
            self.drawing = True  # the engine drew a stand-in; the chance node picks the card
            return
        if g.ended_hole and not g.is_over:  # the next hole's deal is chance's
            self.dealing = []
            self.public = []

    def _finish_deal(self, game: GolfGame) -> None:
        """Put the dealt cards where the engine dealt its own: grids, then the discard."""
        g, dealt = self._g, self.dealing
        assert dealt is not None
        pos = g.position()
        cells = g.rules.cells
        for k, seat in enumerate(g.active):
            pos["grids"][seat] = dealt[k * cells:(k + 1) * cells]
        pos["discard"] = [dealt[-1]]
        pos["stock"] = sorted((game.deck_counts - Counter(dealt)).elements())
        self._g = Game.from_position(g.rules, pos)
        self.dealing = None


class _Saved:
    """What pyspiel's pickle of a state holds: nothing but, for a state whose cards were
    placed from outside, that placement as plain data. :class:`GolfState` rebuilds
    itself from its history when pyspiel sets this as its ``_core``."""

    def __init__(self, placed: dict[str, Any] | None) -> None:
        self.placed = placed

    def restore(self, state: GolfState) -> _Core:
        game = state.get_game()
        core = _Core(game, game.template, shared=True)
        for action in state.history():
            core.apply(action)
        if self.placed is not None:
            core.place(self.placed)
        return core


class GolfState(pyspiel.State):  # type: ignore[misc]
    """A ``python_golf`` state: the engine game plus the deal in progress."""

    def __init__(self, game: GolfGame) -> None:
        super().__init__(game)
        self._core = _Core(game, game.template, shared=True)

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, _Saved):  # pyspiel's deserialize_state: replay the history
            value = value.restore(self)
        super().__setattr__(name, value)

    # --- OpenSpiel API ------------------------------------------------------------
    def current_player(self) -> int:
        c = self._core
        if c.g.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if c.dealing is not None or c.drawing:
            return int(pyspiel.PlayerId.CHANCE)
        seat = c.g.current_player
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        enc = self.get_game().encoding
        return sorted(enc.action_id(a) for a in self._core.g.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        c = self._core
        if c.dealing is not None:
            left = self.get_game().deck_counts - Counter(c.dealing)
        elif c.drawing:
            left = Counter(draw_pool(c.g))
        else:
            raise GolfError("not a chance node")
        total = sum(left.values())
        return sorted((card_id(card), n / total) for card, n in left.items())

    def _apply_action(self, action: int) -> None:
        self._core.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            card = id_card(action)
            if rank(card) == JOKER:  # jokers have no suit letter; keep their names apart
                return f"card JK{suit(card) + 1}"
            return f"card {card_str(card)}"
        return str(self.get_game().encoding.action(action))

    def is_terminal(self) -> bool:
        return self._core.g.is_over

    def returns(self) -> list[float]:
        g = self._core.g
        if not g.is_over:
            return [0.0] * g.players
        if self.get_game().reward == "match":
            winners = g.winners
            return [1.0 if s in winners else -1.0 for s in range(g.players)]
        return [-float(t) for t in g.totals]

    def __str__(self) -> str:
        """Every card (a debugging string, not what a seat may know)."""
        c = self._core
        pos = c.g.position()
        lines = [f"hole {pos['hole']} phase {pos['phase']} to act {self.current_player()}"]
        if c.dealing is not None:
            lines.append("dealing: " + " ".join(card_str(x) for x in c.dealing))
        else:
            for seat, grid in enumerate(pos["grids"]):
                if grid is not None:
                    ups = pos["face_up"][seat]
                    cards = " ".join(card_str(x) + ("" if u else "*")
                                     for x, u in zip(grid, ups, strict=True))
                    lines.append(f"seat {seat}: {cards} peeked {pos['peeked'][seat]}")
            lines.append("discard: " + " ".join(card_str(x) for x in pos["discard"]))
            lines.append("stock: " + " ".join(card_str(x) for x in pos["stock"]))
            if pos["held"] is not None:
                held = "?" if c.drawing else card_str(pos["held"])
                lines.append(f"held: {held} from {pos['held_from']}")
        lines.append(f"totals: {pos['totals']} actions: {' '.join(c.public)}")
        return "\n".join(lines)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GolfState:
        """A state ``player_id`` cannot tell from this one (see :func:`resample`)."""
        seed = int(probability_sampler() * 2**53) if callable(probability_sampler) else None
        return resample(self, player_id, random.Random(seed))

    # --- for observers ------------------------------------------------------------
    def view(self, seat: int | None) -> ViewDict:
        """The engine view of ``seat`` (codes), or the public view for ``None``, as it
        stands between chance nodes."""
        c = self._core
        v = c.g.view(seat, codes=True)
        if c.dealing is not None:
            # The deal is still open: nothing has been dealt face up yet.
            n = c.g.rules.cells
            v["grids"] = [None if x is None else [None] * n for x in v["grids"]]
            v["face_up"] = [None if x is None else [False] * n for x in v["face_up"]]
            v["peeked"], v["discard"], v["discard_top"] = [], [], None
            v["stock_size"] = c.g.rules.deck_size(c.g.players) - len(c.dealing)
        elif c.drawing:
            # The card drawn is not chosen yet: it is still in the stock.
            v["held"] = v["held_by"] = v["held_from"] = None
            v["stock_size"] += 1
        return v


def resample(state: GolfState, player: int, rng: random.Random) -> GolfState:
    """A state that ``player`` cannot tell from ``state``: a world drawn by
    :class:`golf.knowledge.Sampler` from the seat's view, every world consistent with
    it equally likely.

    What the seat has seen stays: every card in its view (face-up cards, its peeked
    cards, the discard pile, a card it holds), and the stock's cards once a reshuffle
    has shown them (then the stock keeps its cards and only the face-down cards the
    seat cannot see trade places). The actions so far stay too, so the seat's
    information state string is the same. The world's future chance is its own
    (its seed comes from ``rng``): the real seed would tell how the stock reshuffles.
    """
    c = state._core
    if c.dealing is not None or c.drawing:
        raise GolfError("resample a decision node, not a chance node")
    sampler = Sampler(state.view(player), c.rules, rng)
    new = state.clone()
    new._core.g = sampler.game(sampler.world(), replayable=False)
    return new  # type: ignore[no-any-return]


def resampler(seed: int | None = None) -> Callable[[GolfState, int], GolfState]:
    """A resampler for ``ISMCTSBot.set_resampler`` with its own random generator."""
    rng = random.Random(seed)
    return lambda state, player: resample(state, player, rng)


def state_at(game: GolfGame, position: Mapping[str, Any] | Game) -> GolfState:
    """A decision state of ``game`` in the engine position ``position`` (hole under
    way, no deal open), for searchers that build worlds from a view; ``position`` may
    also be an engine :class:`golf.Game` there (say a :class:`golf.knowledge.Sampler`
    world under ``game``'s rules), which the state then plays on (not a copy). Its
    history is empty: it was placed, not played (:func:`serialize_state` keeps the
    placement)."""
    state = game.new_initial_state()
    core = state._core
    core.g = (position if isinstance(position, Game)
              else Game.from_position(game.golf_rules, position))
    core.dealing = None
    return state


def engine_game(state: GolfState) -> Game:
    """The engine game a state plays, for evaluators that play on from it (clone it
    first: a move applied to it bypasses the state's chance nodes)."""
    return state._core.g


def serialize_state(state: GolfState) -> str:
    """A state as text without pickle: its action history (chance outcomes included)
    as pyspiel writes it, ``history=player:action,...``, and, for a state whose
    cards were placed (:func:`resample`, :func:`state_at`), a ``position=`` line of
    JSON. :func:`deserialize_state` reads it back."""
    lines = ["history=" + ",".join(f"{p.player}:{p.action}" for p in state.full_history())]
    core = state._core
    if core.placed:
        lines.append("position=" + json.dumps(core.placed_data(), separators=(",", ":")))
    return "\n".join(lines)


def deserialize_state(game: GolfGame, text: str) -> GolfState:
    """The state :func:`serialize_state` (or pyspiel's ``state.serialize()``) wrote,
    rebuilt by replaying its history through the rules: every action must be legal
    where it stands, or the text is refused with a GolfError naming the first bad one.
    Only numbers and JSON are read: pyspiel's own ``game.deserialize_state`` unpickles
    the ``__dict__=`` line of its format, which can run any code, so untrusted text
    goes here; that line is ignored (a placed world needs ``position=``)."""
    lines = text.strip().splitlines()
    if not lines or not lines[0].startswith("history="):
        raise GolfError("a serialized python_golf state starts with 'history=' "
                        "(player:action pairs separated by commas)")
    state = game.new_initial_state()
    items = [x for x in lines[0][len("history="):].split(",") if x]
    for n, item in enumerate(items, 1):
        player, sep, action = item.partition(":")
        try:
            who, a = int(player), int(action)
        except ValueError:
            raise GolfError(f"history item {n} {item!r} is not player:action") from None
        if not sep or who != state.current_player():
            raise GolfError(f"history item {n} {item!r}: player {state.current_player()} "
                            f"is to move there")
        allowed = ([o for o, _ in state.chance_outcomes()] if state.is_chance_node()
                   else state.legal_actions())
        if a not in allowed:
            raise GolfError(f"history item {n} {item!r}: action {a} is not possible there")
        state.apply_action(a)
    for line in lines[1:]:
        if line.startswith("position="):
            try:
                data = json.loads(line[len("position="):])
                state._core.place(data)
            except (ValueError, KeyError, TypeError) as e:
                raise GolfError(f"bad position= line: {e}") from None
    return state


class Restartable(pyspiel.Bot):  # type: ignore[misc]
    """A Python OpenSpiel bot made fit for ``evaluate_bots``, which calls
    ``restart_at`` on every bot first: ``ISMCTSBot`` lacks it (pyspiel then raises
    ``RestartAt(state) not implemented``). Restarting resets the bot (IS-MCTS
    rebuilds its tree at every step anyway); ``step`` and the rest pass through.

    >>> from open_spiel.python.algorithms import ismcts, mcts
    >>> game = pyspiel.load_game("python_golf(rules=holes:1)")
    >>> rs = np.random.RandomState(0)
    >>> bot = Restartable(ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs),
    ...                                    uct_c=10.0, max_simulations=5, random_state=rs))
    >>> bot.restart_at(game.new_initial_state())
    """

    def __init__(self, bot: Any) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot

    def step(self, state: Any) -> int:
        return int(self.bot.step(state))

    def restart_at(self, state: Any) -> None:
        reset = getattr(self.bot, "reset", None)
        if callable(reset):
            reset()

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        inform = getattr(self.bot, "inform_action", None)
        if callable(inform):
            inform(state, player_id, action)

    def provides_policy(self) -> bool:
        return hasattr(self.bot, "step_with_policy")

    def step_with_policy(self, state: Any) -> Any:
        return self.bot.step_with_policy(state)


class GolfObserver:
    """OpenSpiel's Python observer: the encoding's vector and a text of the view.

    Supports the information state (perfect recall: the view plus the hole's public
    actions, in the string and in the tensor) and the observation (the view), for one
    seat (``SINGLE_PLAYER``) or for the public (``NONE``: without the seat's peeked
    cards and the card it drew).
    """

    def __init__(self, game: GolfGame, iig_obs_type: Any, params: Mapping[str, Any] | None):
        if params:
            raise ValueError(f"python_golf observers take no parameters, got {dict(params)}")
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER
        recall = False
        if iig_obs_type is not None:
            if not iig_obs_type.public_info:
                raise ValueError("python_golf observers always include public information")
            private = iig_obs_type.private_info
            recall = iig_obs_type.perfect_recall
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_golf has no observer for every seat's private cards")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.perfect_recall = recall
        self.encoding = enc = game.encoding
        # Perfect recall: after the view, one slot per action the hole can take, holding
        # the id + 1 of the hole's public actions in order (0: none yet; divided by the
        # number of ids when scaled), as the information-state string lists them.
        self._view_size = n = enc.size
        slots = hole_actions(game.golf_rules, game.num_players()) if recall else 0
        self.tensor = np.zeros(n + slots, np.float32)
        self.dict = {"observation": self.tensor[:n]}
        if recall:
            self.dict["actions"] = self.tensor[n:]
        self._slot = {str(a): i + 1 for i, a in enumerate(enc.actions)}
        self._scale = 1.0 / enc.num_actions if enc.scaled else 1.0
        # pyspiel asks for the tensor's shape on every observation_tensor() call, by
        # writing the tensor of a new initial state: those are all alike, so keep them.
        self._fresh: dict[int, np.ndarray] = {}

    def _view(self, state: GolfState, player: int) -> ViewDict:
        if not self.public_only:
            return state.view(player)
        # The engine's public view (what a spectator sees), encoded from player's seat.
        v = state.view(None)
        v["seat"] = player
        return v

    def set_from(self, state: GolfState, player: int) -> None:
        n = self._view_size
        if state._core.shared:  # a new state, as pyspiel's shape query makes
            fresh = self._fresh.get(player)
            if fresh is None:
                fresh = self._fresh[player] = self.encoding.encode(self._view(state, player))
            self.tensor[:n] = fresh
            self.tensor[n:] = 0.0  # no action yet
            return
        self.encoding.encode(self._view(state, player), out=self.tensor[:n])
        if self.perfect_recall:
            self._write_actions(state._core.public)

    def _write_actions(self, public: list[str]) -> None:
        """The hole's public actions into the tensor's slots after the view."""
        slots = self.tensor[self._view_size:]
        if len(public) > len(slots):  # pragma: no cover - hole_actions bounds every hole
            raise GolfError(f"{len(public)} actions in one hole; the tensor holds "
                            f"{len(slots)}")
        slots.fill(0.0)
        slot = self._slot
        slots[:len(public)] = [slot[a] for a in public]
        if self._scale != 1.0:
            slots[:len(public)] *= self._scale

    def string_from(self, state: GolfState, player: int) -> str:
        v = self._view(state, player)
        text = describe(v, suits=False)
        known = v["stock_cards"]
        if known is not None:
            text += "\nstock holds " + " ".join(sorted(card_str(x, False) for x in known))
        if self.perfect_recall:
            text += "\nactions: " + " ".join(state._core.public)
        return text


pyspiel.register_game(GAME_TYPE, GolfGame)
