"""Shared builders for the scale tests: a small deterministic colosseum league and a 2-worker cluster.

Every process started here (players, Dask workers) stages submissions under one temporary
GRADER_STAGE_DIR, so the tests can find their own player processes among everyone else's.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import psutil
import pytest
import yaml

from grader.assignment import load_assignments

ROOT = Path(__file__).resolve().parents[2]
BASELINE = ROOT / "submissions" / "colosseum" / "baseline_student"
# deterministic players only (no randomness, no clock): the same league gives the same games anywhere
ENTRANTS = ("baseline_student", "baseline_copy", "baseline_again")


def make_league(folder: Path, **league) -> Path:
    """Three copies of baseline_student with distinct content, plus the `baseline` built-in."""
    subs = folder / "subs"
    for i, name in enumerate(ENTRANTS):
        shutil.copytree(BASELINE, subs / name)
        with open(subs / name / "student_agent.py", "a", encoding="utf-8") as f:
            f.write(f"\n# copy {i}\n")
    block = {"ruleset": "colosseum", "submissions": "subs", "game": {"board_size": 6},
             "validation": {"smoke_games": 0},
             "league": {"format": "round_robin", "games_per_pair": 4, "seed": 11, "builtins": ["baseline"],
                        "concurrency": 2} | league}
    path = folder / "config.yaml"
    path.write_text(yaml.safe_dump({"assignments": {"arena": block}}), encoding="utf-8")
    return path


def assignment_in(folder: Path, **league):
    return load_assignments(make_league(folder, **league))["arena"]


def live_players(stage_dir: Path) -> list[psutil.Process]:
    """Sandboxed player processes (not zombies) that play submissions staged under stage_dir:
    spawned or forked from a template, a player's working folder is its staged submission
    (seen from here beneath its private root's mount point when it has one)."""
    from sandbox import box
    out = []
    for proc in psutil.process_iter(["status"]):
        try:
            cwd = proc.cwd()
        except (psutil.Error, OSError):
            continue
        cwd = cwd.removeprefix(str(box.RUN_DIR / box.ROOT_NAME))
        if cwd.startswith(str(stage_dir)) and proc.info["status"] != psutil.STATUS_ZOMBIE:
            out.append(proc)
    return out


@pytest.fixture(scope="session")
def stage_dir(tmp_path_factory) -> Path:
    """One staging folder for this session's players and workers (set before any worker starts)."""
    path = tmp_path_factory.mktemp("stage")
    old = os.environ.get("GRADER_STAGE_DIR")
    os.environ["GRADER_STAGE_DIR"] = str(path)
    yield path
    if old is None:
        os.environ.pop("GRADER_STAGE_DIR", None)
    else:
        os.environ["GRADER_STAGE_DIR"] = old


@pytest.fixture(scope="session")
def dask_executor(stage_dir):
    """A LocalCluster with 2 worker processes (nannies restart a killed one); small batches."""
    pytest.importorskip("distributed")
    from grader.dask_executor import DaskExecutor

    executor = DaskExecutor(cluster="local", workers=2, batch=2)
    yield executor
    executor.close()


@pytest.fixture(name="assignment_in", scope="session")
def assignment_in_fixture():
    return assignment_in


@pytest.fixture(name="live_players")
def live_players_fixture(stage_dir):
    return lambda: live_players(stage_dir)
