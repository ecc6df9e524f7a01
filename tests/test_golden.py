"""Golden games: seeded random play of every preset, pinned on the engine as it was.

A refactor of the engine must not change how any game plays: these matches, played by a
seeded random policy through the public API only, must end with the same totals after the
same number of actions and holes, and the same actions (compared by a sha256 of their
space-joined notation). The values were computed once, before the engine was restructured;
a change to a preset's rules (not to the engine) is the only good reason to update them.
"""

from __future__ import annotations

import hashlib
import random

import pytest

import golf
from golf.rules import preset_names

# (preset, players, seed, final totals, actions, holes, sha256 of the actions)
GOLDEN: list[tuple[str, int, int, list[int], int, int, str]] = [
    ('four-card', 3, 1, [185, 208, 188], 181, 9,
     '7401c3bc07e3832c0ffa1cfee5c3def4ead0888d1e90a0e3d2b24b02e00b0db4'),
    ('four-card', 3, 2, [203, 201, 185], 175, 9,
     'f1a878b0701aa6c577527bc066396aac190aa64c875653ba1db33c98b71d6227'),
    ('four-card', 3, 3, [180, 195, 186], 184, 9,
     'd58a70023e4480e60a12d4beaf45cb6cabef49c16809158cd4b5bd5c8a0f4819'),
    ('four-card', 4, 4, [182, 173, 188, 184], 266, 9,
     '81290f9bb80c2c7601221bf5649375095348d2e6784cccc312576faf0012de76'),
    ('four-card', 4, 5, [179, 224, 199, 162], 217, 9,
     'f283b5922dcaa997d384bb4829b7f42da6d9a5d5bd3dd63c569712745ac91542'),
    ('four-card-wild', 2, 1, [197, 107], 204, 9,
     'c0bed4711c177c10da5b45011c3fdde619de788e2977a44c44485c3411186336'),
    ('four-card-wild', 2, 2, [130, 168], 205, 9,
     '05d69d52f12a8ebe8c1cc77ec1d63c96f387f223c9fdd28ccb5db719e7872d0e'),
    ('four-card-wild', 2, 3, [216, 105], 205, 9,
     'a761f0cf0ce5d6ec71cec5d1056106be62358fdde8652112a1e20e127d4c2d7c'),
    ('four-card-wild', 4, 4, [92, 150, 177, 192], 405, 9,
     'a130941d3aedf53e45b9e2fdf874065e36ecc47f1fd1f7a245afc4ea92bc167f'),
    ('four-card-wild', 4, 5, [166, 171, 152, 164], 398, 9,
     '3919bc5210d61b74dba958c441be50e8c00e903735ba874fe4d7d8277da5df70'),
    ('german', 2, 1, [113, 78], 174, 3,
     '3f5b7ea738555777afe7a5503d6ef90a41f4a89413ae78fe7ab18cca49405b3c'),
    ('german', 2, 2, [130, 101], 138, 3,
     'bd2595b1798863d670694eb5e39c73fb7e3cc0ab37a8e052cf03f3859363b150'),
    ('german', 2, 3, [113, 97], 180, 3,
     '4cd3716acc32b4aecbf32ee3699643b8707bc2a41f9a6288ee123c75904b4b75'),
    ('german', 4, 4, [90, 104, 125, 99], 210, 3,
     '50993533cc52595a60d333275f3cd7f977cd7944a8d90bf24560d98875e68fb8'),
    ('german', 4, 5, [88, 86, 106, 93], 270, 3,
     '707250d0691c90d902728971c87b3d4cf6bb3598d8a22a866fb6729fed7e59d1'),
    ('nine-card', 1, 1, [87], 62, 2,
     '7ca7c5725f3ab8ae9ee57f27acc843da98a7f92311dae45a901f54fc48811038'),
    ('nine-card', 1, 2, [104], 121, 2,
     '280b40b72ce8adda91d8df931849fe7f8d00fec8e3fc8f9eaa0861c9e49012ba'),
    ('nine-card', 1, 3, [61], 45, 1,
     '45dd27a394cb0778aea5a1a6a07fff65ddbafced3444b3768934f19067176e09'),
    ('nine-card', 4, 4, [112, 105, 94, 80], 229, 2,
     '8b834ea87d18d23a014bc5e4f8be13d3c1ca8427ff1cc54efdbc2fee9b011b56'),
    ('nine-card', 4, 5, [50, 52, 43, 49], 115, 1,
     '0742110c91e784fbc842138aa708e7c3239789773b720697f3f8997c69f89e14'),
    ('six-card', 2, 1, [270, 276], 315, 9,
     '575c1702328398b6d9f18917547be8047b0971985318e53a8b9e62e122cf1d1a'),
    ('six-card', 2, 2, [303, 278], 377, 9,
     '3b2a8bf353a81acb61d347042a8116aa6e5970538336edce603787145fd50571'),
    ('six-card', 2, 3, [251, 308], 433, 9,
     '42a688439fe442453a060cf367dddf9d1d50d6a328ff78572eb6e64534e54de4'),
    ('six-card', 4, 4, [333, 211, 278, 258], 520, 9,
     '769fd39184425d6750f7edd3a913768943e61fb20b2de0accb4cc8617975bd68'),
    ('six-card', 4, 5, [246, 319, 286, 222], 639, 9,
     '366348f5e3bbce9439454151dba779401c28cbe0499a8a63b43eaa581cb957ef'),
    ('six-card-knock', 2, 1, [255, 297], 134, 9,
     'a30ae498d4afcf3cb319804b04776f6a7e306f27421a2b36e3110d36c3fe2bd2'),
    ('six-card-knock', 2, 2, [269, 292], 128, 9,
     '3be00d2e6e4502f0ba339955735676a5bf512832440d83aea14bef7c790cf0bd'),
    ('six-card-knock', 2, 3, [330, 232], 118, 9,
     '6c1e0a54d3947b63071730f1c5fac48ea65b8a27178c5d856fc8bb06854b86d4'),
    ('six-card-knock', 4, 4, [292, 241, 301, 282], 297, 9,
     '5295a9953c4b9b0ab6905bec47a9dfa6aa2eb48077f0ae013a15612a5b65b9a0'),
    ('six-card-knock', 4, 5, [317, 286, 249, 259], 251, 9,
     'b4022de562c27c2a6cb946fb5a9b258a2293b24e567a53d7062b79cf24674f50'),
]

