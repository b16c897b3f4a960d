"""What each game's shim costs a player's start: start to the first reply, spawned and pre-forked.

A player process imports its game's shim (and the shim's PRELOAD: NumPy and Matplotlib for
Colosseum) before it restricts itself; a pre-fork template has done so once for all its children.
Each ruleset's first built-in player is opened; medians of STARTS starts after one warm-up.
"""
from __future__ import annotations

import statistics
import time

import rulesets
from sandbox import Limits, PlayerProcess, prefork

STARTS = 9


def _start_ms(ruleset, folder: str, pool) -> float:
    times = []
    for _ in range(STARTS + 1):
        t0 = time.perf_counter()
        with PlayerProcess(ruleset.shim, folder, Limits(), name="bench", prefork=pool) as p:
            assert p.start().ok, p.close().output
            times.append(time.perf_counter() - t0)
            assert pool is None or p.started_by == "prefork", pool.last_error
    return round(statistics.median(times[1:]) * 1000, 1)


def run():
    rows = []
    with prefork.PreforkPool() as pool:
        for name in rulesets.NAMES:
            ruleset = rulesets.load(name)
            folder = str(next(iter(ruleset.players.values())))
            spawned, forked = _start_ms(ruleset, folder, None), _start_ms(ruleset, folder, pool)
            rows.append({"ruleset": name, "shim": ruleset.shim, "spawned ms": spawned, "pre-forked ms": forked})
    return f"Player start per game's shim (medians of {STARTS} starts)", rows


if __name__ == "__main__":
    title, rows = run()
    print(title)
    for row in rows:
        print(row)
