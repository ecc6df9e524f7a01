"""Ratings of people per variant: OpenSkill Plackett-Luce, with bots as fixed anchors.

docs/ratings.md describes the model for players; this module is its one source.

* **Variant.** A player has one rating per *variant*: a rules preset played unchanged
  and a player-count band (``2``, ``3-4``, ``5+``), written ``six-card/3-4``. A table
  with house rules (any setting off the preset) is casual: :func:`casual_reason`.
* **Model.** OpenSkill's Plackett-Luce model (the ``openskill`` package) with the
  parameters of :data:`MODEL` rates a free-for-all of any size in one update; seats
  with equal places tie. A seat abandoned (left for good, or ended by the absence
  policy) counts as last; abandoners tie with each other.
* **Bots are anchors.** A bot seat is rated at its fixed rating (:class:`Anchors`;
  :meth:`Anchors.measured` are the bot-versus-bot tournament ratings shipped in
  ``golf/bots/ratings.json``, each in the band of the player count it was measured
  at); people's updates take it as given and the bot's rating never moves.
* **Display.** One integer, ``max(0, round(DISPLAY_OFFSET + DISPLAY_SCALE * (mu - 3
  sigma)))``, a conservative figure: 900 for a new player, about 1500 for a settled
  player of mu 25. The scale makes 200 points roughly the same winning chance as
  200 Elo points between two settled players (:data:`DISPLAY_SCALE`). Provisional
  until :data:`PROVISIONAL_MATCHES` rated matches.
* **Rebuild.** :func:`rebuild` folds :func:`rate_match` over the stored matches in
  order, so it gives exactly the ratings the incremental updates gave (with the same
  anchors).

>>> v = Variant("six-card", "2")
>>> anchors = Anchors({v: {"medium": Rating(24.0, 1.0)}})
>>> match = RatedMatch(v, (Seat("ann", 0), Seat("medium", 1, bot=True)))
>>> change = rate_match({}, match, anchors)["ann"]
>>> change.before.display, change.after.display, change.after.provisional
(900, 1049, True)
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .bots.base import LEVELS
from .bots.ratings import rating_data
from .errors import GolfError
from .results import placings
from .rules import Rules, load_rules, preset_names

__all__ = [
    "BANDS",
    "CONSERVATIVE_Z",
    "DISPLAY_OFFSET",
    "DISPLAY_SCALE",
    "MIN_ANCHOR_MATCHES",
    "MODEL",
    "PROVISIONAL_MATCHES",
    "Anchors",
    "RatedMatch",
    "Rating",
    "RatingBook",
    "RatingChange",
    "RatingError",
    "Seat",
    "Variant",
    "band_for",
    "bots_below",
    "casual_cause",
    "casual_reason",
    "completion_rate",
    "display_rating",
    "effective_places",
    "house_rules",
    "load_anchors",
    "placings",
    "rate_match",
    "rebuild",
    "rules_rateable",
    "variant_of",
]


class RatingError(GolfError):
    """A match, variant or anchor file that cannot be rated as given."""


# --- parameters ------------------------------------------------------------------------

#: The OpenSkill Plackett-Luce parameters (the package's defaults except
#: ``limit_sigma``): prior ``mu`` and ``sigma``, performance spread ``beta``, the
#: per-match ``tau`` added to sigma (keeps ratings movable), ``kappa`` (floor of the
#: variance factor). ``limit_sigma``: an update never raises sigma, so a win never
#: lowers the displayed (conservative) rating.
MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
KAPPA = 0.0001
LIMIT_SIGMA = True
#: The same parameters by OpenSkill's names (docs/ratings.md prints them).
MODEL: Mapping[str, float | bool] = {"mu": MU, "sigma": SIGMA, "beta": BETA, "tau": TAU,
                                     "kappa": KAPPA, "limit_sigma": LIMIT_SIGMA}
#: How many sigmas below mu the displayed rating sits (a conservative estimate).
CONSERVATIVE_Z = 3.0
#: Display points per unit of ``mu - 3 sigma``. Two settled players (small sigma) win
#: with odds ``exp(d / (sqrt(2) beta))`` for a mu difference ``d``; Elo's odds are
#: ``10 ** (D / 400)``; equal odds need ``D = d * 400 / (sqrt(2) beta ln 10)``, about
#: 29.5 ``d``: so 30.
DISPLAY_SCALE = 30.0
#: The displayed rating of a new player (mu 25, sigma 25/3: ``mu - 3 sigma`` is 0).
DISPLAY_OFFSET = 900.0
#: Rated matches before a rating stops being provisional.
PROVISIONAL_MATCHES = 10
#: The fewest matches a bot's measured rating must come from to be an anchor. Not a
#: sigma limit: a bot that nearly always loses keeps a wide sigma however long it is
#: measured (its expected losses teach little: ``random`` has sigma 4.2-4.3 after 200
#: matches, as much as ``hard`` after 30), so only the match count tells an
#: under-measured anchor from a lopsided one (docs/ratings.md).
MIN_ANCHOR_MATCHES = 200
#: Player-count bands, each with its smallest and largest player count.
BANDS: Mapping[str, tuple[int, int]] = {"2": (2, 2), "3-4": (3, 4), "5+": (5, 8)}


def _model() -> Any:
    """The OpenSkill model with :data:`MODEL`'s parameters (imported here so that the
    rest of golf runs without the ``accounts`` extra)."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise RatingError("ratings need the openskill package: "
                          "pip install 'golf-cards[accounts]'") from None
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, kappa=KAPPA,
                        limit_sigma=LIMIT_SIGMA)


