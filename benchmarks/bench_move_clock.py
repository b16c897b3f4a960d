"""The move clock on a loaded machine: 16 CPU-bound processes on the machine's cores.

Each call is charged the player's own time (real time less what it waited for a CPU, and its own
`time()` stops while it waits: sandbox/limits.py, sandbox/own_clock.py). Measured, idle and
loaded, on one pre-forked player pinned to the first core (as the league pins its players):

- honest players at 90 % of the limit (CPU-bound, and sleeping): every LATE or KILLED is false;
  beside each, what a real-time wall clock would have said about the same calls;
- the McGill agents' loop, which searches until `time() - start >= limit`: late on an idle machine
  by its last step's overshoot, and it must be called late under load just the same; beside it,
  the CPU it used (with real clocks in the player it got a fraction of a core for the same real
  time, and the CPU clock never called it late: see docs/BENCHMARKS.md);
- the CPU clock's wall-clock backstop (limit × 3 + 1 s) for the CPU-bound honest player; beside
  it, how many calls a real-time backstop would have killed.
"""
from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from sandbox import Limits, PlayerProcess, prefork

SHIM = "sandbox.module_shim"
HOGS = 16
LIMIT_S = 0.3
CALLS = 6
PLAYER = """
import time

def burn(s):
    t = time.thread_time()
    while time.thread_time() - t < s:
        pass

def sleep(s):
    time.sleep(s)

def search_until(s):
    start, nodes = time.time(), 0
    while time.time() - start < s:
        for _ in range(2000):
            nodes += 1
    return nodes
"""


@contextmanager
def hogs(n: int):
    """n processes that burn CPU until the block ends (each in its own session, killed by pid)."""
    procs = [subprocess.Popen(["sh", "-c", "while :; do :; done"], start_new_session=True) for _ in range(n)]
    try:
        time.sleep(0.5)
        yield
    finally:
        for p in procs:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def calls(pool, folder: Path, limits: Limits, method: str) -> list:
    with PlayerProcess(SHIM, folder, limits, prefork=pool) as p:
        assert p.start().ok
        return [p.call(method, {"s": LIMIT_S if method == "search_until" else 0.9 * LIMIT_S}) for _ in range(CALLS)]


def run():
    core = sorted(os.sched_getaffinity(0))[0]
    wall = Limits(clock="wall", call_s=LIMIT_S, kill_after_s=30.0, cpu=core)
    cpu = Limits(clock="cpu", call_s=LIMIT_S, kill_after_s=0.0, kill_factor=2.0, cpu=core)   # backstop 1.9 s
    backstop = cpu.budget(LIMIT_S).wall
    rows = []
    with tempfile.TemporaryDirectory() as tmp, prefork.PreforkPool() as pool:
        folder = Path(tmp) / "player"
        folder.mkdir()
        (folder / "player.py").write_text(PLAYER)
        for n in (0, HOGS):
            with hogs(n):
                block = []
                for who, limits, method in (("honest, CPU-bound, 90 %", wall, "burn"),
                                            ("honest, sleeping, 90 %", wall, "sleep"),
                                            ("loops until time() + limit", wall, "search_until"),
                                            ("honest, CPU-bound, 90 % (CPU clock)", cpu, "burn")):
                    rs = calls(pool, folder, limits, method)
                    bad = sum(not r.ok for r in rs)
                    if limits.clock == "cpu":
                        old = f"{sum(r.wall_s >= backstop for r in rs)} killed by a real-time backstop"
                    elif method == "search_until":         # what it used is its own business now
                        old = f"CPU {sorted(r.cpu_s for r in rs)[len(rs) // 2]:.3f} s (median)"
                    else:
                        old = f"{sum(r.wall_s > LIMIT_S for r in rs)} late on real time"
                    block.append({
                        "load": f"{'no hogs' if not n else f'{n} hogs'}", "player": who,
                        "verdicts": f"{bad} of {len(rs)} " + ("late or killed" if method != "search_until" else "late"),
                        "charged (median)": f"{sorted(r.own_s for r in rs)[len(rs) // 2]:.3f} s of {LIMIT_S} s",
                        "real time (median)": f"{sorted(r.wall_s for r in rs)[len(rs) // 2]:.2f} s",
                        "before": old})
                load = os.getloadavg()[0]                  # the 1-minute average, at the block's end
                rows += [{**row, "load": f"{row['load']}, load {load:.0f}"} for row in block]
    return f"Move clock under load (limit {LIMIT_S} s, one pinned player, pre-forked)", rows
