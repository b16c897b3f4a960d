"""What any allocation of the adaptive league's budget could reach: an oracle that knows every
player's true strength (so its true distance to each cut and the true win probability of every
game) spends the games after the first wave where they lower the expected number of misplaced
players most, then the results (the real Bradley–Terry noise, `bench_adaptive.outcome`) are fitted
and ranked exactly as the league ranks them.

A player at distance d from a cut's true threshold, with Fisher information I (Σ p(1−p) over its
games, plus the prior's), is on the wrong side with probability Φ(−|d|·√I). A twin between a and b
adds 2·p(1−p) to both. Greedily, in batches of disjoint pairs, the oracle plays the twin whose two
players' summed fall in that probability is largest. Its allocation is an upper bound on what a
scheduler that must estimate d could do with the same estimator; its ranking uses only the game
results, as the league's does.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.special import ndtr

from grader.adaptive import AdaptiveSettings, budget_games, cut_places, first_wave
from grader.schedule import GameSpec, more_games

BATCH = 40          # disjoint twins chosen per recomputation of the gains


def thresholds(theta: dict[str, float], shares) -> list[float]:
    """The true strength midway between the players at places c and c+1 of each cut."""
    values = sorted(theta.values(), reverse=True)
    return [(values[c - 1] + values[c]) / 2 for c in cut_places(len(values), shares)]


def oracle_schedule(theta: dict[str, float], shares, games_per_pair: int, seed: int,
                    settings: AdaptiveSettings, prior_information: float = 1.0) -> list[GameSpec]:
    """The first wave the league plays, then the budget's remaining twins where the oracle says."""
    ids = sorted(theta)
    index = {sid: k for k, sid in enumerate(ids)}
    t = np.array([theta[i] for i in ids])
    cuts = np.array(thresholds(theta, shares))
    p = 1 / (1 + np.exp(t[None, :] - t[:, None]))
    info_pair = 2 * p * (1 - p)                                 # a twin's information to each player
    np.fill_diagonal(info_pair, 0.0)
    specs = first_wave(ids, games_per_pair, seed, settings) if settings.first_opponents else []
    information = np.full(len(ids), prior_information)
    twins: dict[str, int] = {}
    for s in specs:
        a, b = index[s.seat0], index[s.seat1]
        information[a] += p[a, b] * (1 - p[a, b])
        information[b] += p[a, b] * (1 - p[a, b])
        twins[s.pairing] = max(twins.get(s.pairing, 0), s.game_index + 1)
    distance = np.abs(t[:, None] - cuts[None, :])               # players x cuts

    def wrong(info: np.ndarray) -> np.ndarray:
        """Each player's expected number of wrong sides; info is per player (axis 0), optionally
        with a second axis of alternatives."""
        d = distance if info.ndim == 1 else distance[:, None, :]
        return ndtr(-d * np.sqrt(info)[..., None]).sum(axis=-1)

    room = (budget_games(len(ids), games_per_pair, settings) - len(specs)) // 2
    while room > 0:
        now = wrong(information)
        after = wrong(information[:, None] + info_pair)          # [i, j]: i's wrong probability after a twin with j
        gain = now[:, None] - after
        total = gain + gain.T
        np.fill_diagonal(total, -1.0)
        used: set[int] = set()
        flat = np.argsort(-total, axis=None)
        taken = 0
        for k in flat:
            a, b = divmod(int(k), len(ids))
            if a in used or b in used or a >= b:
                continue
            used |= {a, b}
            name = f"{ids[a]} vs {ids[b]}"
            specs += more_games(ids[a], ids[b], twins.get(name, 0), 2, seed, "oracle")
            twins[name] = twins.get(name, 0) + 2
            information[a] += info_pair[a, b]
            information[b] += info_pair[a, b]
            taken += 1
            room -= 1
            if taken >= BATCH or room <= 0 or 2 * len(used) > len(ids):
                break
    return specs


