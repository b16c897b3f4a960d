"""How right is the ranking per game played: the adaptive league against a double round robin, on
simulated Bradley–Terry players driven through the league's own scheduler (`grader.adaptive`,
`grader.schedule`) and standings (`grader.standings`).

300 players with strengths θ ~ N(0, 1) (natural log odds; a game is won by a with probability
σ(θa − θb), no draws). Recall: the share of the true top 10 % found in the computed top 10 %; a
grade band's membership is right when a player's computed band (top 10/20/40 %) is its true one.
Every figure is the mean over the seeds in ADAPTIVE_SEEDS (default 1,2: one seed swings recall by
±0.05, two players of thirty); ADAPTIVE_PLAYERS sets the field (default 300); ADAPTIVE_ROWS picks
rows (default all: round_robin, random, adaptive, adaptive_top, oracle, oracle_top). The oracle rows
are benchmarks/adaptive_bound.py's allocation by true strengths; `python -m benchmarks.adaptive_bound`
prints the expected misplaced players of an ideal allocation, the bound the doc quotes.
"""
from __future__ import annotations

import math
import os
import random
import statistics
import time

from benchmarks.adaptive_bound import oracle_schedule
from grader.adaptive import AdaptiveSettings, cut_places, run_waves
from grader.schedule import GameSpec, random_opponents, round_robin
from grader.standings import RATING_ALPHA, compute_standings

PLAYERS = int(os.environ.get("ADAPTIVE_PLAYERS", "300"))
GAMES_PER_PAIR = 2
TOP = 0.10
BANDS = (0.10, 0.20, 0.40)
SEEDS = tuple(int(s) for s in os.environ.get("ADAPTIVE_SEEDS", "1,2").split(","))


