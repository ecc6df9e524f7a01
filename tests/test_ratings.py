"""Ratings per variant (golf.ratings): OpenSkill Plackett-Luce with bots as fixed anchors."""

from __future__ import annotations

import doctest
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from golf import load_rules
from golf.bots.ratings import rating_data
from golf.errors import GolfError
from golf.ratings import (
    BANDS,
    CONSERVATIVE_Z,
    DISPLAY_OFFSET,
    DISPLAY_SCALE,
    MIN_ANCHOR_MATCHES,
    MODEL,
    PROVISIONAL_MATCHES,
    Anchors,
    RatedMatch,
    Rating,
    RatingBook,
    RatingError,
    Seat,
    Variant,
    band_for,
    bots_below,
    casual_reason,
    completion_rate,
    display_rating,
    effective_places,
    house_rules,
    load_anchors,
    placings,
    rate_match,
    rebuild,
    rules_rateable,
    variant_of,
)
from golf.rules import preset_names

DATA = Path(__file__).parent / "data"
SIX2 = Variant("six-card", "2")
#: The shipped anchors (golf/bots/ratings.json: six-card measured at two players) and,
#: made up here because nothing measured them, six-card's larger bands: the recorded
#: matches and the properties seat bots at tables of up to 8.
MEASURED = Anchors.measured()
ANCHORS = Anchors({
    **MEASURED.by_variant,
    Variant("six-card", "3-4"): {"easy": Rating(17.0, 1.0), "medium": Rating(24.0, 1.0),
                                 "hard": Rating(28.0, 1.0)},
    Variant("six-card", "5+"): {"easy": Rating(18.0, 1.1), "medium": Rating(24.0, 1.1),
                                "hard": Rating(27.5, 1.1)},
})
PROPS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- recorded matches against the package's own updates ------------------------------------

def _recorded() -> list[dict[str, Any]]:
    return list(json.loads((DATA / "rated_matches.json").read_text())["matches"])


def _as_match(m: dict[str, Any]) -> RatedMatch:
    places = placings(m["winners"], m["totals"])
    seats = tuple(Seat(s["player"], p, bot=s["bot"], abandoned=s["player"] == m["abandoned"])
                  for s, p in zip(m["seats"], places, strict=True))
    return RatedMatch(Variant(m["preset"], band_for(len(seats))), seats)


def _openskill_by_hand(matches: list[dict[str, Any]]) -> dict[tuple[str, str], Any]:
    """The same matches through the package directly, from the documented parameters:
    ranks from winners and totals (abandoners last), bots at their anchor every time."""
    model = PlackettLuce(mu=25.0, sigma=25 / 3, beta=25 / 6, tau=25 / 300, kappa=0.0001,
                         limit_sigma=True)
    people: dict[tuple[str, str], Any] = {}
    for m in matches:
        n = len(m["seats"])
        key = f"{m['preset']}/{'2' if n == 2 else '3-4' if n <= 4 else '5+'}"
        teams = []
        for s in m["seats"]:
            if s["bot"]:
                a = ANCHORS.fixed(Variant.parse(key), s["player"])
                assert a is not None
                teams.append([model.rating(mu=a.mu, sigma=a.sigma)])
            else:
                teams.append([people.get((key, s["player"]), model.rating())])
        ranks = []
        for i, s in enumerate(m["seats"]):
            if s["player"] == m["abandoned"]:
                ranks.append(1000.0)
            else:
                ranks.append(float(i not in m["winners"]) * 100 + m["totals"][i])
        for s, team in zip(m["seats"], model.rate(teams, ranks=ranks), strict=True):
            if not s["bot"]:
                people[(key, s["player"])] = team[0]
    return people


def test_recorded_matches_rate_as_openskill_does() -> None:
    recorded = _recorded()
    book = rebuild([_as_match(m) for m in recorded], ANCHORS)
    expected = _openskill_by_hand(recorded)
    assert len(expected) == len(book.ratings) > 5
    for (key, player), want in expected.items():
        got = book.get(Variant.parse(key), player)
        assert got.mu == pytest.approx(want.mu, rel=1e-12, abs=1e-12), (key, player)
        assert got.sigma == pytest.approx(want.sigma, rel=1e-12, abs=1e-12), (key, player)


