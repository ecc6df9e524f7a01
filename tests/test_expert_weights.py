"""The expert's weights: per preset from the table, matched to custom rules by their
settings, overridable (and validated) as bot options."""

from __future__ import annotations

import pytest

from golf import Game, load_rules
from golf.bots import make_bot
from golf.errors import GolfError
from golf.expert_weights import DEFAULTS, TABLE, WEIGHTS, nearest_preset, weights
from golf.rules import preset_names, rules_from_dict


def test_every_preset_gets_its_table_on_top_of_the_defaults() -> None:
    for name in preset_names():
        w = weights(load_rules(name))
        assert set(w) == set(WEIGHTS)
        assert dict(w) == {**DEFAULTS, **TABLE.get(name, {})}
        bot = make_bot("expert", load_rules(name))
        assert all(getattr(bot, k) == w[k] for k in WEIGHTS)


def test_a_preset_is_its_own_nearest_and_an_override_keeps_it() -> None:
    for name in preset_names():
        assert nearest_preset(load_rules(name)) == name
    assert nearest_preset(load_rules("german", {"holes": 4, "target": 0})) == "german"
    assert nearest_preset(load_rules("six-card", {"flip_after_discard": "never"})) == "six-card"


def test_custom_rules_use_the_nearest_preset_not_their_name() -> None:
    # a file that calls itself "german" but plays six-card except for one setting
    raw = load_rules("six-card", {"holes": 3}).to_dict()
    raw["name"] = "german"
    r = rules_from_dict(raw)
    assert nearest_preset(r) == "six-card"
    assert make_bot("expert", r).w_def == weights(load_rules("six-card"))["w_def"]


def test_options_override_the_weights_and_the_spec_names_only_what_differs() -> None:
    german = load_rules("german")
    own = weights(german)["w_def"]
    bot = make_bot("expert:w_def=0.9,patience=20", german)
    assert (bot.w_def, bot.patience) == (0.9, 20)
    assert bot.spec == "expert:w_def=0.9,patience=20"
    assert make_bot(bot.spec, german).options == bot.options
    # the rules' own value is no change: the spec stays plain
    assert make_bot(f"expert:w_def={own}", german).spec == "expert"
    # ...but the same value on rules with another weight is one
    six = load_rules("six-card")
    if weights(six)["w_def"] != own:
        assert make_bot(f"expert:w_def={own}", six).spec == f"expert:w_def={own}"


@pytest.mark.parametrize("spec, message", [
    ("expert:w_def=inf", "w_def must be a finite number, got inf"),
    ("expert:margin=nan", "margin must be a finite number"),
    ("expert:patience=-1", "patience must be a whole number of 0 or more, got -1"),
    ("expert:keep_down=1.5", "keep_down='1.5' must be a whole number"),
    ("expert:w_deff=1", "has no option 'w_deff'; its options: memory, noise, margin"),
])
def test_bad_weights_get_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(GolfError, match=message.replace("(", r"\(")):
        make_bot(spec, load_rules("six-card"))


def play(spec: str, seed: int) -> list[int]:
    g = Game("six-card", players=2, seed=seed, rules={"holes": 1})
    bots = [make_bot(spec, g.rules, seed=1), make_bot("expert", g.rules, seed=2)]
    while not g.is_over:
        seat = g.current_player
        g.apply(bots[seat].choose(g.view(seat, codes=True), g.legal_actions()))
    return g.history


def test_a_changed_weight_changes_play_and_the_same_spec_replays_it() -> None:
    # ignoring the next player entirely must change some move in a few holes
    seeds = range(6)
    assert any(play("expert:w_def=0", s) != play("expert", s) for s in seeds)
    assert play("expert:w_def=0", 3) == play("expert:w_def=0", 3)
