"""How right is the ranking per game played: the adaptive league against a double round robin, on
simulated Bradley–Terry players driven through the league's own scheduler (`grader.adaptive`,
`grader.schedule`) and standings (`grader.standings`).

300 players with strengths θ ~ N(0, 1) (natural log odds; a game is won by a with probability
σ(θa − θb), no draws). Recall: the share of the true top 10 % found in the computed top 10 %; a
grade band's membership is right when a player's computed band (top 10/20/40 %) is its true one.
"""
from __future__ import annotations

import math
import random
import time

from grader.adaptive import AdaptiveSettings, cut_places, run_waves
from grader.schedule import GameSpec, round_robin
from grader.standings import compute_standings

PLAYERS = 300
GAMES_PER_PAIR = 2
TOP = 0.10
BANDS = (0.10, 0.20, 0.40)
SEEDS = (1, 2)


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
    specs = round_robin(list(theta), GAMES_PER_PAIR, seed)
    results = [(s.seat0, s.seat1, *outcome(theta, s)) for s in specs]
    return len(specs), *accuracy(theta, ranked_ids(results, list(theta), "points"))


def adaptive_row(theta: dict[str, float], seed: int, settings: AdaptiveSettings) -> tuple[int, float, float, int, str]:
    ids = sorted(theta)
    cuts = cut_places(len(ids), (TOP, *BANDS))
    play = simulated_play(theta)
    specs, last = run_waves(ids, cuts, GAMES_PER_PAIR, seed, settings, play)
    results, _ = play([])
    rows = [(s.seat0, s.seat1, *results[(s.pairing, s.game_index)]) for s in specs]
    return len(specs), *accuracy(theta, ranked_ids(rows, ids, "rating")), last.number - 1, last.reason


def run():
    rows = []
    settings = AdaptiveSettings(budget=0.10)
    for seed in SEEDS:
        theta = strengths(PLAYERS, seed)
        t0 = time.perf_counter()
        rr_games, rr_recall, rr_bands = round_robin_row(theta, seed)
        t1 = time.perf_counter()
        games, recall, bands, waves, reason = adaptive_row(theta, seed, settings)
        t2 = time.perf_counter()
        rows.append({"players / seed": f"{PLAYERS} / {seed}", "round robin games": rr_games,
                     "round robin top-10 % recall": f"{rr_recall:.2f}",
                     "round robin bands right": f"{rr_bands:.2f}",
                     "adaptive games (ratio)": f"{games} ({games / rr_games:.1%})",
                     "adaptive recall": f"{recall:.2f}", "adaptive bands right": f"{bands:.2f}",
                     "waves": waves, "stopped": reason,
                     "scheduler s (adaptive / rr)": f"{t2 - t1:.1f} / {t1 - t0:.1f}"})
    return "Adaptive league vs double round robin, simulated Bradley–Terry players", rows
