"""Standings from game results: points, W-D-L, a crosstable and Bradley–Terry ratings.

A game is `(seat0, seat1, points0, points1)`. More points wins; equal non-zero points is a draw;
(0, 0) — both players failed — is a loss for both. Rows are ranked by `rank_by`:

- "points" (round robin, gauntlet: everyone plays the same number of games): points, then rating,
  then id; players with exactly the same points and rating share a rank (1, 2, 2, 4);
- "rating" (random_subset: players meet different opponents, different numbers of times, and the
  playoff adds games among the strongest): the Bradley–Terry rating, which weighs each result by the
  opponent's strength, then points per game, then id; unrated players come last; players whose
  ratings agree to RATING_TIE share a rank.

Disqualified players get a row with their reason, no rank and no games: their games are left out
of everyone's standings (the league also filters them before calling).

Ratings: Bradley–Terry fitted by maximum likelihood with choix (`opt_pairwise`), a draw counting as
half a win each way (every game is entered as two comparisons: a win as two wins, a draw as one win
each way; (0, 0) games carry no comparison and are left out). A small L2 penalty (RATING_ALPHA)
keeps unbeaten players finite. θ is shown on the Elo scale, 1500 + 400/ln 10 · (θ − mean θ).
The 95% interval is ±1.96 standard errors from the Fisher information: the Hessian of the
penalised per-game negative log-likelihood at the optimum, inverted, and projected onto
mean-zero θ (the scale has no origin of its own). Players without a rated game get no rating.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import asdict, dataclass, field

import numpy as np

RATING_ALPHA = 0.01          # choix's penalty: alpha·Σθ² over the doubled comparisons
ELO_SCALE = 400 / math.log(10)
ELO_MEAN = 1500.0
Z95 = 1.959963984540054
RANK_BY = ("points", "rating")
RATING_TIE = 1e-3            # optimiser noise, far below a displayed Elo point


@dataclass
class Row:
    id: str
    rank: int | None
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    games: int = 0
    rating: float | None = None
    rating_low: float | None = None
    rating_high: float | None = None
    disqualified: str | None = None


@dataclass
class Standings:
    rows: list[Row]
    crosstable: dict[str, dict[str, dict]] = field(default_factory=dict)
    rank_by: str = "points"

    def row(self, sub_id: str) -> Row | None:
        return next((r for r in self.rows if r.id == sub_id), None)

    def score(self, row: Row) -> float:
        """The number the rows are ranked by (points or rating; -inf for an unrated row), so
        that grades and playoff cuts follow the same order as the table."""
        if self.rank_by == "rating":
            return -math.inf if row.rating is None else round(row.rating, 3)
        return row.points

    def head_to_head(self, a: str, b: str) -> tuple[float, int]:
        """(a's points against b, games a played against b)."""
        cell = self.crosstable.get(a, {}).get(b)
        return (cell["points"], cell["games"]) if cell else (0.0, 0)

    def to_json(self) -> dict:
        return {"rows": [asdict(r) for r in self.rows], "crosstable": self.crosstable, "rank_by": self.rank_by}


def outcome(points0: float, points1: float) -> tuple[str, str]:
    """("win"|"draw"|"loss") for each seat."""
    if points0 > points1:
        return "win", "loss"
    if points1 > points0:
        return "loss", "win"
    if points0 == 0:
        return "loss", "loss"
    return "draw", "draw"


def compute_standings(results, participants, disqualified: dict[str, str] | None = None,
                      rank_by: str = "points", start: Standings | None = None,
                      alpha: float = RATING_ALPHA) -> Standings:
    """Standings of `participants` (and rows for the disqualified) over `results`, ranked by
    `rank_by` ("points" or "rating", see the module docstring).

    Games with a player outside `participants` or disqualified are ignored. `start`, earlier
    standings of the same players, only starts the rating fit nearer its optimum (the adaptive
    league refits after every wave). `alpha` is the fit's penalty (RATING_ALPHA; benchmarks
    measure others: alpha = 1/σ² is a N(0, σ²) prior on θ).
    """
    if rank_by not in RANK_BY:
        raise ValueError(f"rank_by must be one of {', '.join(RANK_BY)}, not {rank_by!r}.")
    disqualified = dict(disqualified or {})
    ids = sorted(dict.fromkeys(i for i in participants if i not in disqualified))
    known = set(ids)
    rows = {i: Row(i, None) for i in ids}
    cross: dict[str, dict[str, dict]] = {i: {} for i in ids}
    games = []
    for seat0, seat1, p0, p1 in results:
        if seat0 not in known or seat1 not in known or seat0 == seat1:
            continue
        p0, p1 = float(p0), float(p1)
        games.append((seat0, seat1, p0, p1))
        for me, other, mine, kind in ((seat0, seat1, p0, outcome(p0, p1)[0]), (seat1, seat0, p1, outcome(p0, p1)[1])):
            r = rows[me]
            r.points += mine
            r.games += 1
            if kind == "win":
                r.wins += 1
            elif kind == "draw":
                r.draws += 1
            else:
                r.losses += 1
            cell = cross[me].setdefault(other, {"points": 0.0, "games": 0})
            cell["points"] += mine
            cell["games"] += 1
    initial = {r.id: r.rating for r in start.rows if r.rating is not None} if start else None
    for sid, (elo, low, high) in ratings(ids, games, initial, alpha).items():
        rows[sid].rating, rows[sid].rating_low, rows[sid].rating_high = elo, low, high

    def rating(r: Row) -> float:
        return round(r.rating, 3) if r.rating is not None else -math.inf

    def per_game(r: Row) -> float:
        return r.points / r.games if r.games else 0.0

    if rank_by == "rating":
        ranked = sorted(rows.values(), key=lambda r: (-rating(r), -per_game(r), r.id))
    else:
        ranked = sorted(rows.values(), key=lambda r: (-r.points, -rating(r), r.id))
    for pos, r in enumerate(ranked):
        prev = ranked[pos - 1] if pos else None
        same = prev is not None and _close(prev.rating, r.rating) and (
            rank_by == "rating" or prev.points == r.points)
        r.rank = prev.rank if same and prev is not None else pos + 1
    dq_rows = [Row(i, None, disqualified=reason) for i, reason in sorted(disqualified.items())]
    return Standings(ranked + dq_rows, cross, rank_by)


def _close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) < RATING_TIE