def test_recorded_matches_count_matches_and_abandons() -> None:
    book = rebuild([_as_match(m) for m in _recorded()], ANCHORS)
    ann = book.player("ann")
    assert ann[SIX2].matches == 4 and ann[SIX2].abandoned == 1
    assert completion_rate(ann.values()) == pytest.approx(7 / 8)  # 4 + 1 + 1 + 2 matches, one left
    assert book.get(Variant("six-card", "3-4"), "cat").abandoned == 1


# --- display, provisional, completion ------------------------------------------------------

def test_display_formula() -> None:
    assert display_rating(25.0, 25 / 3) == 900  # a new player
    assert display_rating(30.0, 2.1) == 1611  # 900 + 30 * 23.7
    assert display_rating(-40.0, 8.0) == 0  # never negative
    assert Rating(25.0, 1.0).display == 900 + 30 * 22


def test_provisional_until_ten_rated_matches() -> None:
    book = RatingBook(ANCHORS)
    m = RatedMatch(SIX2, (Seat("ann", 0), Seat("medium", 1, bot=True)))
    flags = []
    for _ in range(11):
        book.record(m)
        flags.append(book.get(SIX2, "ann").provisional)
    assert flags == [True] * 9 + [False, False]


def test_completion_rate_before_any_match() -> None:
    assert completion_rate([]) is None
    assert completion_rate([Rating()]) is None


# --- variants and rateable tables --------------------------------------------------------

@pytest.mark.parametrize("preset", preset_names())
def test_every_preset_unchanged_is_rateable(preset: str) -> None:
    assert rules_rateable(load_rules(preset))
    assert rules_rateable(load_rules(load_rules(preset).to_dict()))


@pytest.mark.parametrize("override", [{"holes": 1}, {"points.K": 5}, {"final_turns": False},
                                      {"name": "six-card-ish"}])
def test_house_rules_are_casual(override: dict[str, Any]) -> None:
    rules = load_rules("six-card", override)
    assert not rules_rateable(rules)
    assert casual_reason(rules, 2) is not None
    with pytest.raises(RatingError, match="house rules"):
        variant_of(rules, 2)


def test_a_rules_file_with_a_presets_name_but_other_settings_is_casual() -> None:
    raw = load_rules("six-card").to_dict() | {"target": 100}
    assert not rules_rateable(load_rules(raw))


def test_bands() -> None:
    assert [band_for(n) for n in range(2, 9)] == ["2", "3-4", "3-4", "5+", "5+", "5+", "5+"]
    with pytest.raises(RatingError, match="2 to"):
        band_for(1)
    assert variant_of(load_rules("german"), 6) == Variant("german", "5+")


def test_casual_reasons() -> None:
    six = load_rules("six-card")
    assert casual_reason(six, 2, ["medium", "hard"], ANCHORS) is None  # hard = expert
    assert "search" in str(casual_reason(six, 2, ["search:ms=50"], ANCHORS))
    assert casual_reason(load_rules("nine-card"), 1) is not None  # solitaire
    assert "2 to 8" in str(casual_reason(six, 9))
    assert casual_reason(load_rules("german"), 3, ["medium"], ANCHORS) is not None


def test_variant_errors_are_clear() -> None:
    with pytest.raises(RatingError, match="bands are: 2, 3-4, 5"):
        Variant("six-card", "6")
    with pytest.raises(RatingError, match="presets are"):
        Variant("seven-card", "2")
    with pytest.raises(RatingError, match="PRESET/BAND"):
        Variant.parse("six-card")
    assert Variant.parse("six-card/3-4").key == "six-card/3-4"


# --- matches -------------------------------------------------------------------------------

def test_placings_winners_first_then_totals() -> None:
    # A place is how many seats finished ahead; a shared win beats a lower total.
    assert placings([0, 2], [10, 3, 10]) == [0, 2, 0]
    assert placings([1], [5, 2, 5, 9]) == [1, 0, 1, 3]


