"""The rules lab (golf.lab, ``golf lab``): estimates against exact values, paired deals,
the interval math, resumable sweeps, outputs, command-line errors, the shipped table."""

from __future__ import annotations

import io
import itertools
import json
import math
import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from golf import load_rules
from golf.cli import main
from golf.lab import effects_for, sentence
from golf.lab.effects import make_sentences, table
from golf.lab.play import COL, first_deal, play_rows
from golf.lab.ship import build_table
from golf.lab.stats import FIGURES, Z95, effects, estimate, jackknife
from golf.lab.sweep import markdown, read_results, run_sweep, write_outputs
from golf.scoring import score

# A 2x1 grid, one hole, both cards turned up at the deal: the smallest game the rules allow.
TINY = {"rows": 2, "cols": 1, "setup_count": 2, "holes": 1, "decks": 1}


def _exact(rules_over: dict[str, object]) -> dict[str, float]:
    """Brute force: random play never looks at a card's value, so each final grid holds
    the cards of two distinct places of a uniformly shuffled deck: a uniform 2-subset of
    the deck. Enumerate every pair of cards and score it with the engine's scorer."""
    rules = load_rules("six-card", {**TINY, **rules_over})
    deck = rules.deck(2)
    scores, sets = [], 0
    for a, b in itertools.combinations(deck, 2):
        s = score([a, b], rules).total
        scores.append(s)
        plain = rules.points[a & 15] + rules.points[b & 15]
        sets += plain != s
    mean = sum(scores) / len(scores)
    var = sum((s - mean) ** 2 for s in scores) / len(scores)
    return {"mean_score": mean, "score_spread": math.sqrt(var), "pairs": sets / len(scores),
            "first_edge": 0.0}


@pytest.mark.parametrize("over", [{"match": []}, {"match": ["columns"]}])
@pytest.mark.parametrize("engine,deals", [("compiled", 4000), ("python", 600)])
def test_random_play_matches_the_exact_values(over: dict[str, object], engine: str,
                                              deals: int) -> None:
    rules = load_rules("six-card", {**TINY, **over})
    rows = play_rows(rules, 2, ["random"], deals, seed=5, engine=engine)
    est = estimate(rows)
    for key, exact in _exact(over).items():
        _, lo, hi = est[key]
        assert lo <= exact <= hi, (key, exact, est[key])
    assert est["holes_per_match"][0] == 1.0


def test_same_deal_for_the_ruleset_and_its_base() -> None:
    base = load_rules("six-card")
    for change in ({"knock": True}, {"final_turns": False}, {"setup": "peek"}):
        rules = load_rules("six-card", change)
        for engine in ("compiled", "python"):
            for seed in (1, 99):
                assert first_deal(rules, 2, seed, engine) == first_deal(base, 2, seed, engine)
    assert first_deal(base, 2, 1, "compiled") != first_deal(base, 2, 2, "compiled")


def test_the_same_rules_have_no_effect_and_rows_are_reproducible() -> None:
    rules = load_rules("six-card")
    a = play_rows(rules, 2, ["expert"], 30, 3, "compiled")
    b = play_rows(rules, 2, ["expert"], 30, 3, "compiled")
    assert (a == b).all()
    eff = effects(a, b)
    assert all(eff[f.key]["difference"][0] in (0.0,) or math.isnan(eff[f.key]["difference"][0])
               for f in FIGURES)
    # the deals of a later block are those of the whole run
    c = play_rows(rules, 2, ["expert"], 10, 3, "compiled", first_deal=20)
    assert (c == a[20:]).all()


def test_jackknife_of_a_mean_is_the_classical_interval() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(3.0, 2.0, size=150)
    rows = np.stack([np.ones_like(x), x], axis=1)
    est, lo, hi = jackknife(lambda t: t[1] / t[0], rows, groups=150)
    se = x.std(ddof=1) / math.sqrt(len(x))
    assert est == pytest.approx(x.mean())
    assert hi - est == pytest.approx(Z95 * se, rel=1e-9)
    assert est - lo == pytest.approx(Z95 * se, rel=1e-9)