def strengths(n: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    return {f"s{i:03d}": rng.gauss(0, 1) for i in range(n)}


def outcome(theta: dict[str, float], spec: GameSpec) -> tuple[float, float]:
    """A game's result, a function of its seed only (so a replayed game gives the same result)."""
    p = 1 / (1 + math.exp(theta[spec.seat1] - theta[spec.seat0]))
    u = random.Random(spec.seed * 1_000_003 + spec.game_index).random()
    return (1.0, 0.0) if u < p else (0.0, 1.0)


def simulated_play(theta: dict[str, float]):
    results: dict[tuple[str, int], tuple[float, float]] = {}

    def play(specs: list[GameSpec]):
        for s in specs:
            results[(s.pairing, s.game_index)] = outcome(theta, s)
        return dict(results), sorted(theta)
    return play


def band_of(order: list[str]) -> dict[str, int]:
    n = len(order)
    counts = [max(1, math.ceil(f * n - 1e-9)) for f in BANDS]
    return {sid: next((k for k, c in enumerate(counts) if place < c), len(counts)) for place, sid in enumerate(order)}


def accuracy(theta: dict[str, float], ranked: list[str]) -> tuple[float, float]:
    truth = sorted(theta, key=lambda s: -theta[s])
    top = max(1, math.ceil(TOP * len(truth)))
    recall = len(set(truth[:top]) & set(ranked[:top])) / top
    true_band, got_band = band_of(truth), band_of(ranked)
    return recall, sum(true_band[s] == got_band[s] for s in theta) / len(theta)


def ranked_ids(results, ids, rank_by) -> list[str]:
    standings = compute_standings(results, ids, rank_by=rank_by)
    return [r.id for r in standings.rows]


def round_robin_row(theta: dict[str, float], seed: int) -> tuple[int, float, float]:
    """The double round robin, ranked by points as its standings are (their rating tie-break, a
    choix fit over 179 400 comparisons, takes minutes and changes only exact ties: by id here)."""
    specs = round_robin(list(theta), GAMES_PER_PAIR, seed)
    points = dict.fromkeys(theta, 0.0)
    for s in specs:
        p0, p1 = outcome(theta, s)
        points[s.seat0] += p0
        points[s.seat1] += p1
    return len(specs), *accuracy(theta, sorted(theta, key=lambda i: (-points[i], i)))


def adaptive_row(theta: dict[str, float], seed: int, settings: AdaptiveSettings,
                 shares=(TOP, *BANDS)) -> tuple[int, float, float, int, str]:
    ids = sorted(theta)
    cuts = cut_places(len(ids), shares)
    play = simulated_play(theta)
    specs, last = run_waves(ids, cuts, GAMES_PER_PAIR, seed, settings, play)
    results, _ = play([])
    rows = [(s.seat0, s.seat1, *results[(s.pairing, s.game_index)]) for s in specs]
    return len(specs), *accuracy(theta, ranked_ids(rows, ids, "rating")), last.number - 1, last.reason


def _row(label: str, measured: list[tuple], rr_games: float, seconds: float) -> dict:
    """Means over the seeds of (games, recall, bands[, waves, reason])."""
    games = statistics.mean(m[0] for m in measured)
    reasons = sorted({m[4] for m in measured if len(m) > 4})
    return {f"league ({PLAYERS} players, mean of {len(SEEDS)} seeds)": label, "games": f"{games:.0f}",
            "games / round robin": f"{games / rr_games:.1%}",
            "top-10 % recall": f"{statistics.mean(m[1] for m in measured):.3f}",
            "per seed": " ".join(f"{m[1]:.2f}" for m in measured),
            "bands right": f"{statistics.mean(m[2] for m in measured):.3f}",
            "bands per seed": " ".join(f"{m[2]:.3f}" for m in measured),
            "waves": " ".join(str(m[3]) for m in measured) if len(measured[0]) > 4 else "",
            "stopped": "; ".join(reasons), "scheduler s": f"{seconds:.1f}"}


ROWS = {"round_robin", "random", "adaptive", "adaptive_top", "oracle", "oracle_top", "oracle_prior"}
ONLY = set(os.environ.get("ADAPTIVE_ROWS", ",".join(sorted(ROWS))).split(",")) & ROWS


def oracle_row(theta: dict[str, float], seed: int, settings: AdaptiveSettings, shares,
               alpha: float = RATING_ALPHA) -> tuple[int, float, float]:
    """The oracle allocation (benchmarks/adaptive_bound.py), ranked as the league ranks (or with
    the rating fit's penalty `alpha`: 1 is a N(0, 1) prior on θ, the simulated players' own)."""
    specs = oracle_schedule(theta, shares, GAMES_PER_PAIR, seed, settings)
    rows = [(s.seat0, s.seat1, *outcome(theta, s)) for s in specs]
    ranked = [r.id for r in compute_standings(rows, sorted(theta), rank_by="rating", alpha=alpha).rows]
    return len(specs), *accuracy(theta, ranked)


def run():
    """The rows named in ADAPTIVE_ROWS (default all), each over the seeds in ADAPTIVE_SEEDS."""
    rows = []
    settings = AdaptiveSettings(budget=0.10)
    thetas = {seed: strengths(PLAYERS, seed) for seed in SEEDS}
    rr_games = GAMES_PER_PAIR * PLAYERS * (PLAYERS - 1) / 2
    if "round_robin" in ONLY:
        t0 = time.perf_counter()
        rr = [round_robin_row(thetas[seed], seed) for seed in SEEDS]
        rows.append(_row("double round robin", rr, rr_games, time.perf_counter() - t0))
    if "random" in ONLY:
        t0 = time.perf_counter()
        measured = []
        for seed in SEEDS:
            specs = random_opponents(list(thetas[seed]), 30, GAMES_PER_PAIR, seed)     # about the adaptive budget
            results = [(s.seat0, s.seat1, *outcome(thetas[seed], s)) for s in specs]
            measured.append((len(specs), *accuracy(thetas[seed], ranked_ids(results, list(thetas[seed]), "rating"))))
        rows.append(_row("30 random opponents, ranked by rating", measured, rr_games, time.perf_counter() - t0))
    for key, label, shares in (("adaptive", "adaptive, cuts: top 10 % and the bands 10/20/40 %", (TOP, *BANDS)),
                               ("adaptive_top", "adaptive, cut: top 10 % only", (TOP,))):
        if key in ONLY:
            t0 = time.perf_counter()
            measured = [adaptive_row(thetas[seed], seed, settings, shares) for seed in SEEDS]
            rows.append(_row(label, measured, rr_games, time.perf_counter() - t0))
    for key, label, shares, alpha in (
            ("oracle", "oracle allocation (true strengths), all cuts", (TOP, *BANDS), RATING_ALPHA),
            ("oracle_top", "oracle allocation (true strengths), top 10 % only", (TOP,), RATING_ALPHA),
            ("oracle_prior", "the same, top 10 % only, ranked with a N(0, 1) prior", (TOP,), 1.0)):
        if key in ONLY:
            t0 = time.perf_counter()
            measured = [oracle_row(thetas[seed], seed, settings, shares, alpha) for seed in SEEDS]
            rows.append(_row(label, measured, rr_games, time.perf_counter() - t0))
    return "Adaptive league vs double round robin, simulated Bradley–Terry players", rows