def test_abandoning_is_last_place_whatever_the_score() -> None:
    led = RatedMatch(SIX2, (Seat("ann", 0, abandoned=True), Seat("bob", 1)))
    lost = RatedMatch(SIX2, (Seat("ann", 1), Seat("bob", 0)))
    a, b = rate_match({}, led, ANCHORS), rate_match({}, lost, ANCHORS)
    assert a["ann"].after.mu == b["ann"].after.mu < 25
    assert a["bob"].after.mu == b["bob"].after.mu > 25
    assert (a["ann"].after.abandoned, b["ann"].after.abandoned) == (1, 0)
    assert effective_places([Seat("a", 0, abandoned=True), Seat("b", 3),
                             Seat("c", 0, abandoned=True), Seat("d", 5)]) == [2, 0, 2, 1]


@pytest.mark.parametrize(("seats", "message"), [
    ((Seat("ann", 0), Seat("ann", 1)), "at most once"),
    ((Seat("ann", 0),), "2 to 2 seats"),
    ((Seat("ann", 0), Seat("bob", -1)), "whole numbers"),
    ((Seat("ann", 0), Seat("bob", True)), "whole numbers"),
    ((Seat("easy", 0, bot=True), Seat("medium", 1, bot=True)), "at least one person"),
])
def test_bad_matches_are_refused(seats: tuple[Seat, ...], message: str) -> None:
    with pytest.raises(RatingError, match=message):
        RatedMatch(SIX2, seats)


def test_stored_matches_round_trip() -> None:
    for m in _recorded():
        match = _as_match(m)
        assert RatedMatch.from_json(json.loads(json.dumps(match.to_json()))) == match
    with pytest.raises(RatingError, match="'variant' and 'seats'"):
        RatedMatch.from_json({"variant": "six-card/2"})
    with pytest.raises(RatingError, match="whole numbers"):
        RatedMatch.from_json({"variant": "six-card/2", "seats": [
            {"player": "a", "place": "1", "bot": False, "abandoned": False},
            {"player": "b", "place": 0, "bot": False, "abandoned": False}]})


def test_a_bot_without_an_anchor_cannot_be_rated() -> None:
    m = RatedMatch(SIX2, (Seat("ann", 0), Seat("search", 1, bot=True)))
    with pytest.raises(RatingError, match="search has no measured rating for six-card/2"):
        rate_match({}, m, ANCHORS)
    german3 = Variant("german", "3-4")  # measured at two players only
    m = RatedMatch(german3, (Seat("ann", 0), Seat("medium", 1, bot=True), Seat("bob", 2)))
    with pytest.raises(RatingError, match="medium has no measured rating for german/3-4"):
        rate_match({}, m, MEASURED)


def test_two_bots_of_one_kind_share_their_anchor() -> None:
    m = RatedMatch(Variant("six-card", "3-4"),
                   (Seat("ann", 1), Seat("medium", 0, bot=True), Seat("medium", 2, bot=True)))
    assert set(rate_match({}, m, ANCHORS)) == {"ann"}


# --- "you are now stronger than Medium" ------------------------------------------------------

def test_bots_below_and_newly_passed() -> None:
    # The measured six-card bots: a new player (900) is above random only; beating
    # medium again and again passes each bot shown between 900 and medium, weakest
    # first, each once.
    bots = MEASURED.by_variant[SIX2]
    medium = bots["medium"]
    assert bots["random"].display < Rating().display < bots["easy"].display
    assert bots_below(Rating(), SIX2, MEASURED) == ("random",)
    between = sorted((b for b, r in bots.items() if 900 <= r.display <= medium.display),
                     key=lambda b: bots[b].display)
    assert between[-1] == "medium" and len(between) >= 2
    book = RatingBook(MEASURED)
    beat_medium = RatedMatch(SIX2, (Seat("ann", 0), Seat("medium", 1, bot=True)))
    passed: list[str] = []
    while book.get(SIX2, "ann").display <= medium.display:
        passed += book.record(beat_medium)["ann"].passed
        assert book.get(SIX2, "ann").matches < 50
    assert passed == between
    assert bots_below(book.get(SIX2, "ann"), SIX2, MEASURED) == (*reversed(between), "random")


# --- anchors -------------------------------------------------------------------------------

def _measurement(**bots: dict[str, Any]) -> dict[str, Any]:
    """Made-up bot ratings in ratings.json's format: six-card measured at 3 players."""
    return {"model": "openskill PlackettLuce", "mu0": 25.0, "sigma0": 25 / 3,
            "variants": {"six-card": {"players": 3, "matches": 600, "bots": bots}}}


