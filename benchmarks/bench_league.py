"""How the league scales: games per second on 1 core and on all cores, a league of 50 submissions on
the local executor and on a 2-worker Dask LocalCluster, and an incremental re-run after one
submission changed, as a share of the full run.

The 50 submissions are copies of the course's random Colosseum agent, each with its own comment
line (so its own content hash), in a temporary folder; the league is a gauntlet against the
`random` built-in (100 games), so it measures the harness, not 1225 pairings.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

from benchmarks.bench_harness import colosseum, random_jobs
from grader.executors import LocalExecutor, _usable_cpus
from grader.league import LeagueRun, run_league, validate_all
from grader.store import Store
from grader.submissions import discover

SUBMISSIONS = 50
GAMES_PER_CORE = 12


def _games_per_second(assignment, workers: int) -> float:
    jobs = random_jobs(assignment, GAMES_PER_CORE * workers)
    executor = LocalExecutor(workers)
    t0 = time.perf_counter()
    try:
        for _ in executor.play(assignment, jobs):
            pass
    finally:
        executor.close()
    return len(jobs) / (time.perf_counter() - t0)


def random_class(folder: Path, students: int = SUBMISSIONS) -> None:
    """`students` copies of the course's random Colosseum agent, each file a little different."""
    source = Path(__file__).resolve().parent.parent / "rulesets" / "colosseum" / "players" / "random"
    for i in range(students):
        shutil.copytree(source, folder / f"student{i:02d}")
        with open(folder / f"student{i:02d}" / "student_agent.py", "a", encoding="utf-8") as f:
            f.write(f"\n# student {i}\n")


def _league(base: Path, store: str, **league):
    return colosseum(base, submissions="subs", store=store, game={"board_size": 6},
                     validation={"smoke_games": 0},
                     league={"format": "gauntlet", "gauntlet": ["random"], "games_per_pair": 2, "seed": 1,
                             "concurrency": len(_usable_cpus())} | league)


def _timed_league(assignment, executor=None) -> tuple[float, LeagueRun]:
    t0 = time.perf_counter()
    run = run_league(assignment, executor=executor, progress=False)
    return time.perf_counter() - t0, run


def run():
    cores = len(_usable_cpus())
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        os.environ["GRADER_STAGE_DIR"] = str(base / "staged")   # 50 staged copies go away with tmp
        one, all_cores = (_games_per_second(colosseum(base, game={"board_size": 8}), n) for n in (1, cores))
        rows.append({"measure": "games/s, random v random 8x8", "figure": f"{all_cores:.2f} on {cores} cores",
                     "compared with": f"{one:.2f} on 1 core", "ratio": f"{all_cores / one:.2f}x"})

        random_class(base / "subs")
        local = _league(base, "local.sqlite")
        t0 = time.perf_counter()
        with Store(local.store_path) as store:         # validation is the same for both executors
            subs = discover(local.submissions_dir, local.ruleset.entry, local.max_submission_mb)
            validate_all(local, subs, store)
        validation_s = time.perf_counter() - t0
        shutil.copy(local.store_path, base / "dask.sqlite")
        local_s, local_run = _timed_league(local)
        rows.append(_dask_row(base, local_s, local_run, cores))

        full_s = validation_s + local_s
        with open(base / "subs" / "student07" / "student_agent.py", "a", encoding="utf-8") as f:
            f.write("# re-uploaded\n")
        again_s, again = _timed_league(local)
        rows.append({"measure": f"re-run after 1 of {SUBMISSIONS} changed", "figure": f"{again_s:.1f} s",
                     "compared with": f"{full_s:.1f} s full run ({validation_s:.1f} s validating "
                                      f"{SUBMISSIONS})", "ratio": f"{100 * again_s / full_s:.0f}% "
                                      f"({again.summary_line()})"})
        os.environ.pop("GRADER_STAGE_DIR")
    return f"League scaling ({cores} cores, load average {os.getloadavg()[0]:.1f} at the end)", rows


def _dask_row(base: Path, local_s: float, local_run, cores: int) -> dict:
    try:
        from grader.dask_executor import DaskExecutor
    except ImportError as exc:
        return {"measure": "Dask LocalCluster", "figure": "not installed", "compared with": str(exc), "ratio": "-"}
    t0 = time.perf_counter()
    executor = DaskExecutor(cluster="local", workers=2)
    start_s = time.perf_counter() - t0
    try:
        dask_s, dask_run = _timed_league(_league(base, "dask.sqlite", executor="dask"), executor)
    finally:
        executor.close()
    return {"measure": f"league of {SUBMISSIONS} ({local_run.played} games, gauntlet)",
            "figure": f"{dask_s:.1f} s on a 2-worker LocalCluster (+{start_s:.1f} s to start it)",
            "compared with": f"{local_s:.1f} s on the local executor ({cores} processes)",
            "ratio": f"{dask_s / local_s:.2f}x the time ({dask_run.played} games played)"}