def display_rating(mu: float, sigma: float) -> int:
    """The one integer shown for a rating: ``max(0, round(DISPLAY_OFFSET +
    DISPLAY_SCALE * (mu - CONSERVATIVE_Z * sigma)))``.

    >>> display_rating(25.0, 25.0 / 3.0), display_rating(25.0, 1.5), display_rating(-10.0, 9.0)
    (900, 1515, 0)
    """
    return max(0, round(DISPLAY_OFFSET + DISPLAY_SCALE * (mu - CONSERVATIVE_Z * sigma)))


# --- variants --------------------------------------------------------------------------

def band_for(players: int) -> str:
    """The player-count band of a table of ``players`` seats.

    >>> band_for(2), band_for(4), band_for(8)
    ('2', '3-4', '5+')
    """
    for name, (lo, hi) in BANDS.items():
        if lo <= players <= hi:
            return name
    raise RatingError(f"a rated table has 2 to {BANDS['5+'][1]} players, not {players}")


@dataclass(frozen=True, order=True)
class Variant:
    """What a rating is for: a preset played unchanged and a player-count band."""

    preset: str
    band: str

    def __post_init__(self) -> None:
        if self.band not in BANDS:
            raise RatingError(f"unknown player-count band {self.band!r}; "
                              f"bands are: {', '.join(BANDS)}")
        if self.preset not in preset_names():
            raise RatingError(f"unknown preset {self.preset!r}; "
                              f"presets are: {', '.join(preset_names())}")

    @property
    def key(self) -> str:
        """The variant as text, ``six-card/3-4`` (storage and anchor files)."""
        return f"{self.preset}/{self.band}"

    @classmethod
    def parse(cls, key: str) -> Variant:
        """The variant of :attr:`key` text.

        >>> Variant.parse("german/5+")
        Variant(preset='german', band='5+')
        """
        preset, slash, band = key.rpartition("/")
        if not slash:
            raise RatingError(f"a variant is PRESET/BAND such as six-card/2, not {key!r}")
        return cls(preset, band)


def house_rules(rules: Rules) -> dict[str, Any]:
    """The settings in which ``rules`` differ from the shipped preset they are named
    after, as plain data (``{}`` for a preset unchanged); every setting when the name
    is no preset's. Where a setting's text comes from does not count.

    >>> house_rules(load_rules("six-card", {"holes": 1})), house_rules(load_rules("german"))
    ({'holes': 1}, {})
    """
    mine = rules.to_dict()
    del mine["sources"]
    if rules.name not in preset_names():
        return mine
    shipped = load_rules(rules.name).to_dict()
    return {k: v for k, v in mine.items() if shipped[k] != v}


def rules_rateable(rules: Rules) -> bool:
    """Whether ``rules`` are a shipped preset's rules unchanged (every setting, the
    name included: no :func:`house_rules`).

    >>> rules_rateable(load_rules("six-card")), rules_rateable(load_rules("six-card", {"holes": 1}))
    (True, False)
    """
    return rules.name in preset_names() and not house_rules(rules)