def test_the_measured_anchors_are_the_shipped_file() -> None:
    data = rating_data()
    assert len(MEASURED.by_variant) == len(data["variants"]) >= len(preset_names()) - 1
    for preset, entry in data["variants"].items():
        band = band_for(entry["players"])
        for other in BANDS:  # each preset's bots are anchors in the measured band only
            got = MEASURED.by_variant.get(Variant(preset, other))
            assert (got is not None) == (other == band), (preset, other)
        for bot, r in entry["bots"].items():
            assert MEASURED.fixed(Variant(preset, band), bot) == Rating(r["mu"], r["sigma"])
            assert r["matches"] >= MIN_ANCHOR_MATCHES
    # random's sigma is wide (it nearly always loses: its losses teach little) and it
    # is still an anchor, at that sigma.
    assert MEASURED.fixed(SIX2, "random").sigma > 4  # type: ignore[union-attr]
    assert Anchors.measured() is MEASURED  # read once


def test_anchor_aliases_and_read_only() -> None:
    assert MEASURED.fixed(SIX2, "hard") == MEASURED.fixed(SIX2, "expert") is not None
    assert MEASURED.fixed(SIX2, "expert:memory=0.8,noise=1.5") == MEASURED.fixed(SIX2, "medium")
    with pytest.raises(RatingError, match="six-card/2: hard given twice"):
        Anchors({SIX2: {"hard": Rating(), "expert": Rating()}})
    with pytest.raises(TypeError):
        MEASURED.by_variant[SIX2]["easy"] = Rating()  # type: ignore[index]


def test_casual_reason_reads_the_measured_anchors() -> None:
    four = load_rules("four-card")  # measured at three players
    assert casual_reason(four, 3, ["hard", "random"]) is None
    assert casual_reason(four, 4, ["hard"]) is None  # 3-4 is one band
    assert casual_reason(four, 5, ["hard"]) == (
        "hard has no measured rating for four-card/5+, so a table with it is casual")
    assert casual_reason(four, 5) is None  # people alone are rated in any band


def test_an_anchor_file_in_the_measured_format(tmp_path: Path) -> None:
    path = tmp_path / "ratings.json"
    path.write_text(json.dumps(_measurement(
        medium={"mu": 30.5, "sigma": 2.0, "matches": 600, "rank": 1},
        random={"mu": -9.0, "sigma": 6.0, "matches": 600})))
    a = load_anchors(path)
    assert a.by_variant == {Variant("six-card", "3-4"): {
        "medium": Rating(30.5, 2.0), "random": Rating(-9.0, 6.0)}}


def _with_bot(r: Any) -> str:
    return json.dumps(_measurement(easy=r))


@pytest.mark.parametrize(("text", "message"), [
    ("[]", "expected a JSON object"),
    ("{", "not JSON"),
    (json.dumps(_measurement() | {"sigma0": 6.0}), "measured from mu0 25.0, sigma0 6.0"),
    (json.dumps({"mu0": 25.0, "sigma0": 25 / 3, "variants": []}), "'variants' must map"),
    (json.dumps({"mu0": 25.0, "sigma0": 25 / 3, "variants": {"six-card": {"bots": {}}}}),
     "six-card needs 'players'"),
    (json.dumps({"mu0": 25.0, "sigma0": 25 / 3, "variants": {"six": {
        "players": 2, "bots": {}}}}), "unknown preset"),
    (json.dumps({"mu0": 25.0, "sigma0": 25 / 3, "variants": {"six-card": {
        "players": 9, "bots": {}}}}), "2 to 8 players, not 9"),
    (_with_bot({"mu": 1, "matches": 600}), "six-card easy: needs numbers"),
    (_with_bot({"mu": 1, "sigma": 0, "matches": 600}), "sigma positive"),
    (_with_bot({"mu": 1, "sigma": 2, "matches": "600"}), "'matches' must be a whole"),
    (_with_bot({"mu": 1, "sigma": 2, "matches": 30}),
     f"measured in 30 matches, fewer than {MIN_ANCHOR_MATCHES}"),
])
def test_bad_anchor_files_are_named(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "a.json"
    path.write_text(text)
    with pytest.raises(RatingError, match=re.escape(message)):
        load_anchors(path)


def test_a_missing_anchor_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(GolfError, match="cannot read bot anchors"):
        load_anchors(tmp_path / "none.json")


def test_house_rules_name_what_differs() -> None:
    assert house_rules(load_rules("six-card")) == {}
    assert house_rules(load_rules("six-card", {"holes": 1, "target": 50})) == {
        "holes": 1, "target": 50}
    renamed = house_rules(load_rules("six-card", {"name": "mine"}))
    assert renamed["name"] == "mine" and renamed["holes"] == 9  # no preset: every setting


# --- properties ----------------------------------------------------------------------------

RATINGS = st.builds(Rating, st.floats(0, 50), st.floats(0.3, 25 / 3),
                    st.integers(0, 30), st.just(0))
PEOPLE = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]
BOTS = ["easy", "medium", "hard"]


