"""The adaptive league: games spent only where the ranking is still in doubt at a cut that matters.

A first wave pairs every player with `first_opponents` seeded random opponents
(`schedule.random_opponents`). After each wave a Bradley–Terry fit of every game so far
(`standings.fit_ratings`, choix underneath) gives the ratings and their covariance. A cut is a
number of places c that decides something: the top-N (the playoff line, `league.top_fraction`)
and the edge of every grade band. A player is in doubt at a cut when its order against some
player on the other side is not established at `confidence` (the difference of their ratings is
under z standard errors of that difference: differences, unlike single intervals, do not depend
on where the scale's zero is). The next wave gives the players in doubt, the most doubtful first
and at most `wave_share` of the field, `wave_opponents` new pairings of two seat-swapped games
(one twin) each (more when that would spend less than 1/`waves` of the budget: a bound on the
number of fits), against the opponents whose game is most informative: win probability nearest ½,
discounted by REPEAT for every twin the pair has already played, so a player meets several
opponents near its rating rather than one again and again. Waves stop when no one is in doubt
(every cut is separated at the stated confidence) or when the next wave would pass the game
budget (a share of a full round robin's games).

Every wave is a pure function of the ids, the league seed, the games scheduled so far and the
results stored for them: a killed run recomputes the same waves from the store and plays only
what is missing, and two runs from the same seed schedule the same games. Results are fitted in a
canonical order (not the order games finished), so the fit, and the schedule, do not depend on it.
"""
from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np

from .schedule import GameSpec, more_games, pairing_name, random_opponents
from .standings import RatingFit, fit_ratings

Results = dict[tuple[str, int], tuple[float, float]]

WAVE_GAMES = 2          # one seat-swapped twin per new pairing in a wave
REPEAT = 0.8            # each twin a pair has played already makes its next one this much less wanted


@dataclass(frozen=True)
class AdaptiveSettings:
    first_opponents: int = 6        # opponents per player in the first wave
    wave_opponents: int = 2         # new pairings per straddling player in each later wave
    confidence: float = 0.95        # a cut is separated when no interval at this confidence holds it
    budget: float = 0.15            # at most this share of a round robin's games (the first wave is always played)
    wave_share: float = 1.0         # at most this share of the players (the most doubtful) get games in a wave
    waves: int = 20                 # each wave spends at least 1/waves of the budget (more opponents each)

    def __post_init__(self) -> None:
        if self.first_opponents < 1 or self.wave_opponents < 1:
            raise ValueError("adaptive first_opponents and wave_opponents must be at least 1.")
        if not 0.5 < self.confidence < 1:
            raise ValueError(f"adaptive confidence must be between 0.5 and 1, not {self.confidence:g}.")
        if self.waves < 1:
            raise ValueError(f"adaptive waves must be at least 1, not {self.waves}.")
        if not 0 < self.wave_share <= 1:
            raise ValueError(f"adaptive wave_share must be in (0, 1], not {self.wave_share:g}.")
        if not 0 < self.budget <= 1:
            raise ValueError(f"adaptive budget must be a share of the round robin in (0, 1], not {self.budget:g}.")


@dataclass
class Wave:
    """What the fit after the games so far decided."""

    number: int                                 # 1 for the first wave
    specs: list[GameSpec]                       # the wave's games (empty: the league is over)
    ratings: RatingFit | None = None            # the fit that chose them (None before the first wave)
    straddling: list[str] = field(default_factory=list)
    reason: str = ""                            # why no wave follows, when specs is empty


def cut_places(n: int, fractions: Iterable[float]) -> list[int]:
    """The place counts c (1 <= c < n) that the given shares of the field decide, each at most once."""
    return sorted({min(n - 1, max(1, math.ceil(f * n - 1e-9))) for f in fractions if 0 < f < 1} if n > 1 else set())


def _digest(*parts) -> bytes:
    return hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).digest()


def budget_games(n: int, games_per_pair: int, settings: AdaptiveSettings) -> int:
    return math.floor(settings.budget * games_per_pair * n * (n - 1) / 2)


def first_wave(ids: list[str], games_per_pair: int, seed: int, settings: AdaptiveSettings) -> list[GameSpec]:
    return [GameSpec(s.pairing, s.seat0, s.seat1, s.seed, s.game_index, "wave 1")
            for s in random_opponents(ids, settings.first_opponents, games_per_pair, seed)]


def fit(ids: list[str], specs: list[GameSpec], results: Results, start: RatingFit | None = None) -> RatingFit | None:
    """The rating fit over the scheduled games that have a result, in schedule order; `start`
    (the previous wave's fit) only speeds it up."""
    rows = [(s.seat0, s.seat1, *results[(s.pairing, s.game_index)]) for s in specs
            if (s.pairing, s.game_index) in results and s.seat0 in ids and s.seat1 in ids]
    return fit_ratings(sorted(ids), rows, start.elo() if start else None)


