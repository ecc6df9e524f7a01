"""Cards as small ints, and their text notation.

A card is ``rank | suit << 4``: ranks 1 (ace) to 13 (king) and 14 for a joker,
suits 0-3 for spades, hearts, diamonds and clubs. Ints keep the engine's hot
paths allocation-free; only this module turns them into text.

>>> card = parse_card("10h")
>>> rank(card), card_str(card)
(10, '10H')
>>> card_str(parse_card("T"), suits=False), card_str(parse_card("jk"))
('10', 'JK')
"""

from __future__ import annotations

from .errors import NotationError

ACE, JACK, QUEEN, KING, JOKER = 1, 11, 12, 13, 14
RANKS = tuple(range(1, 15))
SUITS = "SHDC"
RANK_NAMES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK")
_RANK_BY_NAME = {name: r for r, name in enumerate(RANK_NAMES) if name}
_RANK_BY_NAME["T"] = 10
_RANK_BY_NAME["1"] = ACE
#: Suit-less cards (as typed into the score calculator) use suit 0.
SUITLESS = 0
#: The bit layout of a card code, the one definition (``golf.fast.layout`` repeats it
#: for the compiled core): the rank in the low four bits, the suit above them.
RANK_MASK = 15
SUIT_SHIFT = 4
#: Card codes are below this: four suits above four rank bits.
N_CODES = 4 << SUIT_SHIFT


def rank(card: int) -> int:
    """The rank of a card code: 1-13, or 14 for a joker."""
    return card & RANK_MASK


def suit(card: int) -> int:
    return card >> SUIT_SHIFT


def make_card(rank_: int, suit_: int = SUITLESS) -> int:
    return rank_ | suit_ << SUIT_SHIFT


def rank_name(rank_: int) -> str:
    return RANK_NAMES[rank_]


def card_str(card: int, suits: bool = True) -> str:
    """Notation of a card: rank then suit letter (``"QS"``), ``"JK"`` for a joker.

    Suit-less cards (suit 0 on ranks typed without a suit) print as spades only when
    ``suits`` is true; the score calculator prints ranks alone.
    """
    r = card & RANK_MASK
    if r == JOKER or not suits:
        return RANK_NAMES[r]
    return RANK_NAMES[r] + SUITS[card >> SUIT_SHIFT]


#: :func:`card_str` of every card code with a rank, by code: a view lists dozens of cards
#: (grids, the whole discard pile, the last hole's grids), and a lookup costs a fraction
#: of a call. Codes without a rank never occur in a game; they map to "".
CARD_TEXT: tuple[str, ...] = tuple(
    card_str(c) if 1 <= c & RANK_MASK <= JOKER else "" for c in range(N_CODES))


def parse_card(text: str) -> int:
    """Parse ``A 2 .. 10 J Q K`` (``T`` for 10) with an optional suit letter, or ``JK``."""
    t = text.strip().upper()
    if t in ("JK", "JOKER", "*"):
        return make_card(JOKER)
    s = SUITLESS
    if len(t) >= 2 and t[-1] in SUITS and t[:-1] in _RANK_BY_NAME:
        s = SUITS.index(t[-1])
        t = t[:-1]
    r = _RANK_BY_NAME.get(t)
    if r is None or r == JOKER:
        raise NotationError(
            f"{text!r} is not a card: use a rank A 2 3 4 5 6 7 8 9 10 J Q K (T for 10), "
            "optionally followed by a suit S H D C, or JK for a joker"
        )
    return make_card(r, s)


def build_deck(decks: int, jokers_per_deck: int) -> list[int]:
    """Every card of ``decks`` standard decks plus their jokers, in a fixed order."""
    one = [make_card(r, s) for s in range(4) for r in range(1, 14)]
    one += [make_card(JOKER, j % 4) for j in range(jokers_per_deck)]
    return one * decks