@st.composite
def matches(draw: st.DrawFn) -> RatedMatch:
    """A rated six-card match of 2 to 8 seats, people and fixture bots, with ties."""
    n = draw(st.integers(2, 8))
    people = draw(st.lists(st.sampled_from(PEOPLE), min_size=1, max_size=n, unique=True))
    bots = draw(st.lists(st.sampled_from(BOTS), min_size=n - len(people),
                         max_size=n - len(people)))
    places = draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n))
    quits = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    who = [(p, False) for p in people] + [(b, True) for b in bots]
    order = draw(st.permutations(range(n)))
    seats = tuple(Seat(who[i][0], places[k], who[i][1], quits[k] and not who[i][1])
                  for k, i in enumerate(order))
    return RatedMatch(Variant("six-card", band_for(n)), seats)


@PROPS
@given(a=RATINGS, b=RATINGS, b_is_bot=st.booleans())
def test_a_winner_never_loses_rating_to_a_loser(a: Rating, b: Rating, b_is_bot: bool) -> None:
    anchors = Anchors({SIX2: {"medium": b}})
    m = RatedMatch(SIX2, (Seat("ann", 0), Seat("medium" if b_is_bot else "bob", 1, b_is_bot)))
    changes = rate_match({"ann": a, "bob": b}, m, anchors)
    win = changes["ann"]
    assert win.after.mu > win.before.mu
    assert win.after.sigma <= win.before.sigma
    assert win.after.display >= win.before.display
    if not b_is_bot:
        lose = changes["bob"]
        assert lose.after.mu < lose.before.mu
        assert win.after.mu - win.before.mu > lose.after.mu - lose.before.mu


@PROPS
@given(st.lists(matches(), min_size=1, max_size=12))
def test_rebuild_equals_incremental_updates(ms: list[RatedMatch]) -> None:
    # The server's way: a store of rows, each match reading and writing only its people.
    store: dict[tuple[str, str], Rating] = {}
    for m in ms:
        current = {p: store[(m.variant.key, p)] for p in m.people if (m.variant.key, p) in store}
        for p, change in rate_match(current, m, ANCHORS).items():
            store[(m.variant.key, p)] = change.after
    book = rebuild(ms, ANCHORS)
    assert {(v.key, p): r for (v, p), r in book.ratings.items()} == store
    assert rebuild(ms, ANCHORS).ratings == book.ratings


@PROPS
@given(matches(), st.randoms())
def test_order_within_a_tie_does_not_matter(m: RatedMatch, rnd: Any) -> None:
    seats = list(m.seats)
    rnd.shuffle(seats)  # shuffles every seat: ties among them in every order
    again = rate_match({}, RatedMatch(m.variant, tuple(seats)), ANCHORS)
    first = rate_match({}, m, ANCHORS)
    assert first.keys() == again.keys()
    for p in first:
        assert math.isclose(first[p].after.mu, again[p].after.mu, rel_tol=1e-12, abs_tol=1e-12)
        assert math.isclose(first[p].after.sigma, again[p].after.sigma, rel_tol=1e-12,
                            abs_tol=1e-12)


