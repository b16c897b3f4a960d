"""Where a `grader check`'s CPU goes, per game (issue 40.7): the grader's own process against the
players', process starts, the pre-fork templates (their imports, the course environment's), calls.

Each game is checked in a fresh interpreter (`python -m benchmarks.bench_check_cost GAME`), so
its templates start and its imports load as in a student's own `grader check`. The players' CPU
is what each process's rusage says at its close; the templates' is what is left of the reaped
children's once theirs is taken out. Figures are one run's: compare within a run.
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

_BEFORE = resource.getrusage(resource.RUSAGE_SELF)
import sandbox  # noqa: E402  (after the clock reading: what a check's imports cost is measured)
from grader.assignment import load_assignments  # noqa: E402
from grader.match import player_factory  # noqa: E402
from grader.submissions import load  # noqa: E402
from grader.validation import validate  # noqa: E402
from sandbox.prefork import shared_pool  # noqa: E402

_AFTER = resource.getrusage(resource.RUSAGE_SELF)
IMPORTS_CPU = (_AFTER.ru_utime + _AFTER.ru_stime) - (_BEFORE.ru_utime + _BEFORE.ru_stime)

ROOT = Path(__file__).resolve().parents[1]
CORRECT = {
    "quoridor": "alice",
    "colosseum": "baseline_student",
    "bohnenspiel": "greedy_student",
    "doublecard": "baseline_student",
    "rbnim": "correct_module",
}
SEED = 1


def _cpu(who: int) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


class _Counted:
    """A player factory that counts starts and calls and sums each closed player's CPU, per stage."""

    def __init__(self, factory, student: str) -> None:
        self.factory, self.student = factory, student
        self.stage = "start-up"
        self.by_stage: dict[str, dict[str, float]] = {}

    def row(self) -> dict[str, float]:
        return self.by_stage.setdefault(self.stage, {"starts": 0, "calls": 0, "student cpu": 0.0,
                                                     "opponent cpu": 0.0, "grader cpu": 0.0})

    def __call__(self, **kw):
        proc = self.factory(**kw)
        row = self.row()
        own = str(kw.get("submission", "")) == self.student

        class Proc:
            def __getattr__(self, name):
                return getattr(proc, name)

            def start(self):
                row["starts"] += 1
                return proc.start()

            def call(self, *a, **k):
                row["calls"] += 1
                return proc.call(*a, **k)

            def close(self):
                first = proc.report is None
                rep = proc.close()
                if first:
                    row["student cpu" if own else "opponent cpu"] += rep.cpu_s
                return rep
        return Proc()


def one(game: str, spawn: bool = False) -> dict:
    """One game's check, measured in this process; `spawn`: every player spawned, none pre-forked."""
    a = load_assignments(ROOT / "config.yaml")[game]
    sub = load(ROOT / "submissions" / game / CORRECT[game], a.ruleset.entry, a.max_submission_mb)
    counted = _Counted(sandbox.PlayerProcess if spawn else player_factory(a), str(sub.staged))
    marks: list[tuple[str, float, float]] = []

    def on_stage(title: str) -> None:
        marks.append((title, time.perf_counter(), _cpu(resource.RUSAGE_SELF)))
        counted.row()["grader cpu"] = 0.0
        counted.stage = title
        counted.row()

    t0, c0 = time.perf_counter(), _cpu(resource.RUSAGE_SELF)
    report = validate(a, sub, factory=counted, seed=SEED, on_stage=on_stage)
    t1, c1 = time.perf_counter(), _cpu(resource.RUSAGE_SELF)
    ends = [(t, c) for _, t, c in marks[1:]] + [(t1, c1)]
    for (title, _, c), (_, ce) in zip(marks, ends):
        counted.by_stage[title]["grader cpu"] = ce - c
    shared_pool().close()
    children = _cpu(resource.RUSAGE_CHILDREN)
    players = sum(r["student cpu"] + r["opponent cpu"] for r in counted.by_stage.values())
    return {"game": game, "passed": report.passed, "imports cpu": IMPORTS_CPU, "validate wall": t1 - t0,
            "grader cpu": c1 - c0, "players cpu": players, "templates+other cpu": children - players,
            "stages": counted.by_stage}


def run() -> tuple[str, list[dict]]:
    rows = []
    for game in CORRECT:
        out = subprocess.run([sys.executable, "-m", "benchmarks.bench_check_cost", game], cwd=ROOT,
                             capture_output=True, text=True, check=True)
        got = json.loads(out.stdout.strip().splitlines()[-1])
        starts = sum(int(s["starts"]) for s in got["stages"].values())
        calls = sum(int(s["calls"]) for s in got["stages"].values())
        slow = max(got["stages"].items(), key=lambda kv: kv[1]["student cpu"] + kv[1]["grader cpu"])
        rows.append({"game": game, "passed": got["passed"], "imports": f"{got['imports cpu']:.2f}",
                     "grader": f"{got['grader cpu']:.2f}", "players": f"{got['players cpu']:.2f}",
                     "templates+other": f"{got['templates+other cpu']:.2f}", "starts": starts,
                     "calls": calls, "costliest stage": f"{slow[0][:22]} ({slow[1]['student cpu']:.2f}"
                     f" + {slow[1]['grader cpu']:.2f} s, {int(slow[1]['starts'])} starts)",
                     "load": f"{os.getloadavg()[0]:.1f}"})
    return "CPU seconds of a check of each game's correct bundled submission", rows


if __name__ == "__main__":
    if len(sys.argv) > 1:
        print(json.dumps(one(sys.argv[1], spawn="--spawn" in sys.argv)))
    else:
        print(json.dumps(run(), indent=1))
