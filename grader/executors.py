"""Where games run: inline, a local pool of processes (one game per core), or a Dask cluster.

An executor takes jobs `(key, spec, sub0, sub1)` and yields `(key, spec, GameResult)` as games
finish. The manager stays the only writer of the store; executors only play. A worker that dies
is the grader's failure: its games come back as `infra_error` results (the league retries them,
never scores them) and the players it had started are killed by `reap_orphaned_players`.
"""
from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from .assignment import Assignment
from .match import GameResult, play_game, player_factory

_worker_cpu: int | None = None


def _init_worker(counter, ncpu: int, manager: int) -> None:
    """Give each pool worker its own core; both players of its games are pinned there. The worker
    dies with the manager (and its templates and players with it: sandbox/zygote.py)."""
    global _worker_cpu
    _die_with(manager)
    with counter.get_lock():
        _worker_cpu = counter.value % ncpu
        counter.value += 1


def _die_with(manager: int) -> None:
    """SIGKILL this process when its parent ends (Linux); exit now if that has already happened."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)          # PR_SET_PDEATHSIG
    if os.getppid() != manager:
        os._exit(1)


def _run_job(assignment: Assignment, sub0, sub1, seed: int, factory) -> GameResult:
    factory = tracked(factory or player_factory(assignment))
    return play_game(assignment, sub0, sub1, seed, factory=factory, cpu=_worker_cpu)


def infra_result(message: str, exc: BaseException) -> GameResult:
    """A game the grader could not play (lost worker, failed task): retried, never scored."""
    return GameResult((0, 0), (0, 0), "infra", f"{message}: {exc}", infra_error=repr(exc))


# ----------------------------------------------------------------- players of a dead worker
# A player is frozen (SIGSTOP) between its calls and lives in its own session, so when the worker
# process that plays its game is killed, nothing else would ever stop it. Each worker notes the
# players it starts in players_dir(); whoever notices a dead worker (the pool's manager, a Dask
# nanny, the Dask manager) kills the players it left behind.

def players_dir() -> Path:
    from .submissions import stage_root

    path = stage_root() / ".players"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _create_time(pid: int) -> float | None:
    import psutil

    try:
        return psutil.Process(pid).create_time()
    except psutil.Error:
        return None


class _TrackedPlayer:
    """A player process whose pid is on file from its start to its close."""

    def __init__(self, player):
        self._player = player
        self._note: Path | None = None

    def start(self):
        try:
            return self._player.start()
        finally:
            proc = getattr(self._player, "proc", None)
            if proc is not None and self._note is None:
                me = os.getpid()
                self._note = players_dir() / f"{me}-{proc.pid}"
                self._note.write_text(json.dumps({"worker": _create_time(me), "player": _create_time(proc.pid)}))

    def close(self):
        try:
            return self._player.close()
        finally:
            if self._note is not None:
                self._note.unlink(missing_ok=True)

    def __getattr__(self, name):
        return getattr(self._player, name)


def tracked(factory):
    """The player factory, with every started player noted so a dead worker's players can be killed."""
    return lambda **kw: _TrackedPlayer(factory(**kw))


def reap_orphaned_players() -> int:
    """Kill the players of workers that are gone (checked by pid and start time); returns how many."""
    killed = 0
    for note in players_dir().glob("*-*"):
        try:
            worker, player = (int(x) for x in note.name.split("-"))
            times = json.loads(note.read_text())
        except (ValueError, OSError):
            continue                                    # being written, or not ours
        started = times.get("worker")
        if not started or _create_time(worker) == started:
            continue                                    # the worker is alive: its players are its own
        if times.get("player") is not None and _create_time(player) == times["player"]:
            import psutil

            try:
                if hasattr(os, "killpg"):
                    os.killpg(player, signal.SIGKILL)   # the player leads its own process group
                else:                                   # Windows (the portable sandbox): no groups
                    psutil.Process(player).kill()
                killed += 1
            except (OSError, psutil.Error):
                pass
        note.unlink(missing_ok=True)
    return killed


def _broke(fut: Future) -> bool:
    return isinstance(fut.exception(), BrokenProcessPool)


def _usable_cpus() -> list[int]:
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:
        return list(range(os.cpu_count() or 1))


class Executor:
    def play(self, assignment: Assignment, jobs: list, factory=None,
             skip: Callable | None = None) -> Iterator[tuple]:
        raise NotImplementedError

    def close(self) -> None:
        pass


class InlineExecutor(Executor):
    """One game at a time in this process (concurrency 1; tests and debugging)."""

    def play(self, assignment, jobs, factory=None, skip=None):
        for key, spec, s0, s1 in jobs:
            if skip and skip(spec):
                continue
            yield key, spec, _run_job(assignment, s0, s1, spec.seed, factory)


class LocalExecutor(Executor):
    """A pool of worker processes, one per core; jobs are fed lazily so skips take effect.

    A worker that dies breaks the whole pool: every game in flight comes back as an infra result,
    the dead worker's players are killed and a fresh pool plays the rest."""

    def __init__(self, workers: int):
        self.workers = workers
        self.pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        ctx = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx, initializer=_init_worker,
                                   initargs=(ctx.Value("i", 0), len(_usable_cpus()), os.getpid()))

    def _renew_broken_pool(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
        reap_orphaned_players()
        self.pool = self._new_pool()

    def play(self, assignment, jobs, factory=None, skip=None):
        queue = list(jobs)
        running: dict[Future, tuple] = {}
        while queue or running:
            while queue and len(running) < self.workers * 2:
                key, spec, s0, s1 = queue[0]
                if not (skip and skip(spec)):
                    try:
                        running[self.pool.submit(_run_job, assignment, s0, s1, spec.seed, factory)] = (key, spec)
                    except BrokenProcessPool:
                        if running:
                            break                       # the games in flight fail below, then a new pool
                        self._renew_broken_pool()
                        continue
                queue.pop(0)
            if not running:
                break
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            if any(_broke(fut) for fut in done):
                done, _ = wait(running)                 # a broken pool fails all its games at once
                self._renew_broken_pool()
            for fut in done:
                key, spec = running.pop(fut)
                try:
                    result = fut.result()
                except Exception as exc:
                    result = infra_result("a worker failed", exc)
                yield key, spec, result

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
        reap_orphaned_players()


def concurrency(assignment: Assignment) -> int:
    c = assignment.config.league.concurrency
    return max(1, len(_usable_cpus()) if c == "auto" else int(c))
