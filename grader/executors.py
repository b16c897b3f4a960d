"""Where games run: inline, a local pool of processes (one game per core), or a Dask cluster.

An executor takes jobs `(key, spec, sub0, sub1)` and yields `(key, spec, GameResult)` as games
finish. The manager stays the only writer of the store; executors only play. A worker that dies
is the grader's failure: its games come back as `infra_error` results (the league retries them,
never scores them) and the players it had started are killed by `reap_orphaned_players`.
"""
from __future__ import annotations

import ctypes
import json
import logging
import multiprocessing
import os
import secrets
import signal
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from sandbox.pidfd import kill_if

from .assignment import Assignment
from .match import GameResult, play_game, player_factory
from .submissions import stage_root

try:
    import fcntl
except ImportError:                                  # Windows: no flock, players are not noted
    fcntl = None  # type: ignore[assignment]

_worker_cpu: int | None = None


def _init_worker(counter, ncpu: int, manager: int) -> None:
    """Give each pool worker its own core; both players of its games are pinned there. The worker
    dies with the manager (and its templates and players with it: sandbox/zygote.py)."""
    global _worker_cpu
    die_with(manager)
    with counter.get_lock():
        _worker_cpu = counter.value % ncpu
        counter.value += 1


def die_with(manager: int) -> None:
    """SIGKILL this process when its parent ends (Linux); exit now if that has already happened."""
    if not sys.platform.startswith("linux"):
        return
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
# players it starts in players_dir(): one file per player, flock-ed by the worker from the player's
# start to its close. The kernel drops that lock when the worker dies, whatever pid namespace
# either side is in, so whoever takes it (the pool's manager, a Dask nanny, the Dask manager, or
# another grader of the same user) knows the worker is gone: never from a pid, nor from a start
# time in wall-clock seconds (psutil's moves with the clock: a live worker looked dead). The note
# names its player by pid, start time in clock ticks since boot, boot id and pid namespace, and the
# kill goes through a pidfd opened before that start time is compared, so it cannot reach another.

log = logging.getLogger(__name__)
NOTE = ".player"


def players_dir() -> Path:
    path = stage_root() / ".players"
    path.mkdir(mode=0o700, exist_ok=True)
    return path


def _start_ticks(pid: int) -> int | None:
    """The process's start time in clock ticks since boot (/proc/<pid>/stat field 22), or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return int(f.read().rsplit(b")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


def _machine() -> dict:
    """Where a pid means something: this boot and this pid namespace."""
    try:
        with open("/proc/sys/kernel/random/boot_id") as f:
            boot = f.read().strip()
        return {"boot": boot, "pidns": os.stat("/proc/self/ns/pid").st_ino}
    except OSError:
        return {}


def _note_player(pid: int) -> tuple[int, Path] | None:
    """A note of player `pid`, locked by this worker until it unlinks it; None where it cannot be kept."""
    if fcntl is None or not _machine():
        return None                                 # no flock or /proc (not Linux): nothing to go on
    folder = players_dir()
    draft = folder / f".draft-{secrets.token_hex(8)}"
    fd = os.open(draft, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)                  # before anyone can see it under its final name
    os.write(fd, json.dumps({"pid": pid, "start": _start_ticks(pid), **_machine()}).encode())
    note = folder / f"{secrets.token_hex(8)}{NOTE}"
    os.rename(draft, note)
    return fd, note


class _TrackedPlayer:
    """A player process on file (and its note locked) from its start to its close."""

    def __init__(self, player):
        self._player = player
        self._note: tuple[int, Path] | None = None

    def start(self):
        try:
            return self._player.start()
        finally:
            proc = getattr(self._player, "proc", None)
            if proc is not None and self._note is None:
                self._note = _note_player(proc.pid)

    def close(self):
        try:
            return self._player.close()
        finally:
            if self._note is not None:
                fd, note = self._note
                self._note = None
                note.unlink(missing_ok=True)
                os.close(fd)                        # the lock goes last: the note is gone already

    def __getattr__(self, name):
        return getattr(self._player, name)


def tracked(factory):
    """The player factory, with every started player noted so a dead worker's players can be killed."""
    return lambda **kw: _TrackedPlayer(factory(**kw))


def reap_orphaned_players() -> int:
    """Kill the players of workers that are gone (their note's lock is free); returns how many.
    Notes of live workers (locked) are not read; each kill is logged with its reason."""
    if fcntl is None:
        return 0
    killed = 0
    here = _machine()
    for draft in players_dir().glob(".draft-*"):    # a worker died while writing one
        _unlink_unlocked(draft)
    for note in players_dir().glob(f"*{NOTE}"):
        try:
            fd = os.open(note, os.O_RDWR | os.O_CLOEXEC)
        except OSError:
            continue                                # closed by its worker just now
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue                            # its worker is alive: its players are its own
            try:
                who = json.loads(os.pread(fd, 4096, 0) or b"{}")
            except ValueError:
                who = {}
            pid, start = who.get("pid"), who.get("start")
            if who.get("boot") == here.get("boot") and who.get("pidns") == here.get("pidns") \
                    and isinstance(pid, int) and isinstance(start, int) and kill_if(pid, _started_at(pid, start)):
                killed += 1
                log.warning("killed player pid %s: the worker that started it is gone", who["pid"])
            note.unlink(missing_ok=True)
        finally:
            os.close(fd)
    return killed


def _unlink_unlocked(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDWR | os.O_CLOEXEC)
    except OSError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        path.unlink(missing_ok=True)
    except BlockingIOError:
        pass
    finally:
        os.close(fd)


def _started_at(pid: int, start: int) -> Callable[[], bool]:
    """Whether `pid` is still the process that started at `start` ticks (not another one given its
    pid since): what `kill_if` asks once a pidfd pins the process."""
    return lambda: _start_ticks(pid) == start


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
