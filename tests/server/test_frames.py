"""How the server encodes and sends frames: the fast JSON encoder means what the standard
library's means, and a frame is written at once only when nothing has to wait."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from golf.rules import load_rules
from golf.server.core.protocol import dumps, dumps_fast, dumps_stdlib
from golf.server.tables.match import LiveMatch

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text() | st.integers(-5, 5), inner, max_size=4),
    max_leaves=20)


@settings(deadline=None)  # timing on a shared machine is no part of the property
@given(JSON)
def test_fast_encoder_means_what_the_stdlib_one_means(value: Any) -> None:
    assert json.loads(dumps_fast(value)) == json.loads(dumps_stdlib(value))


def test_what_orjson_refuses_is_encoded_by_the_stdlib() -> None:
    # A lone surrogate (possible in text a client sent) and an integer beyond 64 bits.
    for value in ({"text": "a\ud800b"}, {"n": 2**70}, [1, {"x": "\udfff"}]):
        assert dumps_fast(value) == dumps_stdlib(value)


def test_the_server_sends_with_the_fast_encoder() -> None:
    assert dumps is dumps_fast


def test_every_frame_of_a_match_encodes_to_the_same_value() -> None:
    """Real views and events of a whole match, for each seat and for spectators."""
    rng = random.Random(3)
    m = LiveMatch.new(load_rules("six-card", {"holes": 2}), 3, 11, {})
    frames = 0
    while not m.is_over:
        actor = m.to_act
        assert actor is not None
        turn = m.play(rng.choice(m.game.view(actor)["legal_actions"]))
        for seat in (0, 1, 2, None):
            view = m.game.view(seat) if seat is not None else m.game.public_view()
            frame = {"type": "state", "view": view, "event": turn.event.to_dict(seat),
                     "scoring": m.explained(turn.event)}
            assert json.loads(dumps_fast(frame)) == json.loads(dumps_stdlib(frame))
            frames += 1
    assert frames > 100