@dataclass
class RatingFit:
    """The Bradley–Terry fit itself: θ (natural log-odds, mean zero) and its covariance, for the
    rated players only. Differences θa − θb and their variances Caa + Cbb − 2Cab do not depend on
    the scale's origin; a single player's interval does (the mean moves with every player's
    uncertainty), so questions of order ask the differences."""

    ids: list[str]
    theta: np.ndarray
    cov: np.ndarray

    def elo(self) -> dict[str, float]:
        return {sid: float(ELO_MEAN + ELO_SCALE * t) for sid, t in zip(self.ids, self.theta)}


def ratings(ids: list[str], games, initial: dict[str, float] | None = None,
            alpha: float = RATING_ALPHA) -> dict[str, tuple[float, float, float]]:
    """{id: (rating, low, high)} on the Elo scale for players with at least one rated game;
    `initial` ratings (Elo) start the fit, which then needs fewer Newton steps."""
    fit = fit_ratings(ids, games, initial, alpha)
    if fit is None:
        return {}
    out = {}
    for k, sid in enumerate(fit.ids):
        r = ELO_MEAN + ELO_SCALE * fit.theta[k]
        half = Z95 * ELO_SCALE * math.sqrt(max(fit.cov[k, k], 0.0))
        out[sid] = (float(r), float(r - half), float(r + half))
    return out


def fit_ratings(ids: list[str], games, initial: dict[str, float] | None = None,
                alpha: float = RATING_ALPHA) -> RatingFit | None:
    """The fit behind `ratings` (None with fewer than two rated players)."""
    index = {sid: n for n, sid in enumerate(ids)}
    comparisons: list[tuple[int, int]] = []
    pair_games: dict[tuple[int, int], int] = {}
    for seat0, seat1, p0, p1 in games:
        a, b = index[seat0], index[seat1]
        kind = outcome(p0, p1)[0]
        if p0 == 0 and p1 == 0:
            continue
        if kind == "win":
            comparisons += [(a, b), (a, b)]
        elif kind == "loss":
            comparisons += [(b, a), (b, a)]
        else:
            comparisons += [(a, b), (b, a)]
        key = (min(a, b), max(a, b))
        pair_games[key] = pair_games.get(key, 0) + 1
    rated = sorted({i for pair in pair_games for i in pair})
    if len(rated) < 2:
        return None
    import choix  # here, not above: it imports SciPy (1 s), which checking a config never needs

    # Fit only the rated players, so unrated ones do not pull on the mean.
    sub = {old: new for new, old in enumerate(rated)}
    data = [(sub[winner], sub[loser]) for winner, loser in comparisons]
    start = None
    if initial:
        start = np.array([(initial.get(ids[old], ELO_MEAN) - ELO_MEAN) / ELO_SCALE for old in rated])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theta = np.asarray(choix.opt_pairwise(len(rated), data, alpha=alpha, initial_params=start),
                           dtype=float)
    theta = theta - theta.mean()
    # Per-game penalised NLL = ½·(choix objective): its Hessian is ½·2α·I + Σ_games p(1−p)(e_a−e_b)(e_a−e_b)ᵀ.
    n = len(rated)
    hess = alpha * np.eye(n)
    for (a, b), count in pair_games.items():
        i, j = sub[a], sub[b]
        p = 1.0 / (1.0 + math.exp(-(theta[i] - theta[j])))
        w = count * p * (1 - p)
        hess[i, i] += w
        hess[j, j] += w
        hess[i, j] -= w
        hess[j, i] -= w
    centre = np.eye(n) - np.full((n, n), 1.0 / n)
    cov = centre @ np.linalg.inv(hess) @ centre
    return RatingFit([ids[old] for old in rated], theta, cov)