@PROPS
@given(st.lists(matches(), min_size=1, max_size=8))
def test_bot_anchors_never_move(ms: list[RatedMatch]) -> None:
    before = {v: dict(bots) for v, bots in ANCHORS.by_variant.items()}
    book = rebuild(ms, ANCHORS)
    assert {v: dict(bots) for v, bots in ANCHORS.by_variant.items()} == before
    assert all(p in PEOPLE for _, p in book.ratings)  # no bot ever has a rating row
    # A person meeting a bot after all those matches meets the very same fixed rating.
    probe = RatedMatch(SIX2, (Seat("zed", 0), Seat("medium", 1, bot=True)))
    assert book.record(probe) == rate_match({}, probe, ANCHORS)


@pytest.mark.parametrize("preset", preset_names())
def test_the_bands_cover_every_table_a_preset_allows(preset: str) -> None:
    lo, hi = load_rules(preset).players
    for n in range(max(lo, 2), hi + 1):
        assert variant_of(load_rules(preset), n).band == band_for(n)


# --- docs/ratings.md stays true ----------------------------------------------------------

DOC = Path(__file__).resolve().parents[1] / "docs" / "ratings.md"


def test_the_docs_worked_example_holds() -> None:
    result = doctest.testfile(str(DOC), module_relative=False, verbose=False)
    assert result.attempted >= 15 and result.failed == 0


def test_the_docs_parameters_are_the_codes() -> None:
    text = DOC.read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(\w+)`\s*\| ([^|]+?)\s*\|", text, flags=re.M))
    assert {k: rows[k] for k in MODEL} == {
        "mu": "25", "sigma": "25/3", "beta": "25/6", "tau": "25/300", "kappa": "0.0001",
        "limit_sigma": "true"}
    assert MODEL == {"mu": 25.0, "sigma": 25 / 3, "beta": 25 / 6, "tau": 25 / 300,
                     "kappa": 0.0001, "limit_sigma": True}
    formula = f"max(0, round({DISPLAY_OFFSET:g} + {DISPLAY_SCALE:g} × (mu − 3 × sigma)))"
    assert formula in text and CONSERVATIVE_Z == 3
    assert f"until **{PROVISIONAL_MATCHES}** rated matches" in text
    assert f"at least **{MIN_ANCHOR_MATCHES}** matches (`MIN_ANCHOR_MATCHES`)" in " ".join(
        text.split())
    for band, (lo, hi) in BANDS.items():
        players = f"{lo}" if lo == hi else f"{lo} or {hi}" if hi == lo + 1 else f"{lo} to {hi}"
        assert re.search(rf"\| `{re.escape(band)}`\s*\| {players}\s*\|", text), band


@PROPS
@given(matches(), st.dictionaries(st.sampled_from(PEOPLE), RATINGS))
def test_any_match_rates_as_openskill_does(m: RatedMatch, current: dict[str, Rating]) -> None:
    model = PlackettLuce(mu=25.0, sigma=25 / 3, beta=25 / 6, tau=25 / 300, kappa=0.0001,
                         limit_sigma=True)
    teams = []
    for s in m.seats:
        r = ANCHORS.fixed(m.variant, s.player) if s.bot else current.get(s.player, Rating())
        assert r is not None
        teams.append([model.rating(mu=r.mu, sigma=r.sigma)])
    # Abandoners after everyone else: rank by (abandoned, place).
    ranks = [float(s.abandoned) * 100 + (0 if s.abandoned else s.place) for s in m.seats]
    want = {s.player: t[0] for s, t in zip(m.seats, model.rate(teams, ranks=ranks),
                                           strict=True) if not s.bot}
    got = rate_match(current, m, ANCHORS)
    assert got.keys() == want.keys()
    for p, change in got.items():
        assert (change.after.mu, change.after.sigma) == (want[p].mu, want[p].sigma)
        assert change.after.matches == current.get(p, Rating()).matches + 1


@PROPS
@given(matches())
def test_abandoners_come_after_everyone_and_the_rest_keep_their_order(m: RatedMatch) -> None:
    eff = effective_places(m.seats)
    for a, ea in zip(m.seats, eff, strict=True):
        for b, eb in zip(m.seats, eff, strict=True):
            if a.abandoned and not b.abandoned:
                assert ea > eb
            if not a.abandoned and not b.abandoned:
                assert (a.place < b.place) == (ea < eb) and (a.place == b.place) == (ea == eb)
            if a.abandoned and b.abandoned:
                assert ea == eb
