"""A league on a Dask LocalCluster (2 worker processes) against the local executor, and a worker
killed mid-league (a Dask worker, a pool worker): same standings and games, none lost or doubled,
the lost games retried as infra failures, no player process left behind.
"""
from __future__ import annotations

import os
import re
import signal
import sqlite3
import sys
import time
from pathlib import Path

import psutil
import pytest

from grader.executors import Executor, LocalExecutor
from grader.league import run_league

ROOT = Path(__file__).resolve().parents[2]


def games_of(assignment) -> dict[str, tuple]:
    """Every stored row by key, with what decides a game: status, points, reason and moves."""
    with sqlite3.connect(assignment.store_path) as db:
        rows = db.execute("SELECT key, status, points0, points1, reason, moves_json FROM games").fetchall()
    assert len(rows) == len({r[0] for r in rows}), "a game was stored twice"
    return {r[0]: r[1:] for r in rows}


def table(run) -> list[tuple]:
    return [(r.id, r.rank, r.points, r.wins, r.losses, r.draws) for r in run.standings.rows]


@pytest.fixture(scope="module")
def reference(tmp_path_factory, assignment_in):
    """The league on the local executor (a pool of 2 processes): what every other run must match."""
    assignment = assignment_in(tmp_path_factory.mktemp("local"))
    executor = LocalExecutor(2)
    try:
        run = run_league(assignment, executor=executor, progress=False)
    finally:
        executor.close()
    games = games_of(assignment)
    assert run.played == len(games) == 6 * 4 and run.infra_failed == 0
    assert len(run.standings.rows) == 4
    assert all(g[0] == "done" and g[3] not in ("infra", "start_failed") for g in games.values())
    return table(run), games


def test_dask_league_matches_the_local_executor(tmp_path, reference, dask_executor, assignment_in):
    assignment = assignment_in(tmp_path, executor="dask")
    run = run_league(assignment, executor=dask_executor, progress=False)
    standings, games = reference
    assert run.infra_failed == 0 and run.played == len(games)
    assert games_of(assignment) == games          # same keys, same points, reasons and moves
    assert table(run) == standings


class KillOneWorker(Executor):
    """Passes games through; after the first result, SIGKILLs a worker while one of its players is
    frozen between calls (a frozen player never notices that its worker is gone)."""

    def __init__(self, inner, worker_pids):
        self.inner, self.worker_pids, self.infra, self.killed_pid = inner, worker_pids, 0, None

    def play(self, assignment, jobs, factory=None, skip=None):
        for key, spec, result in self.inner.play(assignment, jobs, factory=factory, skip=skip):
            if result.infra_error:
                self.infra += 1
            elif self.killed_pid is None:
                self.killed_pid = self.kill_a_busy_worker()
            yield key, spec, result

    def kill_a_busy_worker(self) -> int:
        pids = self.worker_pids()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            for pid in pids:
                if has_a_frozen_child(pid):
                    os.kill(pid, signal.SIGKILL)
                    return pid
            time.sleep(0.01)
        raise AssertionError("no worker had a frozen player")


def has_a_frozen_child(pid: int) -> bool:
    """Whether a descendant of pid is stopped (a frozen player)."""
    try:
        return any(status_of(c) == psutil.STATUS_STOPPED for c in psutil.Process(pid).children(recursive=True))
    except psutil.NoSuchProcess:
        return False


def status_of(process: psutil.Process) -> str:
    """Its status, or "gone": players end between being listed and being read (a game finishes)."""
    try:
        return process.status()
    except psutil.NoSuchProcess:
        return "gone"


def test_a_killed_worker_loses_no_game_and_leaves_no_player(tmp_path, reference, dask_executor, assignment_in,
                                                             live_players):
    assignment = assignment_in(tmp_path, executor="dask")
    killer = KillOneWorker(dask_executor, lambda: list(dask_executor.client.run(os.getpid).values()))
    run = run_league(assignment, executor=killer, progress=False)
    assert_recovered(run, killer, assignment, reference, live_players)


def test_a_killed_pool_worker_is_replaced_and_its_games_replayed(tmp_path, reference, assignment_in, live_players):
    assignment = assignment_in(tmp_path)
    executor = LocalExecutor(2)
    killer = KillOneWorker(executor, lambda: list(executor.pool._processes))
    try:
        run = run_league(assignment, executor=killer, progress=False)
    finally:
        executor.close()
    assert_recovered(run, killer, assignment, reference, live_players)


def assert_recovered(run, killer, assignment, reference, live_players) -> None:
    standings, games = reference

    assert killer.killed_pid is not None and not psutil.pid_exists(killer.killed_pid)
    assert killer.infra > 0                        # the lost games came back as infra results ...
    assert run.infra_failed == 0                   # ... and were all replayed, none given up on
    assert run.played == len(games)                # each game counted once
    assert games_of(assignment) == games           # none lost, none doubled, none scored as infra
    assert table(run) == standings
    assert live_players() == []                    # the dead worker's (frozen) players were killed


@pytest.mark.parametrize("settings, sentence", [
    ({"cluster": "local", "wokers": 2}, "unknown setting(s) wokers"),
    ({"cluster": "kubernetes"}, "league.dask.cluster is 'kubernetes'"),
])
def test_a_wrong_dask_setting_is_one_sentence(tmp_path, assignment_in, settings, sentence):
    from grader.config import ConfigError
    from grader.executor_choice import make_executor

    assignment = assignment_in(tmp_path, executor="dask", dask=settings)
    with pytest.raises(ConfigError, match=re.escape(sentence)):
        make_executor(assignment)


MANAGER = """
import sys
from grader.assignment import load_assignments
from grader.executor_choice import make_executor
from grader.league import run_league

assignment = load_assignments(sys.argv[1])["arena"]
run_league(assignment, executor=make_executor(assignment), progress=False)
"""


@pytest.mark.parametrize("executor", ["local", "dask"])
def test_a_killed_manager_leaves_no_worker_template_or_player(tmp_path, stage_dir, live_players, executor):
    """kill -9 of `grader run`'s process mid-league: its pool or Dask workers, their templates, the
    resource tracker and every player (frozen ones too) end with it."""
    if executor == "dask":
        pytest.importorskip("distributed")
    from tests.scale.conftest import make_league

    league = {"executor": "dask", "dask": {"cluster": "local", "workers": 2}} if executor == "dask" else {}
    config = make_league(tmp_path, **league)
    manager = psutil.Popen([sys.executable, "-c", MANAGER, str(config)], cwd=ROOT)
    try:
        deadline = time.monotonic() + 120
        left: list[psutil.Process] = []
        while time.monotonic() < deadline:
            left = manager.children(recursive=True)
            if any(status_of(p) == psutil.STATUS_STOPPED for p in left):
                break
            time.sleep(0.02)
        else:
            raise AssertionError("no player was ever frozen")
        manager.kill()
        manager.wait(10)
        _, alive = psutil.wait_procs(left, timeout=30)
        alive = [p for p in alive if status_of(p) not in ("gone", psutil.STATUS_ZOMBIE)]
        assert alive == [], [(p.pid, p.name(), p.cmdline()[:4]) for p in alive]
        assert live_players() == []
    finally:
        if manager.is_running():
            manager.kill()
