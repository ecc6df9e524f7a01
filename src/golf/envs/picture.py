"""The table as a picture: an RGB array drawn from one seat's view, for
``render_mode="rgb_array"`` (video recorders, SB3's ``make_vec_env``).

Only numpy: each card is a small tile with its rank in a 3x5 pixel font (red for
hearts and diamonds), a face-down card is a blue back, a card this seat has looked
at but that lies face down has a blue frame. One row of grids per seat (the dealer's
marked by a gold bar, the seat to act by a green one), then the discard top and a
held card. Like every output it comes from the view, so it shows only what the seat
may see.

>>> from golf import Game
>>> img = table_image(Game("six-card", players=2, seed=1).view(0, codes=True))
>>> img.shape, img.dtype.name
((52, 67, 3), 'uint8')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..cards import JOKER, RANK_MASK, RANK_NAMES, SUIT_SHIFT

Image = npt.NDArray[np.uint8]

# 3x5 glyphs, rows top to bottom, '#' = ink.
_FONT = {
    "A": (".#.", "#.#", "###", "#.#", "#.#"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("##.", "..#", ".#.", "#..", "###"),
    "3": ("##.", "..#", ".#.", "..#", "##."),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "##.", "..#", "##."),
    "6": (".##", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", ".#.", ".#.", ".#."),
    "8": ("###", "#.#", "###", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "##."),
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "J": ("..#", "..#", "..#", "#.#", ".#."),
    "Q": (".#.", "#.#", "#.#", ".#.", "..#"),
    "K": ("#.#", "##.", "#..", "##.", "#.#"),
    "*": ("#.#", ".#.", "###", ".#.", "#.#"),  # a joker
}
_GLYPHS = {ch: np.array([[c == "#" for c in row] for row in rows]) for ch, rows in _FONT.items()}

CARD_W, CARD_H, GAP = 10, 9, 2
FELT = (22, 96, 52)
FACE = (245, 245, 240)
BACK = (40, 70, 160)
BLACK = (20, 20, 20)
RED = (200, 30, 30)
GOLD = (230, 190, 40)
GREEN = (90, 230, 90)
RED_SUITS = (1, 2)  # H, D in golf.cards.SUITS


def _label(card: int) -> str:
    r = card & RANK_MASK
    return "*" if r == JOKER else RANK_NAMES[r]


def _card(img: Image, y: int, x: int, card: int | None, looked: bool = False) -> None:
    tile = img[y:y + CARD_H, x:x + CARD_W]
    if card is None:
        tile[:] = BACK
        return
    tile[:] = FACE
    if looked:
        tile[0, :] = tile[-1, :] = tile[:, 0] = tile[:, -1] = BACK
    ink = RED if (card >> SUIT_SHIFT) in RED_SUITS and card & RANK_MASK != JOKER else BLACK
    text = _label(card)
    gx = x + (CARD_W - 4 * len(text) + 1) // 2
    for ch in text:
        glyph = _GLYPHS[ch]
        region = img[y + 2:y + 7, gx:gx + 3]
        region[glyph] = ink
        gx += 4


def table_image(view: Mapping[str, Any]) -> Image:
    """An RGB picture (height, width, 3; uint8) of ``view`` (a view with card codes)."""
    grids: Sequence[Sequence[int | None] | None] = view["grids"]
    rows, cols = view["rows"], view["cols"]
    seats = len(grids)
    grid_w = cols * (CARD_W + GAP)
    grid_h = rows * (CARD_H + GAP)
    width = GAP + 3 + grid_w + GAP + 2 * (CARD_W + GAP)
    height = GAP + seats * (grid_h + GAP) + GAP
    img: Image = np.empty((height, width, 3), np.uint8)
    img[:] = FELT
    me = view["seat"]
    face_up = view["face_up"]
    for seat, grid in enumerate(grids):
        y0 = GAP + seat * (grid_h + GAP)
        if seat == view["dealer"]:
            img[y0:y0 + grid_h - GAP, GAP:GAP + 1] = GOLD
        if seat == view["current_player"]:
            img[y0:y0 + grid_h - GAP, GAP + 1:GAP + 2] = GREEN
        if grid is None:
            continue
        ups = face_up[seat] or [False] * len(grid)
        for i, card in enumerate(grid):
            y = y0 + (i // cols) * (CARD_H + GAP)
            x = GAP + 3 + (i % cols) * (CARD_W + GAP)
            _card(img, y, x, card, looked=seat == me and card is not None and not ups[i])
    x = GAP + 3 + grid_w + GAP
    discard = view["discard"]
    if discard:
        _card(img, GAP, x, discard[-1])
    if view["held_from"] is not None:
        _card(img, GAP + CARD_H + GAP, x, view["held"])
    stock = min(view["stock_size"], height - 2 * GAP)
    img[GAP:GAP + stock, x + CARD_W + GAP:x + CARD_W + GAP + 3] = BACK  # the stock's height
    return img
