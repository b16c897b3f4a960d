"""What each game's shim costs a player's start: start to the first reply, spawned and pre-forked.

A player process imports its game's shim (and the shim's PRELOAD: NumPy and Matplotlib for
Colosseum) before it restricts itself; a pre-fork template has done so once for all its children.
Each ruleset's first built-in player is opened; medians of STARTS starts after one warm-up: the
wall time to the first reply, and the player process's own CPU time (start, then close; the CPU
figure moves much less than the wall time when other work shares the machine).
"""
from __future__ import annotations

import statistics
import time

import rulesets
from sandbox import Limits, PlayerProcess, prefork

STARTS = 9


def _start_ms(ruleset, folder: str, pool) -> tuple[float, float]:
    """(wall ms to the first reply, the player's CPU ms), medians."""
    walls, cpus = [], []
    for _ in range(STARTS + 1):
        t0 = time.perf_counter()
        p = PlayerProcess(ruleset.shim, folder, Limits(), name="bench", prefork=pool)
        assert p.start().ok, p.close().output
        walls.append(time.perf_counter() - t0)
        assert pool is None or p.started_by == "prefork", pool.last_error
        cpus.append(p.close().cpu_s)
    return (round(statistics.median(walls[1:]) * 1000, 1), round(statistics.median(cpus[1:]) * 1000, 1))


def run():
    rows = []
    with prefork.PreforkPool() as pool:
        for name in rulesets.names():
            ruleset = rulesets.load(name)
            folder = str(next(iter(ruleset.players.values())))
            spawned, forked = _start_ms(ruleset, folder, None), _start_ms(ruleset, folder, pool)
            rows.append({"ruleset": name, "spawned ms": spawned[0], "spawned CPU ms": spawned[1],
                         "pre-forked ms": forked[0], "pre-forked CPU ms": forked[1]})
    return f"Player start per game's shim (medians of {STARTS} starts)", rows


if __name__ == "__main__":
    title, rows = run()
    print(title)
    for row in rows:
        print(row)