def expected_misplaced(theta: dict[str, float], shares, information: float) -> float:
    """Σ Φ(−|d|·√I): the expected number of players on the wrong side of some cut when every
    player's estimate has the same information I (the round robin's case, roughly)."""
    t = np.array(list(theta.values()))
    cuts = np.array(thresholds(theta, shares))
    return float(ndtr(-np.abs(t[:, None] - cuts[None, :]) * math.sqrt(information)).sum())


def round_robin_information(theta: dict[str, float], games_per_pair: int) -> np.ndarray:
    """Each player's Fisher information in a round robin: Σ over opponents of games·p(1−p)."""
    t = np.array(list(theta.values()))
    p = 1 / (1 + np.exp(t[None, :] - t[:, None]))
    info = games_per_pair * p * (1 - p)
    np.fill_diagonal(info, 0.0)
    return info.sum(axis=1)


def misplaced(theta: dict[str, float], shares, information: np.ndarray) -> float:
    """Σ Φ(−|d|·√I) over players and cuts: the expected number of players on the wrong side of a
    cut when player k's estimate has information I[k] and the thresholds are known."""
    t = np.array(list(theta.values()))
    cuts = np.array(thresholds(theta, shares))
    return float(ndtr(-np.abs(t[:, None] - cuts[None, :]) * np.sqrt(information)[:, None]).sum())


def ideal_information(theta: dict[str, float], shares, games: int) -> np.ndarray:
    """The information per player that minimises `misplaced` when `games` games are shared out
    freely, every one at even odds (¼ to each player) against an opponent known exactly: an
    allocation no scheduler can beat, since no game tells more and no opponent is known better."""
    t = np.array(list(theta.values()))
    d = np.abs(t[:, None] - np.array(thresholds(theta, shares))[None, :])
    grid = np.arange(0, 2 * games + 1, dtype=float) if games < 2000 else np.unique(
        np.round(np.geomspace(1, 2 * games, 4000)))
    grid = np.concatenate([[0.0], grid[grid > 0]])
    wrong = ndtr(-d[:, None, :] * np.sqrt(grid / 4)[None, :, None]).sum(axis=-1)   # players x grid

    def spend(lam: float) -> np.ndarray:
        return grid[np.argmin(wrong + lam * grid[None, :], axis=1)]

    low, high = 0.0, 1.0
    for _ in range(60):                     # the price of a player-game that spends 2·games exactly
        lam = (low + high) / 2
        if spend(lam).sum() > 2 * games:
            low = lam
        else:
            high = lam
    return np.asarray(spend(high) / 4)


def main() -> None:
    """`python -m benchmarks.adaptive_bound`: the expected misplaced players of the round robin and
    of the ideal allocation at some budgets, over the bench's fields (ADAPTIVE_SEEDS)."""
    from benchmarks.bench_adaptive import BANDS, GAMES_PER_PAIR, PLAYERS, SEEDS, TOP, strengths

    full = GAMES_PER_PAIR * PLAYERS * (PLAYERS - 1) // 2
    top_places = math.ceil(TOP * PLAYERS - 1e-9)
    print(f"{PLAYERS} players, seeds {', '.join(map(str, SEEDS))}: expected misplaced players (top cut | all cuts), "
          f"and the recall / bands right they mean")
    for label, budget in (("double round robin", None), ("ideal, 10 %", 0.10), ("ideal, 15 %", 0.15),
                          ("ideal, 20 %", 0.20), ("ideal, 30 %", 0.30), ("ideal, 40 %", 0.40)):
        top: list[float] = []
        every: list[float] = []
        for seed in SEEDS:
            theta = strengths(PLAYERS, seed)
            for shares, out in (((TOP,), top), ((TOP, *BANDS), every)):
                info = (round_robin_information(theta, GAMES_PER_PAIR) if budget is None
                        else ideal_information(theta, shares, int(budget * full)))
                out.append(misplaced(theta, shares, info))
        mean_top, mean_all = sum(top) / len(top), sum(every) / len(every)
        print(f"{label:20} {mean_top:5.1f} | {mean_all:5.1f}   recall {1 - mean_top / 2 / top_places:.3f}, "
              f"bands right {1 - mean_all / PLAYERS:.3f}")


if __name__ == "__main__":
    main()
