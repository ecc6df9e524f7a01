"""Where each fact lives in the compiled core's two int64 arrays.

A match is one flat ``int64`` array (the *state*, copied with ``state.copy()``), played
under one ``int64`` array of rule facts (the *config*, built once per
:class:`~golf.Rules` and player count by :mod:`golf.fast.config`). The state's
scalar header comes first; the per-seat and per-card regions follow at offsets the
config stores, since their sizes depend on the player count, grid and deck.
"""

from __future__ import annotations

from .. import actions as _actions
from .. import cards as _cards

# --- bit layouts (module-level ints: numba compiles them in as constants) -----------
RANK_MASK = _cards.RANK_MASK  # card code: the rank's bits
SUIT_SHIFT = _cards.SUIT_SHIFT  # card code: the suit sits above the rank
KIND_SHIFT = _actions.KIND_SHIFT  # action code: the kind sits above the cell
CELL_MASK = _actions.CELL_MASK  # action code: the 0-based cell's bits

# --- state header (scalars) --------------------------------------------------------
S_PHASE = 0  # golf.phases numbers, plus DEAL while a deal waits for its permutation
S_CUR = 1
S_DEALER = 2
S_HOLE = 3  # hole index (0-based; playoff holes count on)
S_PLAYOFF = 4
S_SETUP_LEFT = 5
S_CHOSEN = 6  # cells chosen in the setup of the seat to act (mask)
S_HELD = 7  # card code, -1 when none
S_HELD_FROM = 8  # golf.phases.FROM_STOCK / FROM_DISCARD
S_TURN_COUNT = 9
S_ENDER = 10  # seat the final turns run up to (-1: none)
S_KNOCKER = 11
S_RESHUFFLES = 12
S_STOCK_LEN = 13
S_DISCARD_LEN = 14
S_ACTIVE = 15  # seats dealt in this hole (mask)
S_N_REGULAR = 16  # regular holes finished
S_N_PLAYOFF = 17  # playoff holes finished
S_WINNERS = 18  # mask, once the match is over
S_CHANCE = 19  # CHANCE_ENGINE or CHANCE_RNG
S_PERM_FOR = 20  # hole index whose deal permutation the deal buffer holds (-1: none)
S_RPERM_FOR = 21  # reshuffle key (hole * 4096 + reshuffle number) the buffer holds
S_PENDING = 22  # seats to deal in once the deal permutation arrives (mask)
S_HOLES_ENDED = 23  # holes finished (regular and playoff): a wrapper's cue to record one
S_LAST_KNOCKER = 24
S_LAST_WENT_OUT = 25
S_LAST_DISCARD_TOP = 26
S_LAST_PLAYOFF = 27
S_LAST_NUMBER = 28
HEADER = 32

DEAL = 5  # internal phase: a deal waits for its permutation (engine chance only)
CHANCE_ENGINE, CHANCE_RNG = 0, 1
RESHUFFLE_KEY = 4096  # a hole has far fewer reshuffles than this

# --- config (rule facts) -----------------------------------------------------------
C_ROWS = 0
C_COLS = 1
C_CELLS = 2
C_PLAYERS = 3
C_DECK = 4  # cards in the deck
C_SETUP_COUNT = 5
C_SETUP_PEEK = 6
C_SETUP_ALLOWED = 7  # mask of cells the setup may choose
C_RETURN_TAKEN = 8
C_FLIP_AFTER = 9  # FLIP_MUST / FLIP_MAY / FLIP_NEVER
C_REPLACE_DOWN = 10
C_FLIP_INSTEAD = 11
C_KNOCK = 12
C_KNOCK_FIRST = 13
C_END = 14  # END_FIRST / END_ALL / END_NEVER
C_FINAL_TURNS = 15
C_RESHUFFLE = 16
C_HOLES = 17
C_TARGET = 18
C_TARGET_REACH = 19
C_TIE_PLAYOFF = 20
C_TURN_LIMIT = 21
C_MAX_PLAYOFFS = 22
C_N_LINES = 23
C_N_SETS = 24
C_FULL = 25
C_POINTS = 26  # 15 entries, by rank (0: an unknown card)
# 41-55: free (was one key table for every pattern; patterns now name their own)
C_WILD = 56  # 15 entries: 1 for a wild rank
C_O_LINES = 71  # offsets of variable-length regions of the config
C_O_SETS = 72
C_O_SET_POINTS = 73
C_O_DECK = 74
C_O_GRIDS = 75  # offsets of the state's regions, stored in the config
C_O_UP = 76
C_O_PEEKED = 77
C_O_TURNS = 78
C_O_TOTALS = 79
C_O_STOCK = 80
C_O_DISCARD = 81
C_O_PERM = 82
C_O_RPERM = 83
C_O_LAST_GRIDS = 84
C_O_LAST_SCORES = 85
C_STATE_SIZE = 86
C_O_LINE_KEYS = 87  # offset of each line's key table (C_RANK_KEYS or C_POINT_KEYS)
C_O_SET_KEYS = 88  # the same for each set (blocks follow block_match_by)
C_O_WORK = 89  # offset of the state's work space for scoring sets (not part of the position)
C_WORK = 90  # its size (0 without set patterns): the scorer allocates nothing
C_RANK_KEYS = 96  # 15 entries: each rank itself
C_POINT_KEYS = 111  # 15 entries: each rank's points
C_FIXED = 128

FLIP_MUST, FLIP_MAY, FLIP_NEVER = 0, 1, 2
END_FIRST, END_ALL, END_NEVER = 0, 1, 2
NO_SCORE = -(2**40)  # a seat not dealt in (playoff holes)
