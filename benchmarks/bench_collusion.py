"""The collusion check on leagues of any game (results only): how often honest leagues raise a
false flag, and how often a planted friend-and-thrower pair is found, by games per pair.

20 Bradley–Terry players with strengths ~ N(1500, 200) Elo, a round robin; the thrower is the
strongest player and loses every game to the median one (winning its other games as its strength
says), the pattern of issue 27: nothing in its moves needs to look wrong.
"""
from __future__ import annotations

import random
import time

from benchmarks.simulated_leagues import bt_league
from grader.collusion import result_flags

PLAYERS = 20
LEAGUES = 6


def _league(seed: int, games_per_pair: int, thrown: bool) -> tuple[list[dict], tuple[str, str]]:
    rng = random.Random(seed)
    strengths = {f"s{i:02d}": rng.gauss(1500, 200) for i in range(PLAYERS)}
    ranked = sorted(strengths, key=lambda s: -strengths[s])
    pair = (ranked[0], ranked[PLAYERS // 2])
    return bt_league(rng, strengths, games_per_pair, lose_to=pair if thrown else None), pair


def run():
    rows = []
    for gpp in (2, 4, 10):
        t0 = time.perf_counter()
        false_flags = sum(bool(result_flags(_league(seed, gpp, False)[0])) for seed in range(LEAGUES))
        found = 0
        for seed in range(LEAGUES):
            games, (thrower, friend) = _league(seed, gpp, True)
            found += any((f.player, f.beneficiary) == (thrower, friend) for f in result_flags(games))
        rows.append({"games per pair": gpp, "honest leagues with any flag": f"{false_flags} of {LEAGUES}",
                     "thrower found": f"{found} of {LEAGUES}", "s": f"{time.perf_counter() - t0:.1f}"})
    return f"Collusion by results, {PLAYERS} players of any game, leagues of {LEAGUES} seeds", rows