#: The bot name of a seat played by an external program: it has no measured rating.
EXTERNAL = "external"


def casual_reason(rules: Rules, players: int, bots: Iterable[str] = (),
                  anchors: Anchors | None = None) -> str | None:
    """Why a table of ``rules``, ``players`` seats and these bot seats cannot be rated
    (a sentence for the player), or None when it can. ``anchors`` are
    :meth:`Anchors.measured` unless given: a bot measured at another player count
    than the table's band has no anchor there, and makes the table casual.

    >>> casual_reason(load_rules("six-card", {"holes": 3}), 2)
    'house rules make a table casual: rated tables play a preset unchanged'
    >>> casual_reason(load_rules("six-card"), 2, ["medium"], Anchors({}))
    'medium has no measured rating for six-card/2, so a table with it is casual'
    >>> casual_reason(load_rules("six-card"), 3) is None
    True
    >>> casual_reason(load_rules("six-card"), 2, ["medium"]) is None
    True
    >>> casual_reason(load_rules("six-card"), 3, ["medium"])
    'medium has no measured rating for six-card/3-4, so a table with it is casual'
    """
    cause = casual_cause(rules, players, bots, anchors)
    if cause is None:
        return None
    if cause["reason"] == "unmeasured_bot":
        bot = "an external bot" if cause["bot"] == EXTERNAL else cause["bot"]
        return f"{bot} has no measured rating for {cause['variant']}, so a table with it is casual"
    try:  # house rules, or a player count no band or rule allows: the refusal's own words
        variant_of(rules, players)
    except GolfError as e:
        return str(e)
    raise AssertionError(cause)  # casual_cause and variant_of disagree


def casual_cause(rules: Rules, players: int, bots: Iterable[str] = (),
                 anchors: Anchors | None = None) -> dict[str, str] | None:
    """What :func:`casual_reason` says, as data a page words in its own language, or
    None: ``{"reason": "house_rules"}``, ``{"reason": "players"}`` (no band or rule allows
    that many) or ``{"reason": "unmeasured_bot", "bot": "medium", "variant": "six-card/3-4"}``.

    >>> casual_cause(load_rules("six-card", {"holes": 3}), 2)
    {'reason': 'house_rules'}
    >>> casual_cause(load_rules("six-card"), 3, ["medium"])
    {'reason': 'unmeasured_bot', 'bot': 'medium', 'variant': 'six-card/3-4'}
    >>> casual_cause(load_rules("six-card"), 2, ["medium"]) is None
    True
    """
    if not rules_rateable(rules):
        return {"reason": "house_rules"}
    try:
        variant = variant_of(rules, players)
    except GolfError:
        return {"reason": "players"}
    fixed = Anchors.measured() if anchors is None else anchors
    for bot in bots:
        if fixed.fixed(variant, bot) is None:
            return {"reason": "unmeasured_bot", "bot": bot, "variant": variant.key}
    return None


def variant_of(rules: Rules, players: int) -> Variant:
    """The rated variant of a table with these rules and players: RatingError when
    the rules are not a preset's unchanged or the count fits no band, RulesError
    when the rules do not allow that many players."""
    if not rules_rateable(rules):
        raise RatingError("house rules make a table casual: rated tables play a preset "
                          "unchanged")
    rules.check_players(players)
    return Variant(rules.name, band_for(players))