def test_paired_interval_is_narrower_than_unpaired_and_covers() -> None:
    rng = np.random.default_rng(2)
    luck = rng.normal(0, 5, size=400)
    a = np.stack([np.ones(400), luck + 1.0], axis=1)
    b = np.stack([np.ones(400), luck], axis=1)
    both = np.hstack([a, b])
    d, lo, hi = jackknife(lambda t: t[1] / t[0] - t[3] / t[2], both)
    assert d == pytest.approx(1.0) and hi - lo < 1e-6  # the shared luck cancels
    # coverage of the 95% interval over many samples of a known mean
    hits = 0
    for i in range(200):
        x = np.random.default_rng(100 + i).exponential(1.0, size=60)
        r = np.stack([np.ones(60), x], axis=1)
        _, low, high = jackknife(lambda t: t[1] / t[0], r, groups=20)
        hits += low <= 1.0 <= high
    assert 175 <= hits <= 200


def test_sweep_resumes_and_writes_well_formed_outputs(tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    # The compiled core as asked: the agreement check of 31 rulesets is not what this tests.
    first = run_sweep("six-card", [2], 12, 4, results, "compiled", skill_deals=4)
    lines = results.read_text().splitlines()
    assert len(lines) == first["jobs"] and first["jobs_resumed"] == 0
    # an interrupted run: keep half the lines and a torn one
    results.write_text("\n".join(lines[: len(lines) // 2]) + '\n{"key": "torn', "utf-8")
    again = run_sweep("six-card", [2], 12, 4, results, "compiled", skill_deals=4)
    assert again["jobs_resumed"] == len(lines) // 2
    assert again["options"] == first["options"]
    assert len(read_results(results)) == first["jobs"]
    paths = write_outputs(again, tmp_path / "out")
    data = json.loads(paths[0].read_text())
    assert {o["option"] for o in data["options"]} >= {"knock=true", "final_turns=false"}
    table_lines = [ln for ln in paths[1].read_text().splitlines() if ln.startswith("|")]
    assert len({ln.count(" | ") for ln in table_lines[2:]}) == 1
    assert len(table_lines) == 2 + len(data["options"])

    class Check(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.stack: list[str] = []
            self.svgs = 0

        def handle_starttag(self, tag: str, attrs: object) -> None:
            if tag == "svg":
                self.svgs += 1
            if tag not in ("meta", "line", "circle", "br"):
                self.stack.append(tag)

        def handle_endtag(self, tag: str) -> None:
            if tag in ("line", "circle"):
                return
            assert self.stack.pop() == tag

    c = Check()
    c.feed(paths[2].read_text())
    assert c.stack == [] and c.svgs == len(FIGURES)
    assert "<script" not in paths[2].read_text() and "http" not in paths[2].read_text(
        ).replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert markdown(again).startswith("# Rules lab sweep: six-card")


def test_cli_reports_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lab", "six-crd"]) == 2
    assert "did you mean 'six-card'" in capsys.readouterr().err
    assert main(["lab", "six-card", "--rule", "knok=true"]) == 2
    assert "did you mean 'knock'" in capsys.readouterr().err
    assert main(["lab", "six-card", "--rule", "knock=maybe"]) == 2
    assert "knock" in capsys.readouterr().err
    assert main(["lab", "sweep"]) == 2
    assert "needs a VARIANT" in capsys.readouterr().err
    assert main(["lab", "six-card", "--deals", "1"]) == 2
    assert main(["lab", "six-card", "--rule", "knock=true", "--deals", "20",
                 "--skill-deals", "4", "-q"]) == 0
    out = capsys.readouterr().out
    assert "engine: compiled" in out and "knocks per hole" in out
    assert "search against expert: not measured" in out


def test_sentences_say_what_changed() -> None:
    same = {"estimate": 0.0, "low": 0.0, "high": 0.0}
    figs = {f.key: {"ruleset": same, "base": same, "difference": same,
                    "ratio": {"estimate": 1.0, "low": 1.0, "high": 1.0}} for f in FIGURES}
    assert make_sentences(figs, 100)[0] == "No measurable effect in 100 deals of expert play"
    figs["turns_per_match"] = {"ruleset": same, "base": same,
                               "difference": {"estimate": 20, "low": 18, "high": 22},
                               "ratio": {"estimate": 1.2, "low": 1.18, "high": 1.22}}
    figs["first_edge"] = {"ruleset": {"estimate": 1.1}, "base": {"estimate": 0.4},
                          "difference": {"estimate": 0.7, "low": 0.5, "high": 0.9},
                          "ratio": same}
    en, de = make_sentences(figs, 100)
    # Each figure with how sure it is: the ends of its 95 % interval; "%" bound to its number.
    assert en == "Matches take about 18 to 22\u00a0% longer; the first player's edge grows " \
                 "from 0.4 to between 0.9 and 1.3 points"
    assert de == "Partien sind etwa 18 bis 22\u00a0% länger; der Vorteil des ersten Spielers " \
                 "wächst von 0,4 auf 0,9 bis 1,3 Punkte"
    # A change whose nearer end rounds to nothing is "up to"; a negative figure has a minus
    # sign (no line break after it, as after a hyphen).
    figs["turns_per_match"]["ratio"] = {"estimate": 0.95, "low": 0.899, "high": 0.996}
    figs["turns_per_match"]["difference"] = {"estimate": -5, "low": -9, "high": -1}
    figs["mean_score"] = {"ruleset": same, "base": same, "ratio": same,
                          "difference": {"estimate": -2.09, "low": -2.59, "high": -1.59}}
    figs["first_edge"]["base"] = {"estimate": -0.4}
    figs["first_edge"]["ruleset"] = {"estimate": 0.3}
    figs["pairs"] = {"ruleset": {"estimate": 0.0}, "base": {"estimate": 0.7}, "ratio": same,
                     "difference": {"estimate": -0.7, "low": -0.74, "high": -0.66}}
    en, de = make_sentences(figs, 100)
    assert en == ("Matches take up to 10\u00a0% less time; hole scores fall by about 1.6 to "
                  "2.6 points; the first player's edge shrinks from \u22120.4 to between 0.1 "
                  "and 0.5 points; pairs and other sets that count: 70\u00a0% → 0 to 4\u00a0%")
    assert de == ("Partien sind bis zu 10\u00a0% kürzer; die Punkte pro Runde sinken um etwa "
                  "1,6 bis 2,6; der Vorteil des ersten Spielers sinkt von \u22120,4 auf 0,1 bis "
                  "0,5 Punkte; zählende Paare und Sets: 70\u00a0% → 0 bis 4\u00a0%")
    # A figure whose interval holds "no change" is left unsaid, however large its estimate.
    figs["mean_score"]["difference"] = {"estimate": -2.09, "low": -4.2, "high": 0.02}
    assert "hole scores" not in make_sentences(figs, 100)[0]


def test_the_shipped_sentences_are_made_from_their_figures_and_say_how_sure() -> None:
    t = table()
    said = 0
    for preset, p in t["presets"].items():
        for entries in p["settings"].values():
            for e in entries:
                # The sentence is the stored figures' and their intervals', nothing else.
                assert (e["en"], e["de"]) == make_sentences(e["figures"], t["deals"]), \
                    (preset, e["label"])
                for text in (e["en"], e["de"]):
                    # "%" never on a line of its own: bound to its number.
                    assert not re.search(r"\s%", text.replace("\u00a0%", "")), text
                said += "No measurable" not in e["en"]
    assert said > 100
    # The lobby said "fall by 2.1 points" for jokers where `golf lab` measures 1.70 [1.58,
    # 1.81] on more deals: the sentence says its interval, which holds that figure.
    jokers = sentence("six-card", "jokers_per_deck", 2, "en") or ""
    m = re.search(r"hole scores fall by about ([\d.]+) to ([\d.]+) points", jokers, re.I)
    assert m and float(m[1]) <= 1.70 <= float(m[2]), jokers


def test_shipped_table_has_every_preset_and_is_rebuilt_by_its_command() -> None:
    t = table()
    assert t["command"].startswith("golf lab table") and t["generated"][:2] == "20"
    for preset, p in t["presets"].items():
        assert p["settings"], preset
        for entries in p["settings"].values():
            for e in entries:
                assert e["en"] and e["de"] and e["label"]
    knock = sentence("six-card", "knock", True, "en")
    assert (knock and "knock" in knock.lower()) or "matches" in str(knock)
    assert sentence("six-card", "knock", True, "de")
    assert effects_for("six-card")["settings"]["knock"][0]["option"] == {"knock": True}
    assert effects_for("no-such")["settings"] == {}
    # The table measures a value only where the compiled expert played the Python
    # expert's moves (the lab's floor), and says why it left the others out.
    from golf.lab.play import AGREEMENT_FLOOR
    for p in t["presets"].values():
        assert p["agreement"][0] >= AGREEMENT_FLOOR * p["agreement"][1]
        for entries in p["settings"].values():
            for e in entries:
                assert e["agreement"][0] >= AGREEMENT_FLOOR * e["agreement"][1], e["label"]
        for e in p["left_out"]:
            assert e["agreement"][0] < AGREEMENT_FLOOR * e["agreement"][1], e["label"]
            assert "only" in e["why"] and e["label"]
    assert any(e["label"] == "match=[columns,pairs]" for e in
               t["presets"]["nine-card"]["left_out"])
    # Rebuilt for one preset (four-card-wild: its agreement checks are the quickest, and
    # it leaves one value out), the same values measured and left out.
    small = build_table(4, t["seed"], "x", presets=["four-card-wild"])
    assert small["presets"]["four-card-wild"]["left_out"] == \
        t["presets"]["four-card-wild"]["left_out"] != []
    shipped = t["presets"]["four-card-wild"]["settings"]
    rebuilt = small["presets"]["four-card-wild"]["settings"]
    assert {k: [e["option"] for e in v] for k, v in rebuilt.items()} == \
        {k: [e["option"] for e in v] for k, v in shipped.items()}


@pytest.mark.slow
def test_compiled_and_engine_agree_on_random_play() -> None:
    rules = load_rules("six-card", {"holes": 2, "knock": True})
    a = estimate(play_rows(rules, 2, ["random"], 3000, 1, "compiled"))
    b = estimate(play_rows(rules, 2, ["random"], 600, 1, "python"))
    for key in ("turns_per_hole", "mean_score", "knocks", "final_turns", "pairs"):
        (x, _, xh), (y, _, yh) = a[key], b[key]
        assert abs(x - y) <= math.hypot(xh - x, yh - y) * 1.5, key
    assert COL["knocks"] == 8


def test_report_columns_stay_apart_for_wide_figures() -> None:
    """Sums over many holes are wider than per-hole figures; no column may run into the next."""
    from golf.lab.run import format_report
    wide = {"estimate": 2448.0234, "low": 2336.2567, "high": 2559.7812}
    figs = {f.key: {"ruleset": wide, "base": wide, "difference": wide} for f in FIGURES}
    none = {"estimate": 0.0, "low": 0.0, "high": 0.01}
    figs["capped"] = {"ruleset": none, "base": none, "difference": none}  # none stopped
    report = {"variant": "six-card", "base": "six-card", "changed": {"holes": 200},
              "players": 2, "deals": 10, "seed": 1, "engine": "engine", "engine_reason": "asked",
              "figures": figs, "skill": {"deals": 0, "note": "not measured"},
              "search": {"note": "not measured"}}
    text = format_report(report)
    cell = "2448.02 [2336.26, 2559.78]"
    rows = [line for line in text.splitlines() if line.count("2448.02") == 3]
    assert len(rows) == len(FIGURES) - 1
    for line in rows:
        assert f"{cell}  " in line and f"]{'2448'}" not in line and "]+" not in line


# --- rated play a group can trust: the report says what it measured, and only that ------------

def _share_rows(events: int, n: int) -> np.ndarray:
    """``n`` one-hole, two-player matches with ``events`` of them tied (the rest untied)."""
    rows = np.zeros((n, len(COL)), dtype=np.int64)
    rows[:, COL["matches"]] = 1
    rows[:, COL["holes"]] = 1
    rows[:, COL["player_holes"]] = 2
    rows[:, COL["turns"]] = 10
    rows[:events, COL["tied"]] = 1
    return rows


def test_rates_have_intervals_inside_zero_and_one_even_without_events() -> None:
    from golf.lab.stats import wilson

    none = estimate(_share_rows(0, 300))
    est, lo, hi = none["ties"]
    # no tie in 300 matches is not "certainly never": Wilson's upper bound 3.84/303.84
    assert est == 0.0 and lo == 0.0 and hi == pytest.approx(Z95 ** 2 / (300 + Z95 ** 2))
    few = estimate(_share_rows(3, 300))
    est, lo, hi = few["ties"]
    assert 0.0 < lo < est < hi < 1.0 and (lo, hi) == pytest.approx(wilson(3, 300)[1:])
    every = estimate(_share_rows(300, 300))
    assert every["ties"][2] == 1.0 and every["ties"][1] < 1.0
    # a share of holes: the deals are the independent units, so no narrower than a
    # Wilson interval with one trial a deal, and never outside 0-1
    for rows in (_share_rows(0, 300), _share_rows(3, 300), _share_rows(300, 300)):
        for f in FIGURES:
            if f.share:
                _, lo, hi = estimate(rows)[f.key]
                assert 0.0 <= lo <= hi <= 1.0, (f.key, lo, hi)
    # a change of a rate: paired, inside -1..1, and not a certain zero without events
    d, lo, hi = effects(_share_rows(0, 300), _share_rows(0, 300))["ties"]["difference"]
    assert d == 0.0 and lo < 0.0 < hi and hi == pytest.approx(Z95 ** 2 / (300 + Z95 ** 2))
    d, lo, hi = effects(_share_rows(300, 300), _share_rows(0, 300))["ties"]["difference"]
    assert d == 1.0 and lo > 0.0 and hi <= 1.0
    d, lo, hi = effects(_share_rows(0, 300), _share_rows(300, 300))["ties"]["difference"]
    assert d == -1.0 and lo >= -1.0 and hi < 0.0


def test_the_paired_difference_of_rates_keeps_the_pairing() -> None:
    # the same 30 tied deals under both rulesets, plus 10 more under the ruleset: the
    # pairing makes the change far surer than two independent samples would
    a, b = _share_rows(40, 400), _share_rows(30, 400)
    d, lo, hi = effects(a, b)["ties"]["difference"]
    assert d == pytest.approx(0.025) and 0.0 < lo < d < hi
    shuffled = b[np.random.default_rng(3).permutation(400)]
    _, lo2, hi2 = effects(a, shuffled)["ties"]["difference"]
    assert hi - lo < (hi2 - lo2) / 2


def test_capped_matches_are_said_to_never_end_not_to_be_longer() -> None:
    same = {"estimate": 0.0, "low": 0.0, "high": 0.0}
    figs = {f.key: {"ruleset": same, "base": same, "difference": same,
                    "ratio": {"estimate": 1.0, "low": 1.0, "high": 1.0}} for f in FIGURES}
    figs["turns_per_match"] = {
        "ruleset": {"estimate": 10000.0, "low": 9900.0, "high": 10100.0},
        "base": {"estimate": 2200.0, "low": 2100.0, "high": 2300.0},
        "difference": {"estimate": 7800, "low": 7700, "high": 7900},
        "ratio": {"estimate": 4.65, "low": 4.5, "high": 4.8}}
    figs["capped"] = {"ruleset": {"estimate": 1.0, "low": 0.96, "high": 1.0},
                      "base": {"estimate": 0.0, "low": 0.0, "high": 0.04},
                      "difference": {"estimate": 1.0, "low": 0.95, "high": 1.0},
                      "ratio": {"estimate": None, "low": None, "high": None}}
    en, de = make_sentences(figs, 100)
    assert "longer" not in en and "länger" not in de
    assert en.startswith("Matches may never end: 100\u00a0% stopped at the 200-hole cap"), en
    assert en.count("200") == 1  # said once, not again as a rate
    # a sweep's table says it too, instead of a percentage longer
    from golf.lab.sweep import _cell
    row = {"capped": {"ruleset": 0.13, "base": 0.0}, "figures": figs}
    assert _cell(row, "turns_per_match") == "may never end (13 % capped)"
    assert _cell({**row, "capped": {"ruleset": 0.0, "base": 0.0}},
                 "turns_per_match").startswith("+365.0%")
    # the shipped table says it too (regenerated with its command)
    shipped = sentence("german", "points.2", -2, "en")
    assert shipped and "may never end" in shipped and "longer" not in shipped, shipped


def test_a_capped_ruleset_gets_no_length_figure(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    out_json = tmp_path / "r.json"
    assert main(["lab", "german", "--rule", "points.2=-2", "--deals", "4",
                 "--skill-deals", "0", "-q", "--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    assert "matches may never end: 100 % stopped at the 200-hole cap" in out, out
    assert "199." not in out and "200.00" not in out, out
    lines = {ln.split("  ")[0]: ln for ln in out.splitlines()}
    assert "may never end (100 % capped)" in lines["holes per match"], out
    report = json.loads(out_json.read_text())
    assert report["figures"]["holes_per_match"]["ruleset"]["estimate"] is None
    assert report["figures"]["capped"]["ruleset"]["estimate"] == 1.0


def test_the_report_opens_with_the_plain_sentence_and_leaves_out_what_cannot_change(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_json = tmp_path / "r.json"
    assert main(["lab", "six-card", "--rule", "knock=true", "--deals", "30",
                 "--skill-deals", "0", "-q", "--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    report = json.loads(out_json.read_text())
    en, _ = make_sentences(report["figures"], 30)
    assert report["sentence"]["en"] == en
    top, rest = out.split("\nfigure ")
    assert en in top, out
    table_rows = rest.split("\nleft out")[0]
    # six-card has no jokers, no playoffs and a hole count: those rows cannot change
    assert "knocks per hole" in table_rows
    for gone in ("wild cards", "playoff", "matches stopped", "holes per match"):
        assert gone not in table_rows, (gone, out)
    assert set(report["left_out"]) >= {"wild_cards", "playoffs", "capped", "holes_per_match"}
    assert main(["lab", "six-card", "--rule", "final_turns=false", "--deals", "10",
                 "--skill-deals", "0", "-q"]) == 0
    assert "knocks per hole" not in capsys.readouterr().out.split("\nleft out")[0]


@pytest.mark.parametrize("text", [
    "knock=true", "final_turns=false", "setup=peek", "holes=18", "points.2=2",
    "points.JK=-2", 'match=["columns","blocks"]', "match=[]", "decks={1=1,4=2}",
    "tie_break=playoff", 'name="my golf"',
])
def test_the_header_writes_settings_as_rule_options_that_round_trip(text: str) -> None:
    from golf.commands.lab import _rules
    from golf.lab.options import rule_text
    from golf.lab.run import changed_settings
    from golf.rules import parse_rule_option

    key, value = parse_rule_option(text)
    if key == "name":
        assert rule_text(key, value) == text
        return
    rules = _rules("six-card", [text])
    changed = json.loads(json.dumps(changed_settings(rules, load_rules("six-card"))))
    shown = [rule_text(k, v) for k, v in changed.items()]
    assert _rules("six-card", shown) == rules, shown
    assert not any("True" in s or "False" in s or "'" in s for s in shown), shown


def test_the_header_shows_toml_values(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lab", "six-card", "--rule", "knock=true", "--vs", "six-card",
                 "--rule", "decks={1=1,3=2}", "--deals", "4", "--skill-deals", "0",
                 "-q"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "changed: decks={1=1,3=2}, knock=true" in head, head


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_single_run_shows_progress_on_a_terminal_only(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    tty = _Tty()
    monkeypatch.setattr("sys.stderr", tty)
    assert main(["lab", "six-card", "--rule", "knock=true", "--deals", "40",
                 "--skill-deals", "4"]) == 0
    err = tty.getvalue()
    assert "\r[" in err and "deals" in err and f"{2 * 40 + 4 * 4}/{2 * 40 + 4 * 4}" in err, err
    plain = io.StringIO()
    monkeypatch.setattr("sys.stderr", plain)
    assert main(["lab", "six-card", "--rule", "knock=true", "--deals", "40",
                 "--skill-deals", "4"]) == 0
    assert "[#" not in plain.getvalue() and "\r" not in plain.getvalue()
    capsys.readouterr()


def test_an_unwritable_json_path_is_refused_before_the_run(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    import golf.lab.run

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the lab ran before checking --json")

    monkeypatch.setattr(golf.lab.run, "lab", never)
    missing = tmp_path / "no-such-folder" / "out.json"
    assert main(["lab", "six-card", "--deals", "4", "--json", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("golf: error: --json") and "no-such-folder" in err, err
    assert main(["lab", "six-card", "--deals", "4", "--json", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert main(["lab", "table", "--deals", "4", "--out", str(missing)]) == 2
    assert "no-such-folder" in capsys.readouterr().err


def test_a_sweep_prefix_with_a_dot_keeps_its_whole_name(tmp_path: Path) -> None:
    report = {"variant": "six-card", "players": [2], "deals": 2, "skill_deals": 0,
              "seed": 1, "jobs": 0, "jobs_resumed": 0, "sorted_by": "x", "base": [],
              "options": []}
    paths = write_outputs(report, tmp_path / "six-card.v2")
    assert [p.name for p in paths] == ["six-card.v2.json", "six-card.v2.md",
                                       "six-card.v2.html"]
    assert all(p.exists() for p in paths)
