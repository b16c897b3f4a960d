"""The collusion check on leagues of any game (results only): how often honest leagues raise a
false flag, and how often a planted friend-and-thrower pair is found, by games per pair, and at
the course's 2 games a pair (the same leagues) before and after replaying suspicious pairs (grader/collusion.py's
`replay_suspicious`, with the league's default settings), with the extra games that cost.

20 Bradley–Terry players with strengths ~ N(1500, 200) Elo, a round robin; the thrower is the
strongest player and loses every game to the median one (winning its other games as its strength
says), the pattern of issue 27: nothing in its moves needs to look wrong.
Sizes: COLLUSION_LEAGUES (seeds per row, default 12).
"""
from __future__ import annotations

import os
import random
import time

from benchmarks.simulated_leagues import SimulatedReplays, bt_league, bt_result
from grader.collusion import ReplaySettings, replay_suspicious, result_flags
from grader.schedule import round_robin

PLAYERS = 20
LEAGUES = int(os.environ.get("COLLUSION_LEAGUES", "12"))


def _strengths(seed: int) -> tuple[dict[str, float], tuple[str, str]]:
    rng = random.Random(seed)
    strengths = {f"s{i:02d}": rng.gauss(1500, 200) for i in range(PLAYERS)}
    ranked = sorted(strengths, key=lambda s: -strengths[s])
    return strengths, (ranked[0], ranked[PLAYERS // 2])


def _league(seed: int, games_per_pair: int, thrown: bool) -> tuple[list[dict], tuple[str, str]]:
    strengths, pair = _strengths(seed)
    return bt_league(random.Random(seed + 1000), strengths, games_per_pair, lose_to=pair if thrown else None), pair


def _replayed(seed: int, thrown: bool) -> tuple[list[dict], tuple[str, str], int, list[dict]]:
    """A 2-games-a-pair round robin on the league scheduler's seeds, then the replays;
    (every game, the pair, the extra games, the league's own games)."""
    strengths, pair = _strengths(seed)
    lose_to = pair if thrown else None
    games = [bt_result(strengths, s, lose_to) for s in round_robin(sorted(strengths), 2, seed)]
    play = SimulatedReplays(strengths, games, seed, lose_to)
    everything, _ = replay_suspicious(games, strengths, ReplaySettings(), play)
    return everything, pair, len(everything) - len(games), games


def run():
    rows = []
    for gpp in (4, 10):
        t0 = time.perf_counter()
        false_flags = sum(bool(result_flags(_league(seed, gpp, False)[0])) for seed in range(LEAGUES))
        found = 0
        for seed in range(LEAGUES):
            games, (thrower, friend) = _league(seed, gpp, True)
            found += any((f.player, f.beneficiary) == (thrower, friend) for f in result_flags(games))
        rows.append({"league": f"{gpp} games a pair", "honest leagues with any flag": f"{false_flags} of {LEAGUES}",
                     "thrower found": f"{found} of {LEAGUES}",
                     "extra games a league": f"{(gpp - 2) * PLAYERS * (PLAYERS - 1) // 2} (+{(gpp - 2) / 2:.0%})",
                     "s": f"{time.perf_counter() - t0:.1f}"})
    t0 = time.perf_counter()
    before = {"false": 0, "found": 0}
    after = {"false": 0, "found": 0}
    extra = []
    for seed in range(LEAGUES):
        for thrown in (False, True):
            games, (thrower, friend), spent, first = _replayed(seed, thrown)
            for tally, flags in ((before, result_flags(first)), (after, result_flags(games))):
                if thrown:
                    tally["found"] += any((f.player, f.beneficiary) == (thrower, friend) for f in flags)
                else:
                    tally["false"] += bool(flags)
            extra.append(spent)
    base = PLAYERS * (PLAYERS - 1)
    rows.insert(0, {"league": "2 games a pair", "honest leagues with any flag": f"{before['false']} of {LEAGUES}",
                    "thrower found": f"{before['found']} of {LEAGUES}", "extra games a league": "0", "s": ""})
    rows.insert(1, {"league": "the same, then suspicious pairs replayed (screen 0.1, at most 12 games a pair)",
                    "honest leagues with any flag": f"{after['false']} of {LEAGUES}",
                    "thrower found": f"{after['found']} of {LEAGUES}",
                    "extra games a league": f"{sum(extra) / len(extra):.1f} (+{sum(extra) / len(extra) / base:.1%}, "
                                            f"max {max(extra)})",
                    "s": f"{time.perf_counter() - t0:.1f}"})
    return f"Collusion by results, {PLAYERS} players of any game, leagues of {LEAGUES} seeds", rows