# --- ratings ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Rating:
    """A player's rating in one variant: OpenSkill's ``mu`` and ``sigma``, how many
    rated matches it counts and how many of them the player abandoned."""

    mu: float = MU
    sigma: float = SIGMA
    matches: int = 0
    abandoned: int = 0

    @property
    def display(self) -> int:
        """The integer shown (:func:`display_rating`)."""
        return display_rating(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        """Fewer than :data:`PROVISIONAL_MATCHES` rated matches."""
        return self.matches < PROVISIONAL_MATCHES

    @property
    def completed(self) -> int:
        """Rated matches played to the end."""
        return self.matches - self.abandoned


def completion_rate(ratings: Iterable[Rating]) -> float | None:
    """The share of a player's rated matches (over the given variants) played to the
    end; None before any.

    >>> completion_rate([Rating(matches=3, abandoned=1), Rating(matches=1)])
    0.75
    """
    rs = list(ratings)
    total = sum(r.matches for r in rs)
    return sum(r.completed for r in rs) / total if total else None


# --- bot anchors -----------------------------------------------------------------------

#: A difficulty's spec -> its name, so that an anchor measured as ``expert`` is found
#: for the seat called ``hard``.
_LEVEL_OF_SPEC = {spec: name for name, spec in LEVELS.items()}


def _bot_key(bot: str) -> str:
    return _LEVEL_OF_SPEC.get(bot, bot)


@dataclass(frozen=True)
class Anchors:
    """Bots' fixed ratings per variant (difficulty names and their specs are one bot).

    :meth:`measured` gives the shipped ones, measured by ``scripts/bot_ratings.py``
    into ``src/golf/bots/ratings.json`` (:mod:`golf.bots.ratings`); :func:`load_anchors`
    reads another file of that format, :meth:`from_data` that format's data.
    """

    by_variant: Mapping[Variant, Mapping[str, Rating]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        canon: dict[Variant, Mapping[str, Rating]] = {}
        for v, bots in self.by_variant.items():
            keys = [_bot_key(b) for b in bots]
            twice = sorted({k for k in keys if keys.count(k) > 1})
            if twice:
                raise RatingError(f"{v.key}: {', '.join(twice)} given twice (a difficulty "
                                  "and its spec are one bot)")
            canon[v] = MappingProxyType(dict(zip(keys, bots.values(), strict=True)))
        # Read-only all the way down: an anchor never moves, not even by mistake.
        object.__setattr__(self, "by_variant", MappingProxyType(canon))

    def fixed(self, variant: Variant, bot: str) -> Rating | None:
        """The bot's fixed rating in ``variant``, or None if it was not measured there."""
        return self.by_variant.get(variant, {}).get(_bot_key(bot))

    @classmethod
    def measured(cls) -> Anchors:
        """The bots' measured ratings shipped with golf (``golf/bots/ratings.json``):
        each preset's bots in the band of the player count they were measured at.

        >>> a = Anchors.measured()
        >>> sorted(v.key for v in a.by_variant)[:2]
        ['four-card-wild/2', 'four-card/3-4']
        >>> a.fixed(Variant("six-card", "2"), "expert") == a.fixed(Variant("six-card", "2"), "hard")
        True
        >>> a.fixed(Variant("six-card", "3-4"), "hard") is None
        True
        """
        return _measured()

    @classmethod
    def from_data(cls, data: Mapping[str, Any], where: str = "bot ratings") -> Anchors:
        """Anchors from bot-rating data in ``ratings.json``'s format (``mu0``,
        ``sigma0``, and ``variants`` mapping a preset to the ``players`` it was
        measured at and its ``bots``' ``mu``, ``sigma`` and ``matches``): each preset's
        bots become anchors in that player count's band only. RatingError naming
        what is wrong."""
        if not (_close(data.get("mu0"), MU) and _close(data.get("sigma0"), SIGMA)):
            raise RatingError(f"{where}: measured from mu0 {data.get('mu0')!r}, sigma0 "
                              f"{data.get('sigma0')!r}; the ratings' scale starts at "
                              f"mu {MU}, sigma {SIGMA:.4f}")
        variants = data.get("variants")
        if not isinstance(variants, Mapping):
            raise RatingError(f"{where}: 'variants' must map presets to their measurement")
        out: dict[Variant, dict[str, Rating]] = {}
        for preset, entry in variants.items():
            if not (isinstance(entry, Mapping) and isinstance(entry.get("bots"), Mapping)
                    and isinstance(entry.get("players"), int)):
                raise RatingError(f"{where}: {preset} needs 'players' (a whole number) "
                                  "and 'bots'")
            variant = Variant(str(preset), band_for(entry["players"]))
            out[variant] = {b: _anchor_rating(r, f"{where}: {preset} {b}")
                            for b, r in entry["bots"].items()}
        return cls(out)


@cache
def _measured() -> Anchors:
    # The shipped file never changes while golf runs: read and check it once.
    return Anchors.from_data(rating_data(), "golf/bots/ratings.json")


def _close(value: Any, want: float) -> bool:
    return isinstance(value, int | float) and math.isclose(value, want)


def _anchor_rating(data: Any, where: str) -> Rating:
    try:
        mu, sigma, matches = float(data["mu"]), float(data["sigma"]), data["matches"]
    except (TypeError, KeyError, ValueError):
        raise RatingError(f"{where}: needs numbers 'mu', 'sigma' and 'matches'") from None
    if not (math.isfinite(mu) and math.isfinite(sigma) and sigma > 0):
        raise RatingError(f"{where}: mu must be finite and sigma positive")
    if isinstance(matches, bool) or not isinstance(matches, int):
        raise RatingError(f"{where}: 'matches' must be a whole number")
    if matches < MIN_ANCHOR_MATCHES:
        raise RatingError(f"{where}: measured in {matches} matches, fewer than "
                          f"{MIN_ANCHOR_MATCHES}: measure the bot with more deals")
    return Rating(mu, sigma)


def load_anchors(path: str | Path) -> Anchors:
    """Bots' fixed ratings from a JSON file in ``ratings.json``'s format
    (:meth:`Anchors.from_data`)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise RatingError(f"cannot read bot anchors {str(path)!r}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise RatingError(f"bot anchors {str(path)!r} are not JSON: {e}") from None
    if not isinstance(data, Mapping):
        raise RatingError(f"bot anchors {str(path)!r}: expected a JSON object")
    return Anchors.from_data(data, str(path))


def bots_below(rating: Rating, variant: Variant, anchors: Anchors) -> tuple[str, ...]:
    """The bots whose displayed fixed rating in ``variant`` is below ``rating``'s,
    strongest first: "you are now stronger than Medium".

    >>> v = Variant("six-card", "2")
    >>> a = Anchors({v: {"easy": Rating(15.0, 1.0), "medium": Rating(24.0, 1.0)}})
    >>> bots_below(Rating(25.0, 1.0), v, a), bots_below(Rating(), v, a)
    (('medium', 'easy'), ())
    """
    bots = anchors.by_variant.get(variant, {})
    below = [b for b, r in bots.items() if r.display < rating.display]
    return tuple(sorted(below, key=lambda b: (-bots[b].display, b)))


# --- matches ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Seat:
    """One seat's outcome in a rated match: who (a person's id, or a bot's name when
    ``bot``), its place (0 is first; equal places tie) and whether it abandoned."""

    player: str
    place: int
    bot: bool = False
    abandoned: bool = False


@dataclass(frozen=True)
class RatedMatch:
    """A finished rated match: its variant and every seat's outcome. A person sits at
    most once; bots may fill several seats."""

    variant: Variant
    seats: tuple[Seat, ...]

    def __post_init__(self) -> None:
        lo, hi = BANDS[self.variant.band]
        if not lo <= len(self.seats) <= hi:
            raise RatingError(f"a {self.variant.key} match has {lo} to {hi} seats, "
                              f"not {len(self.seats)}")
        people = [s.player for s in self.seats if not s.bot]
        if not people:
            raise RatingError("a rated match has at least one person (bots' ratings "
                              "are fixed)")
        if len(set(people)) != len(people):
            raise RatingError("a person sits at most once in a rated match")
        if any(isinstance(s.place, bool) or not isinstance(s.place, int) or s.place < 0
               for s in self.seats):
            raise RatingError("places are whole numbers from 0 (first)")

    @property
    def people(self) -> tuple[str, ...]:
        """The people seated, in seat order."""
        return tuple(s.player for s in self.seats if not s.bot)

    def to_json(self) -> dict[str, Any]:
        """The match as JSON data (what a store keeps for :func:`rebuild`)."""
        return {"variant": self.variant.key, "seats": [
            {"player": s.player, "place": s.place, "bot": s.bot, "abandoned": s.abandoned}
            for s in self.seats]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RatedMatch:
        """A match from :meth:`to_json`'s data; RatingError naming what is wrong.

        >>> m = RatedMatch(Variant("six-card", "2"), (Seat("ann", 1), Seat("easy", 0, True)))
        >>> RatedMatch.from_json(m.to_json()) == m
        True
        """
        try:
            seats = tuple(Seat(str(s["player"]), s["place"], bool(s["bot"]),
                               bool(s["abandoned"])) for s in data["seats"])
            variant = Variant.parse(str(data["variant"]))
        except (KeyError, TypeError):
            raise RatingError("a stored match has 'variant' and 'seats' of 'player', "
                              "'place', 'bot' and 'abandoned'") from None
        return cls(variant, seats)


def effective_places(seats: Sequence[Seat]) -> list[int]:
    """The places rated: an abandoning seat is last (abandoners tie), the rest keep
    their order; dense from 0.

    >>> effective_places([Seat("a", 0, abandoned=True), Seat("b", 1), Seat("c", 1)])
    [1, 0, 0]
    """
    keys = [(s.abandoned, -1 if s.abandoned else s.place) for s in seats]
    order = sorted(set(keys))
    return [order.index(k) for k in keys]


@dataclass(frozen=True)
class RatingChange:
    """One person's rating before and after a match, and the bots it newly passed."""

    before: Rating
    after: Rating
    passed: tuple[str, ...] = ()

    @property
    def delta(self) -> int:
        """The change of the displayed rating."""
        return self.after.display - self.before.display


def rate_match(current: Mapping[str, Rating], match: RatedMatch,
               anchors: Anchors) -> dict[str, RatingChange]:
    """Each person's new rating after ``match``. ``current`` holds the people's ratings
    in the match's variant (a person missing from it starts at :class:`Rating`'s
    default); bots take their fixed ratings from ``anchors`` and are not returned."""
    variant = match.variant
    teams = []
    model = _model()
    for seat in match.seats:
        if seat.bot:
            fixed = anchors.fixed(variant, seat.player)
            if fixed is None:
                raise RatingError(f"{seat.player} has no measured rating for {variant.key}")
            rating = fixed
        else:
            rating = current.get(seat.player, Rating())
        teams.append([model.rating(mu=rating.mu, sigma=rating.sigma)])
    rated = model.rate(teams, ranks=effective_places(match.seats))
    out: dict[str, RatingChange] = {}
    for seat, team in zip(match.seats, rated, strict=True):
        if seat.bot:
            continue  # an anchor: its update is the model's, never applied
        before = current.get(seat.player, Rating())
        after = Rating(team[0].mu, team[0].sigma, before.matches + 1,
                       before.abandoned + seat.abandoned)
        out[seat.player] = RatingChange(before, after, _newly_passed(before, after,
                                                                     variant, anchors))
    return out


def _newly_passed(before: Rating, after: Rating, variant: Variant,
                  anchors: Anchors) -> tuple[str, ...]:
    was = set(bots_below(before, variant, anchors))
    return tuple(b for b in bots_below(after, variant, anchors) if b not in was)


@dataclass
class RatingBook:
    """Every person's rating per variant, updated one match at a time (the server keeps
    the same in its tables; this is what a rebuild and the tests use)."""

    anchors: Anchors
    ratings: dict[tuple[Variant, str], Rating] = field(default_factory=dict)

    def get(self, variant: Variant, player: str) -> Rating:
        """The player's rating in ``variant`` (the default before any match)."""
        return self.ratings.get((variant, player), Rating())

    def record(self, match: RatedMatch) -> dict[str, RatingChange]:
        """Rate ``match`` and keep the people's new ratings."""
        current = {p: self.get(match.variant, p) for p in match.people}
        changes = rate_match(current, match, self.anchors)
        for player, change in changes.items():
            self.ratings[(match.variant, player)] = change.after
        return changes

    def player(self, player: str) -> dict[Variant, Rating]:
        """The player's ratings by variant."""
        return {v: r for (v, p), r in sorted(self.ratings.items()) if p == player}


def rebuild(matches: Iterable[RatedMatch], anchors: Anchors) -> RatingBook:
    """Every rating from scratch: the stored matches rated in the order they ended.

    >>> v = Variant("six-card", "2")
    >>> m = RatedMatch(v, (Seat("ann", 1), Seat("bob", 0)))
    >>> rebuild([m, m], Anchors()).get(v, "bob") == rebuild([m, m], Anchors()).get(v, "bob")
    True
    """
    book = RatingBook(anchors)
    for match in matches:
        book.record(match)
    return book

