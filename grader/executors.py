"""Where games run: inline, a local pool of processes (one game per core), or a Dask cluster.

An executor takes jobs `(key, spec, sub0, sub1)` and yields `(key, spec, GameResult)` as games
finish. The manager stays the only writer of the store; executors only play.
"""
from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Callable, Iterable, Iterator

from .assignment import Assignment
from .match import GameResult, play_game

_worker_cpu: int | None = None


def _init_worker(counter, ncpu: int) -> None:
    """Give each pool worker its own core; both players of its games are pinned there."""
    global _worker_cpu
    with counter.get_lock():
        _worker_cpu = counter.value % ncpu
        counter.value += 1


def _run_job(assignment: Assignment, sub0, sub1, seed: int, factory) -> GameResult:
    from sandbox import PlayerProcess

    return play_game(assignment, sub0, sub1, seed, factory=factory or PlayerProcess, cpu=_worker_cpu)


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
    """A pool of worker processes, one per core; jobs are fed lazily so skips take effect."""

    def __init__(self, workers: int):
        self.workers = workers
        ctx = multiprocessing.get_context("spawn")
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init_worker,
                                        initargs=(ctx.Value("i", 0), len(_usable_cpus())))

    def play(self, assignment, jobs, factory=None, skip=None):
        queue = list(jobs)
        running: dict[Future, tuple] = {}
        while queue or running:
            while queue and len(running) < self.workers * 2:
                key, spec, s0, s1 = queue.pop(0)
                if skip and skip(spec):
                    continue
                running[self.pool.submit(_run_job, assignment, s0, s1, spec.seed, factory)] = (key, spec)
            if not running:
                break
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for fut in done:
                key, spec = running.pop(fut)
                try:
                    result = fut.result()
                except Exception as exc:  # noqa: BLE001 - a worker died: the grader's failure
                    result = GameResult((0, 0), (0, 0), "infra", f"a worker failed: {exc}", infra_error=repr(exc))
                yield key, spec, result

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def concurrency(assignment: Assignment) -> int:
    c = assignment.config.league.concurrency
    return max(1, len(_usable_cpus()) if c == "auto" else int(c))


def make_executor(assignment: Assignment) -> Executor:
    lg = assignment.config.league
    if lg.executor == "dask":
        from .dask_executor import DaskExecutor
        return DaskExecutor(assignment, **lg.dask)
    n = concurrency(assignment)
    return InlineExecutor() if n == 1 else LocalExecutor(n)
