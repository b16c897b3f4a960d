"""The harness's own cost per game and per move, and fairness under full load.

1. The same games (Colosseum 8x8, the random built-in against itself) played through the sandbox
   and in-process without one: the ratio is the cost of safety, per game (which includes starting
   two players) and per move (the call round trip).
2. Fairness: the same games, both players spending 90% of their 0.25 s move budget as CPU time,
   (i) one game per core on an otherwise idle machine, (ii) the same with a CPU hog pinned to
   every core, (iii) two games per core; each with move limits on the player's CPU time (the
   default) and on wall-clock time (`limits.clock: wall`). Every timeout there is a false timeout
   (the player stayed inside its budget): with CPU-time limits the count must be zero in all three.
"""
from __future__ import annotations

import logging
import os
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from grader.assignment import resolve
from grader.config import AssignmentConfig
from grader.executors import LocalExecutor, _usable_cpus
from grader.match import play_game
from grader.schedule import GameSpec
from grader.submissions import builtin, load

ROOT = Path(__file__).resolve().parent.parent
GAMES = 6
TIMEOUTS = ("timeout", "killed")                  # incident kinds of a late or a killed move


def colosseum(base: Path = ROOT, **config):
    """A Colosseum assignment built in code (no config file); paths are relative to base."""
    return resolve("bench", AssignmentConfig(ruleset="colosseum", submissions=config.pop("submissions", "."),
                                             **config), base)


def random_jobs(assignment, n: int, sub=None) -> list[tuple]:
    """n executor jobs, sub (default: the random built-in) against itself on seeds 0..n-1."""
    sub = sub or builtin(assignment.ruleset, "random")
    return [(str(i), GameSpec("bench", sub.id, sub.id, i, 0, "bench"), sub, sub) for i in range(n)]


def _in_process(shim, submission, limits=None, options=None, name="player", seed=None):
    from sandbox import InProcessPlayer
    return InProcessPlayer(shim, submission, options=options, name=name, seed=seed)


def _games(assignment, factory) -> tuple[float, float]:
    """(median seconds per game, mean milliseconds per move round trip)."""
    sub = builtin(assignment.ruleset, "random")
    per_game, per_move = [], []
    for seed in range(GAMES):
        t0 = time.perf_counter()
        result = play_game(assignment, sub, sub, seed, factory=factory)
        if result.infra_error:
            raise RuntimeError(f"the benchmark game could not be played: {result.infra_error}")
        per_game.append(time.perf_counter() - t0)
        per_move += [wall for wall, _cpu in result.times]
    return statistics.median(per_game), 1000 * statistics.mean(per_move)


def _course_simulator(games: int) -> float:
    """Mean seconds of one game of the course's own simulator (rulesets/colosseum/course, its
    random_agent against itself on 8x8, in one process, as students run it), NumPy seeded per game.
    The mean: its games are not the sandboxed ones, and their lengths vary widely (1-80 ms)."""
    course = str(ROOT / "rulesets" / "colosseum" / "course")
    sys.path.insert(0, course)
    try:
        # the course's module, found on its own folder only (put on sys.path just above)
        import simulator
        logging.disable(logging.CRITICAL)
        sim = simulator.Simulator(simulator.get_args(["--board_size", "8"]))
        times = []
        for seed in range(games):
            np.random.seed(seed)
            t0 = time.perf_counter()
            sim.run()
            times.append(time.perf_counter() - t0)
    finally:
        logging.disable(logging.NOTSET)
        sys.path.remove(course)
    return statistics.mean(times)


def _load(assignment, sub, workers: int, games: int) -> dict:
    jobs = random_jobs(assignment, games, sub)
    executor = LocalExecutor(workers)
    t0 = time.perf_counter()
    late = moves = killed = unstarted = 0
    try:
        for _key, _spec, result in executor.play(assignment, jobs):
            moves += len(result.moves)
            kinds = [i["kind"] for p in result.players for i in p.incidents]
            late += sum(kind in TIMEOUTS for kind in kinds)
            killed += kinds.count("killed")                # a killed call played no move
            unstarted += result.reason == "start_failed"
    finally:
        executor.close()
    return {"games": len(jobs), "moves": moves, "late": late, "asked": moves + killed, "unstarted": unstarted,
            "wall_s": time.perf_counter() - t0}


def run():
    rows = []
    assignment = colosseum(game={"board_size": 8})                  # players forked from a template
    game_s, move_ms = _games(assignment, None)
    spawned_s, _spawned_ms = _games(colosseum(game={"board_size": 8}, league={"prefork": False}), None)
    plain_game_s, plain_move_ms = _games(assignment, _in_process)
    course_s = _course_simulator(5 * GAMES)
    rows.append({"measure": "one game, random v random 8x8", "figure": f"{game_s:.3f} s through the sandbox (pre-forked)",
                 "compared with": f"{plain_game_s:.4f} s in-process", "ratio": f"{game_s / plain_game_s:.0f}x"})
    rows.append({"measure": "the same game, pre-forked, against the course's own simulator",
                 "figure": f"{game_s:.3f} s through the sandbox",
                 "compared with": f"{course_s:.4f} s simulator.py (mean of {5 * GAMES} other games)",
                 "ratio": f"{game_s / course_s:.1f}x"})
    rows.append({"measure": "the same game, players spawned (league.prefork: false)",
                 "figure": f"{spawned_s:.3f} s", "compared with": f"{game_s:.3f} s pre-forked",
                 "ratio": f"{spawned_s / game_s:.1f}x"})
    rows.append({"measure": "one move (call round trip)", "figure": f"{move_ms:.2f} ms through the sandbox",
                 "compared with": f"{plain_move_ms:.3f} ms in-process", "ratio": f"{move_ms / plain_move_ms:.0f}x"})

    cores = len(_usable_cpus())
    for clock in ("cpu", "wall"):
        burner = colosseum(game={"board_size": 8}, limits={"move_s": 0.25, "first_move_s": 0.25, "kill_factor": 4.0,
                                                           "clock": clock})
        sub = load(ROOT / "benchmarks" / "players" / "colosseum_burner", burner.ruleset.entry, 10)
        for label, workers, hogs in (("no load of ours, one game per core", cores, False),
                                     ("a CPU hog on every core, one game per core", cores, True),
                                     ("two games per core", 2 * cores, False)):
            with cpu_hogs(_usable_cpus() if hogs else []):
                r = _load(burner, sub, workers, 6 * cores)     # the same games every time
            lost = f", {r['unstarted']} games lost before a move" if r["unstarted"] else ""
            rows.append({"measure": f"{clock} clock: {label} ({workers} games at once), players at 90% of 0.25 s",
                         "figure": f"{r['late']} false timeouts in {r['asked']} calls{lost}",
                         "compared with": f"{r['games']} games in {r['wall_s']:.1f} s",
                         "ratio": f"{r['late'] / max(r['asked'], 1):.1%} of calls timed out"})
    return f"Harness cost and fairness ({cores} cores, load average {os.getloadavg()[0]:.1f} at the end)", rows


@contextmanager
def cpu_hogs(cpus: list[int]):
    """A busy loop pinned to each of `cpus` while the block runs: other work on a shared machine."""
    code = "import os, sys\nos.sched_setaffinity(0, {int(sys.argv[1])})\nwhile True:\n    pass\n"
    hogs = [subprocess.Popen([sys.executable, "-c", code, str(cpu)]) for cpu in cpus]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
