"""Must beat a built-in: how often a player of a given strength passes, and how many games against
the built-in that takes, with the grading's sequential test (grader/sprt.py, the defaults: error
5 %, margin 0.1, at most 200 games, undecided counts as not beating it), next to the old rule (at
least half of the league's two games). A player's games are independent, scoring 1 with chance p
and 0 otherwise (draws only narrow the spread). Sizes: SPRT_PLAYERS (default 2000 a row).
"""
from __future__ import annotations

import os
import random
import statistics

from grader.sprt import BEATS, UNDECIDED, SprtSettings, decide

PLAYERS = int(os.environ.get("SPRT_PLAYERS", "2000"))
STRENGTHS = (0.3, 0.45, 0.5, 0.55, 0.6, 0.65, 0.75, 0.9)


def run() -> tuple[str, list[dict]]:
    settings = SprtSettings()
    rows = []
    for p in STRENGTHS:
        rng = random.Random(int(p * 1000))
        passed = undecided = two_game_pass = 0
        games = []
        for _ in range(PLAYERS):
            scores = [1.0 if rng.random() < p else 0.0 for _ in range(settings.max_games)]
            d = decide(scores, settings)
            passed += d.verdict == BEATS
            undecided += d.verdict == UNDECIDED
            two_game_pass += sum(scores[:2]) >= 1
            games.append(d.games)
        rows.append({"scores a game": f"{p:.2f}", "passes (test)": f"{passed / PLAYERS:.1%}",
                     "undecided at 200": f"{undecided / PLAYERS:.1%}",
                     "games: mean": f"{statistics.mean(games):.0f}",
                     "games: 90th pct": f"{sorted(games)[int(0.9 * PLAYERS)]}",
                     "passes (half of 2 games, before)": f"{two_game_pass / PLAYERS:.1%}"})
    return "Must beat a built-in: the sequential test against two games", rows


if __name__ == "__main__":
    title, rows = run()
    print(title)
    for row in rows:
        print(row)
