"""Action notation: canonical text, aliases, positions and clear errors."""

from __future__ import annotations

import pytest

import golf
from golf.actions import (
    DISCARD,
    DRAW,
    KINDS,
    KNOCK,
    MAX_POSITION,
    PASS,
    POSITIONAL,
    TAKE,
    Action,
    flip,
    peek,
    reveal,
    swap,
)

CANONICAL = (
    [f"{k} {n}" for k in ("reveal", "peek", "swap", "flip") for n in range(1, MAX_POSITION + 1)]
    + ["draw", "take", "discard", "pass", "knock"]
)


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_notation_round_trips(text: str) -> None:
    a = Action.parse(text)
    assert str(a) == text
    assert Action.parse(str(a)) is a  # actions are interned
    assert a.kind == text.split()[0]


def test_every_action_code_has_a_distinct_notation() -> None:
    texts = {str(Action.parse(t)) for t in CANONICAL}
    assert len(texts) == len(CANONICAL) == 4 * MAX_POSITION + 5


@pytest.mark.parametrize(
    "alias, canonical",
    [
        ("d", "draw"), ("t", "take"), ("x", "discard"), ("k", "knock"),
        ("s3", "swap 3"), ("s 3", "swap 3"), ("f2", "flip 2"), ("r1", "reveal 1"),
        ("p4", "peek 4"), ("SWAP 3", "swap 3"), ("  Draw  ", "draw"), ("swap3", "swap 3"),
        ("PASS", "pass"),
    ],
)
def test_aliases_case_and_spaces(alias: str, canonical: str) -> None:
    assert str(Action.parse(alias)) == canonical


def test_positions_are_one_based_cells_zero_based() -> None:
    a = Action.parse("swap 1")
    assert a.position == 1 and a.cell == 0
    assert Action.parse("flip 16").cell == 15
    assert DRAW.position is None and DRAW.cell is None


def test_constants_and_helpers() -> None:
    assert (str(DRAW), str(TAKE), str(DISCARD), str(PASS), str(KNOCK)) == (
        "draw", "take", "discard", "pass", "knock")
    assert str(reveal(2)) == "reveal 2" and str(peek(5)) == "peek 5"
    assert str(swap(6)) == "swap 6" and str(flip(9)) == "flip 9"
    assert swap(3) == Action.parse("s3")
    assert repr(swap(3)) == "Action('swap 3')"
    assert isinstance(swap(3), int)
    assert {KINDS[k] for k in POSITIONAL} == {"reveal", "peek", "swap", "flip"}


def test_missing_position_is_explained() -> None:
    for word in ("swap", "flip", "reveal", "peek", "s"):
        with pytest.raises(golf.NotationError, match="needs a position"):
            Action.parse(word)


def test_position_on_an_action_without_one_is_explained() -> None:
    for text in ("draw 2", "take 1", "discard 3", "pass 1", "knock 4"):
        with pytest.raises(golf.NotationError, match="takes no position"):
            Action.parse(text)


@pytest.mark.parametrize("text", ["swap 0", "flip 17", "reveal 99"])
def test_position_out_of_range(text: str) -> None:
    with pytest.raises(golf.NotationError, match=f"between 1 and {MAX_POSITION}"):
        Action.parse(text)


@pytest.mark.parametrize("text", ["", "jump", "swap x", "swap -1", "draw, take", "2 swap", "q"])
def test_unknown_text_lists_the_actions(text: str) -> None:
    with pytest.raises(golf.NotationError) as e:
        Action.parse(text)
    assert "reveal N, peek N, draw, take, swap N, discard, flip N, pass, knock" in str(e.value)


@pytest.mark.parametrize("text", ["swap ٣", "s٣", "reveal ३", "flip 𝟛", "swap ²", "peek ①"])
def test_positions_are_ascii_digits_only(text: str) -> None:
    # str.isdigit() and the regular expression's \d take these; int() reads "٣" as 3.
    with pytest.raises(golf.NotationError, match="is not an action"):
        Action.parse(text)


def test_non_text_is_rejected() -> None:
    with pytest.raises(golf.NotationError, match="is text like"):
        Action.parse(3)  # type: ignore[arg-type]
