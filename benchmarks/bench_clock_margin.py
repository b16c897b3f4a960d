"""The clock's last milliseconds: a player that stops at 97 % of its limit by its own clock must
never be late, one that stops at 103 % always, at any load (issue 40).

The player spins until its own `perf_counter` (which leaves out its wait for a CPU,
sandbox/own_clock.py) says the fraction of the limit is up, and answers what it read. Measured on
the wall clock (the McGill courses' clock) at limits of 150 ms (Isolation) and 2 s (Colosseum),
in both start modes, with 0, 10 and 20 CPU hogs each in its own session (setsid), on a player
the sandbox pins to one CPU itself. "over own" is what the grader charged beyond what the player's
own clock read: the shim's work, and whatever of the machine's time the clock failed to leave out.

Moves per row: BENCH_CLOCK_MOVES (default 100) at 150 ms and a tenth of it at 2 s, for each of
97 % and 103 %; the issue's goal is 1,000 at each limit. BENCH_CLOCK_MODES ("spawn,prefork")
picks the start modes, so the two can run as two processes. Each row is also printed as it ends.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from benchmarks.bench_move_clock import hogs
from sandbox import Limits, PlayerProcess, Verdict, prefork

SHIM = "sandbox.module_shim"
PLAYER = """
import time

def move(s):
    t = time.perf_counter()
    while time.perf_counter() - t < s:
        pass
    return time.perf_counter() - t
"""
LIMITS_S = (0.15, 2.0)
LOADS = (0, 10, 20)
FRACTIONS = (0.97, 1.03)


def moves_at(limit: float) -> int:
    n = int(os.environ.get("BENCH_CLOCK_MOVES", "100"))
    return n if limit < 1 else max(2, n // 10)


def play(folder: Path, pool: prefork.PreforkPool | None, limit: float, fraction: float, n: int) -> dict:
    """`n` moves of one player answering at `fraction` of `limit` by its own clock."""
    limits = Limits(clock="wall", call_s=limit, kill_after_s=10.0, start_s=60.0)
    late = 0
    over: list[float] = []
    with PlayerProcess(SHIM, folder, limits, prefork=pool) as p:
        started = p.start()
        if not started.ok:
            return {"late": f"did not start: {started.message}"}
        for _ in range(n):
            r = p.call("move", {"s": fraction * limit})
            late += r.verdict is not Verdict.OK
            if r.verdict.answered and isinstance(r.value, float):
                over.append(r.own_s - r.value)
    over.sort()
    return {"late": f"{late} of {n}",
            "over own, median / max": (f"{over[len(over) // 2] * 1e3:.2f} / {over[-1] * 1e3:.2f} ms"
                                       if over else "-")}


def run():
    rows = []
    with tempfile.TemporaryDirectory() as tmp, prefork.PreforkPool() as pool:
        folder = Path(tmp) / "player"
        folder.mkdir()
        (folder / "player.py").write_text(PLAYER)
        for mode in os.environ.get("BENCH_CLOCK_MODES", "spawn,prefork").split(","):
            for load in LOADS:
                with hogs(load):
                    for limit in LIMITS_S:
                        for fraction in FRACTIONS:
                            got = play(folder, pool if mode == "prefork" else None, limit, fraction,
                                       moves_at(limit))
                            rows.append({"start": mode, "hogs": load, "limit": f"{limit:g} s",
                                         "answers at": f"{fraction:.0%}", **got,
                                         "load avg": f"{os.getloadavg()[0]:.0f}"})
                            print(" | ".join(str(v) for v in rows[-1].values()), flush=True)
    return "The clock's last milliseconds (wall clock, own-clock answers at 97 % and 103 %)", rows