def straddlers(ratings: RatingFit | None, ids: list[str], cuts: list[int], confidence: float) -> dict[str, float]:
    """{player: how far it is from being separated, in standard errors} for the players whose place
    on either side of some cut is in doubt: a player above cut c is in doubt when some player below
    is not beaten by it at `confidence` (θa − θb < z·sd(θa − θb)), and the other way round. Players
    without a rated game are in doubt (distance 0)."""
    rated = set(ratings.ids) if ratings else set()
    out = {sid: 0.0 for sid in ids if sid not in rated}
    if ratings is None:
        return out
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    order = np.argsort(-ratings.theta, kind="stable")
    theta, cov = ratings.theta[order], ratings.cov[order][:, order]
    var = np.diag(cov)
    for c in cuts:
        if not 0 < c < len(order):
            continue
        gap = theta[:c, None] - theta[None, c:]                           # above minus below, >= 0
        sd = np.sqrt(np.maximum(var[:c, None] + var[None, c:] - 2 * cov[:c, c:], 1e-12))
        score = gap / sd
        for k, value in zip(range(len(order)), np.concatenate([score.min(axis=1), score.min(axis=0)])):
            if value < z:
                sid = ratings.ids[int(order[k])]
                out[sid] = min(float(value), out.get(sid, math.inf))
    return out


def next_wave(ids: list[str], specs: list[GameSpec], results: Results,
              cuts: list[int], games_per_pair: int, seed: int, settings: AdaptiveSettings,
              previous: Wave | None = None) -> Wave:
    """The wave after `specs` (all of whose results that could be played are in `results`);
    `previous` is the wave that chose the last games (its fit starts this one's)."""
    number = 1 + max((int(s.round.split()[1]) for s in specs if s.round.startswith("wave ")), default=0)
    if not specs:
        first = first_wave(ids, games_per_pair, seed, settings)
        return Wave(1, first, reason="" if first else "fewer than two players: no games to play")
    ratings = fit(ids, specs, results, previous.ratings if previous else None)
    doubt = straddlers(ratings, ids, cuts, settings.confidence)
    if not doubt:
        return Wave(number, [], ratings, reason=f"every cut is separated at {settings.confidence:.0%} confidence")
    room = budget_games(len(ids), games_per_pair, settings) - len(specs)
    if room < WAVE_GAMES:
        return Wave(number, [], ratings, sorted(doubt), reason=f"the budget of {settings.budget:.0%} of a round robin's "
                                                      f"games is spent")
    rating = ratings.elo() if ratings else {}
    met: dict[str, int] = {}
    twins: dict[str, int] = {}
    for s in specs:
        met[s.pairing] = met.get(s.pairing, 0) + 1
        twins[s.pairing] = max(twins.get(s.pairing, 0), s.game_index + 1)
    chosen: dict[str, tuple[str, str]] = {}
    most = max(1, math.ceil(settings.wave_share * len(ids)))
    chosen_players = sorted(doubt, key=lambda p: (doubt[p], _digest("order", seed, number, p)))[:most]
    floor = math.ceil(budget_games(len(ids), games_per_pair, settings) / settings.waves)
    opponents = max(settings.wave_opponents, math.ceil(floor / (WAVE_GAMES * len(chosen_players))))
    for player in chosen_players:
        if len(chosen) * WAVE_GAMES + WAVE_GAMES > room:
            break
        ranked = sorted((o for o in ids if o != player and pairing_name(player, o) not in chosen),
                        key=lambda o: (-round(_information(rating, player, o)
                                              * REPEAT ** (met.get(pairing_name(player, o), 0) // 2), 6),
                                       _digest("pick", seed, number, player, o)))
        for other in ranked[:opponents]:
            if len(chosen) * WAVE_GAMES + WAVE_GAMES > room:
                break
            chosen[pairing_name(player, other)] = (player, other)
    wave = []
    for name, (a, b) in sorted(chosen.items()):
        wave += more_games(a, b, twins.get(name, 0), WAVE_GAMES, seed, f"wave {number}")
    return Wave(number, wave, ratings, sorted(doubt))


def _information(rating: dict[str, float], a: str, b: str) -> float:
    """p(1−p) of a game between a and b: largest for an even game, which tells most about the order."""
    if a not in rating or b not in rating:
        return 0.25
    p = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400))
    return p * (1 - p)


def run_waves(ids: list[str], cuts: list[int], games_per_pair: int, seed: int, settings: AdaptiveSettings,
              play: Callable[[list[GameSpec]], tuple[Results, list[str]]],
              on_wave: Callable[[Wave], None] | None = None) -> tuple[list[GameSpec], Wave]:
    """Play waves until the league is over. `play(specs)` plays (or finds stored) the given games
    and returns the results of every game played so far, keyed by (pairing, game_index), and the
    players still in the league (a disqualified player leaves it). Returns the whole schedule and
    the last wave (its `reason` says why the league stopped)."""
    specs: list[GameSpec] = []
    results: Results = {}
    wave = None
    while True:
        wave = next_wave(ids, specs, results, cuts, games_per_pair, seed, settings, wave)
        if on_wave:
            on_wave(wave)
        if not wave.specs:
            return specs, wave
        specs += wave.specs
        results, ids = play(wave.specs)
