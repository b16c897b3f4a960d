"""The engines' hot paths: legal-move generation and `play` (with its legality check) per game.

Random playouts from fixed seeds with each ruleset's default parameters; the manager runs these
for every move of every game, so they bound how fast a league can go when players answer at once.
"""
from __future__ import annotations

import random
import time

import rulesets

PLAYOUTS = 20


def _measure(name: str) -> dict:
    ruleset = rulesets.load(name)
    game = ruleset.game()
    gen = play = 0.0
    calls = plies = 0
    for seed in range(PLAYOUTS):
        rng = random.Random(seed)
        state = game.new_state(seed)
        while state.outcome is None and plies < 200_000:
            t0 = time.perf_counter()
            moves = state.legal_moves()
            t1 = time.perf_counter()
            state.play(rng.choice(moves))
            t2 = time.perf_counter()
            gen += t1 - t0
            play += t2 - t1
            calls += 1
            plies += 1
    return {"ruleset": name, "params": str(game.params), "plies/game": f"{plies / PLAYOUTS:.0f}",
            "legal_moves µs": f"{1e6 * gen / calls:.0f}", "play µs": f"{1e6 * play / calls:.0f}",
            "engine ms/game": f"{1e3 * (gen + play) / PLAYOUTS:.1f}"}


def run():
    rows = []
    for name in rulesets.names():
        try:
            rows.append(_measure(name))
        except (ImportError, AttributeError) as exc:
            rows.append({"ruleset": name, "params": f"not available: {exc}", "plies/game": "",
                         "legal_moves µs": "", "play µs": "", "engine ms/game": ""})
    return f"Engine hot paths ({PLAYOUTS} random playouts each)", rows