# Overridden rules that reach what the presets' random games do not: a reshuffle of the
# discard pile into the stock (seed 28) and playoff holes after tied totals.
# (preset, overrides, players, seed, final totals, actions, holes, sha256 of the actions)
GOLDEN_OVERRIDES: list[tuple[str, dict[str, object], int, int, list[int], int, int, str]] = [
    ('six-card', {'flip_after_discard': 'never'}, 3, 28, [289, 243, 290], 612, 9,
     '8a1f54357fbcde54d494e4e1c905a1f894564a8fc9b2d628c3d970152fe4ca27'),
    ('six-card', {'tie_break': 'playoff', 'holes': 1}, 2, 37, [26, 26], 71, 2,
     'c78b46a737250cceecd1bec1d549bc8ce5dd51b66c01ecaad09ace5cfaee4882'),
    ('german', {'tie_break': 'playoff'}, 2, 27, [109, 109], 172, 4,
     '9a090103449d733e2a2f4a0100b94abee5578306b17c6f326fa9847ea73dcd2e'),
]


def play(preset: str, players: int, seed: int,
         rules: dict[str, object] | None = None) -> golf.Game:
    g = golf.Game(preset, players=players, seed=seed, rules=rules)
    rng = random.Random(seed)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    return g


def test_every_preset_is_pinned() -> None:
    assert {case[0] for case in GOLDEN} == set(preset_names())


@pytest.mark.parametrize(("preset", "players", "seed", "totals", "actions", "holes", "digest"),
                         GOLDEN, ids=[f"{c[0]}-{c[1]}p-s{c[2]}" for c in GOLDEN])
def test_seeded_random_game_plays_as_pinned(
    preset: str, players: int, seed: int, totals: list[int], actions: int, holes: int, digest: str,
) -> None:
    g = play(preset, players, seed)
    played = " ".join(str(a) for a in g.history)
    assert (g.totals, len(g.history), len(g.hole_results)) == (totals, actions, holes)
    assert hashlib.sha256(played.encode()).hexdigest() == digest
    # The record replays to the same end, so the pin covers from_record too.
    again = golf.Game.from_record(g.record())
    assert again.totals == totals and again.winners == g.winners


@pytest.mark.parametrize(
    ("preset", "rules", "players", "seed", "totals", "actions", "holes", "digest"),
    GOLDEN_OVERRIDES, ids=[f"{c[0]}-{'-'.join(c[1])}-s{c[3]}" for c in GOLDEN_OVERRIDES])
def test_seeded_random_game_with_overrides_plays_as_pinned(
    preset: str, rules: dict[str, object], players: int, seed: int, totals: list[int],
    actions: int, holes: int, digest: str,
) -> None:
    g = play(preset, players, seed, rules)
    played = " ".join(str(a) for a in g.history)
    assert (g.totals, len(g.history), len(g.hole_results)) == (totals, actions, holes)
    assert hashlib.sha256(played.encode()).hexdigest() == digest
    assert replays_exactly(g)


def replays_exactly(g: golf.Game) -> bool:
    again = golf.Game.from_record(g.record())
    return again.totals == g.totals and again.history == g.history
