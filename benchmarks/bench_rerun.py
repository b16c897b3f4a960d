"""A re-run after one changed submission, measured end to end: the real `grader run` use case
(`usecases.grade_league`: validation, games, grades, results.json, both sites, the similarity
report with its collusion check) on a class of real sandboxed players, once in full, then again
after one student's code changed.

The class: 16 copies of the course's random Colosseum agent (6x6), each with its own comment line
(its own content hash), a round robin of 2 games a pair. Each phase is timed by wrapping the
use case's own steps (nothing is modelled); the target (issue 31) is a re-run costing no more than
its share of the games plus 10 % of the full run.
"""
from __future__ import annotations

import os
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from benchmarks.bench_harness import colosseum
from benchmarks.bench_league import random_class
from grader import outputs, usecases
from grader.config import SimilarityConfig
from grader.executors import _usable_cpus

STUDENTS = 16
PHASES = {"games (validation, league, collusion replays)": [(usecases, "run_league")],
          "grades": [(usecases, "grades_of_run")],
          "results document + results.json + grades.csv": [(usecases, "results_document"), (outputs, "write_results"),
                                                           (outputs, "write_plain_grades_csv")],
          "sites": [(outputs, "write_sites")],
          "similarity report + collusion check": [(usecases, "run_similarity")]}


def _timed_run(assignment) -> tuple[float, dict[str, float], int]:
    """One `grader run` of the assignment: wall seconds in all, per phase, games played."""
    spent: dict[str, float] = defaultdict(float)
    originals = [(phase, module, name, getattr(module, name)) for phase, steps in PHASES.items()
                 for module, name in steps]

    def timed(phase: str, fn):
        def wrapper(*args, **kwargs):
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[phase] += time.perf_counter() - t0
        return wrapper

    for phase, module, name, fn in originals:
        setattr(module, name, timed(phase, fn))
    try:
        t0 = time.perf_counter()
        outcome = usecases.grade_league(assignment)
        total = time.perf_counter() - t0
    finally:
        for _, module, name, fn in originals:
            setattr(module, name, fn)
    return total, dict(spent), outcome.run.played


def run():
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        os.environ["GRADER_STAGE_DIR"] = str(base / "staged")
        random_class(base / "subs", STUDENTS)
        assignment = colosseum(base, submissions="subs", store="league.sqlite", reports="reports",
                               game={"board_size": 6}, validation={"smoke_games": 0},
                               similarity=SimilarityConfig(),
                               league={"format": "round_robin", "games_per_pair": 2, "seed": 1,
                                       "concurrency": len(_usable_cpus())})
        full_s, full, full_games = _timed_run(assignment)
        with open(base / "subs" / "student07" / "student_agent.py", "a", encoding="utf-8") as f:
            f.write("# re-uploaded\n")
        again_s, again, again_games = _timed_run(assignment)
        os.environ.pop("GRADER_STAGE_DIR")
    share = again_games / full_games if full_games else 0.0       # the games the change replayed
    for phase in PHASES:
        a, b = full.get(phase, 0.0), again.get(phase, 0.0)
        rows.append({"phase": phase, "full run s": f"{a:.1f}", "re-run s": f"{b:.1f}",
                     "re-run / full": f"{b / a:.0%}" if a else "-"})
    rows.append({"phase": "in all (wall)", "full run s": f"{full_s:.1f} ({full_games} games)",
                 "re-run s": f"{again_s:.1f} ({again_games} games replayed)",
                 "re-run / full": f"{again_s / full_s:.0%} against a target of {share + 0.10:.0%} "
                                  f"(share of games {share:.1%} + 10 %)"})
    return f"A re-run after 1 of {STUDENTS} submissions changed, end to end (grader run)", rows


if __name__ == "__main__":
    title, table = run()
    print(title)
    for row in table:
        print(row)
