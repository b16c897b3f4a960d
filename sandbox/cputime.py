"""What the kernel says about a player process's time: the CPU it used, and how long it waited
for a CPU it was ready to use. Move clocks are measured with these (sandbox/limits.py `Spent`).

CPU time, from the most precise source the host offers, in this order: the player's cgroup
(v1 `cpuacct.usage` in nanoseconds, v2 `cpu.stat` usage_usec in microseconds; every task in the cgroup), the kernel's CPU clock of the process
(`clock_gettime` on the pid's process clock: nanoseconds, all its threads, ended ones
included, and no privilege needed), `/proc/<pid>/stat` (clock ticks: 10 ms, too coarse to tell
2.0008 s from 2 s). Where none can be read the wall clock stands in, an upper bound for one core.
A process frozen with SIGSTOP does not run, so it accrues nothing on any of these.

Run-queue delay: `/proc/<pid>/task/<tid>/schedstat` holds, per thread, the nanoseconds it ran,
the nanoseconds it spent runnable on a run queue while another task had the CPU, and its number
of time slices (the kernel's schedstats, CONFIG_SCHED_INFO). The manager reads its child's host
pid, so a player that is pid 1 of its own pid namespace is read the same way. A thread's last
reading is kept after it ends. A frozen process is not runnable and accrues no delay either.

What is left out of a call is `foreign_wait`: a time during which no thread of the player ran.
A thread's run delay also counts the time it waited while the player's other threads had the
CPU (a helper set to SCHED_IDLE waits the whole call), so each thread's delay is first reduced by
what all the others ran; the largest remainder is a wait during which none of them ran.

The manager's own lateness (`ThreadDelay`): once the player has written its reply, the manager
may wait for a CPU itself before it reads it; that wait is the machine's, not the player's.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

try:
    import resource
except ImportError:                                 # Windows
    resource = None  # type: ignore[assignment]

_CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


CGROUP_SOURCES = {"cpuacct.usage": "cgroup cpuacct.usage (ns)", "cpu.stat": "cgroup cpu.stat usage_usec (µs)"}


def process_clock(pid: int) -> int:
    """Linux's clockid of another process's CPU clock: MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)."""
    return ((~pid) << 3) | 2


class CpuMeter:
    """Reads one process's CPU seconds so far; `source` names what is read. The cgroup's file stays
    open and is read with `pread` (about 1 µs; opening and reading it each time cost 20-30 µs, three
    times a call); `close()` lets it go."""

    def __init__(self, pid: int, cgroup_usage: Path | None = None) -> None:
        self.pid = pid
        self.usage_fd = None if cgroup_usage is None else _open(cgroup_usage)
        self.t0 = time.perf_counter()
        readers: tuple[tuple[str, Callable[[], float | None]], ...] = (
            (CGROUP_SOURCES.get(cgroup_usage.name if cgroup_usage else "", ""), self._cgroup),
            ("process CPU clock (ns)", self._clock),
            ("/proc/<pid>/stat (clock ticks)", self._stat))
        for source, read in readers:
            if read() is not None:
                self.source, self._read = source, read
                break
        else:
            self.source, self._read = "wall clock (no CPU clock readable)", self._wall

    def seconds(self) -> float | None:
        """CPU seconds used so far; None once the process cannot be read (it has ended)."""
        return self._read()

    def exact(self) -> float | None:
        """CPU seconds so far from the process's CPU clock, which counts a running thread's time up
        to now (a cgroup's usage, like schedstat, only up to its last tick); None where unreadable."""
        return self._clock()

    def close(self) -> None:
        if self.usage_fd is not None:
            os.close(self.usage_fd)
            self.usage_fd = None

    def _cgroup(self) -> float | None:
        if self.usage_fd is None:
            return None
        try:
            data = os.pread(self.usage_fd, 64, 0)
            if data.startswith(b"usage_usec "):          # cgroup v2 cpu.stat: its first line
                return int(data.split(maxsplit=2)[1]) / 1e6
            return int(data) / 1e9
        except (OSError, ValueError, IndexError):
            return None

    def _clock(self) -> float | None:
        if not sys.platform.startswith("linux"):             # the clockid is Linux's
            return None
        try:
            return time.clock_gettime(process_clock(self.pid))
        except (OSError, OverflowError):
            return None

    def _stat(self) -> float | None:
        try:
            with open(f"/proc/{self.pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / _CLK_TCK
        except (OSError, IndexError, ValueError):
            return None

    def _wall(self) -> float:
        return time.perf_counter() - self.t0


class QueueMeter:
    """How long each of one process's threads has run and been runnable but waiting for a CPU
    (ns, by thread id: `Ran` pairs; a thread's last reading is kept once it has ended). `source`
    names what is read; `waits()` is None where the host has no schedstat (not Linux, or
    schedstats compiled out). Each thread's file stays open and is read with `pread` (about 1 µs;
    opening it costs 40); the task folder is listed again only when its link count (procfs: 2 +
    the number of threads) says a thread is new."""

    def __init__(self, pid: int, proc: Path = Path("/proc")) -> None:
        self.pid = str(pid)
        self.tasks = proc / str(pid) / "task"
        self.tasks_fd = _open(self.tasks, os.O_DIRECTORY)
        self.fds: dict[str, int] = {}           # tid -> its open schedstat
        self.seen: dict[str, Ran] = {}          # tid -> (ran, waited) so far, in ns
        self.readable = self._read()
        self.source = ("run delay: /proc/<pid>/task/*/schedstat (ns)" if self.readable else
                       "missing: no schedstat here, so time spent waiting for a CPU is counted")

    def waits(self) -> dict[str, Ran] | None:
        """Each thread's run time and run delay so far; None when it cannot be read (never, or the
        process has ended)."""
        return dict(self.seen) if self.readable and self._read() else None

    def runnable(self) -> bool:
        """Whether any of its threads is ready to run (state R: running, or waiting for a CPU, whose
        wait schedstat adds only once it ends); False when none can be read."""
        for tid in list(self.fds):
            try:
                with open(self.tasks / tid / "stat", "rb") as f:
                    if f.read().rsplit(b")", 1)[1].split()[0] == b"R":
                        return True
            except (OSError, IndexError):
                continue
        return False

    def close(self) -> None:
        for fd in [*self.fds.values(), *([self.tasks_fd] if self.tasks_fd is not None else [])]:
            os.close(fd)
        self.fds, self.tasks_fd = {}, None

    def _threads(self) -> int | None:
        """The process's thread count (procfs gives its task folder 2 + that many links), None when
        it cannot be told (then the folder is listed every time)."""
        if self.tasks_fd is None:
            return None
        try:
            return os.fstat(self.tasks_fd).st_nlink - 2
        except OSError:
            return None

    def _read(self) -> bool:
        if self._threads() != len(self.fds):
            try:
                names = os.listdir(self.tasks)
            except OSError:
                names = []
            for tid in names:
                if tid not in self.fds:
                    fd = _open(self.tasks / tid / "schedstat")
                    if fd is not None:
                        self.fds[tid] = fd
        got = False
        for tid, fd in list(self.fds.items()):
            try:
                fields = os.pread(fd, 128, 0).split()
                ran, delay = int(fields[0]), int(fields[1])
            except (OSError, IndexError, ValueError):
                os.close(fd)                     # that thread has ended: its last reading stays
                del self.fds[tid]
                continue
            last = self.seen.get(tid, Ran(0, 0))
            self.seen[tid] = Ran(max(ran, last.ran), max(delay, last.waited))
            got = True
        return got


class Ran(NamedTuple):
    """One thread's schedstat so far: nanoseconds it ran, nanoseconds it was runnable but waited."""

    ran: int
    waited: int


class ThreadDelay:
    """The calling thread's own run delay (ns) and counts of involuntary and voluntary context
    switches, read together (`woken_late` says what they show). Each thread keeps its own
    descriptor of `/proc/thread-self/schedstat`, read with `pread`."""

    def __init__(self) -> None:
        self.local = threading.local()

    def reading(self) -> tuple[int, int, int] | None:
        """(run delay ns, involuntary switches, voluntary switches) of the calling thread; None
        where not readable."""
        fd = getattr(self.local, "fd", None)
        if fd is None:
            if resource is None or not hasattr(resource, "RUSAGE_THREAD"):
                return None
            fd = self.local.fd = _ThreadFile("/proc/thread-self/schedstat")
        try:
            delay = int(os.pread(fd.fd, 64, 0).split()[1]) if fd.fd is not None else None
        except (OSError, IndexError, ValueError):
            delay = None
        if delay is None:
            return None
        usage = resource.getrusage(resource.RUSAGE_THREAD)
        return delay, usage.ru_nivcsw, usage.ru_nvcsw

    def lateness(self, mark: tuple[int, int, int] | None, woke: tuple[int, int, int] | None) -> float:
        """Seconds this thread waited for a CPU from `mark` (taken just before it went to sleep for
        the reply) until now (`woken_late`); 0 when either reading is missing."""
        now = self.reading()
        if mark is None or woke is None or now is None:
            return 0.0
        return woken_late(mark, woke, now)


def woken_late(mark: tuple[int, int, int], woke: tuple[int, int, int], now: tuple[int, int, int]) -> float:
    """Seconds of run delay, between `mark` (just before the manager slept for the reply), `woke`
    (as it returned with it) and `now`, that came after the reply was there: all of it from `mark`
    when it was not preempted before `woke`, or when it slept in between (the reply woke it, and a
    preemption then came after it woke: the few instructions from `mark` into the sleep are all
    that came before); else (preempted, never asleep: the reply may have come while it waited)
    only what came after `woke`."""
    since = mark if woke[1] == mark[1] or woke[2] > mark[2] else woke
    return max(0, now[0] - since[0]) / 1e9


class _ThreadFile:
    """A descriptor closed when the thread-local holding it goes (its thread has ended)."""

    def __init__(self, path: str) -> None:
        self.fd = _open(Path(path))

    def __del__(self) -> None:
        if self.fd is not None:
            os.close(self.fd)


def _open(path: Path, flags: int = 0) -> int | None:
    try:
        return os.open(path, os.O_RDONLY | os.O_CLOEXEC | flags)
    except OSError:
        return None


def foreign_wait(before: dict[str, Ran], after: dict[str, Ran], cpu_s: float,
                 awake: float = 0.0, serving: str = "") -> float:
    """Seconds, between two readings, during which the player was held back and none of its
    threads ran. A thread's run delay counts both the time other processes held the CPU and the
    time its own sibling threads did; the latter is at most what those siblings ran (all of the
    process's CPU, `cpu_s` or the threads' own run times if more, less the thread's own), so each
    thread's delay less that is a wait during which no thread of the player ran, and the largest
    one is kept. No thread can make it larger: a helper that waits all along (SCHED_IDLE) waits
    mostly while the others run. `awake`: seconds after the reply was written that are not
    charged (the manager's own lateness); a thread may have waited through them, so each
    thread's remainder is reduced by them, but `serving`'s (the thread that answers calls, asleep
    in its next read by then).  Threads that wait side by side are never summed."""
    ran = {tid: r.ran - before.get(tid, Ran(0, 0)).ran for tid, r in after.items()}
    total = max(cpu_s * 1e9, float(sum(ran.values())))
    best = 0.0
    for tid, r in after.items():
        waited = r.waited - before.get(tid, Ran(0, 0)).waited - (total - ran[tid])
        best = max(best, waited / 1e9 - (0.0 if tid == serving else awake))
    return best


def thawed_for(before: dict[str, Ran], after: dict[str, Ran], cpu_s: float = 0.0) -> float | None:
    """Seconds at least that the player has been thawed, from its threads' readings taken while it
    was stopped (`before`) and now: the most any one thread has waited, plus what it ran (or the
    whole process's CPU since, `cpu_s`: schedstat's run time lags a running thread by a tick, the
    process's CPU clock does not; a stopped thread does neither). None while nothing has been seen:
    the kernel adds a wait only as it ends."""
    seen = [max(r.ran - before.get(tid, Ran(0, 0)).ran, cpu_s * 1e9) + r.waited - before.get(tid, Ran(0, 0)).waited
            for tid, r in after.items()]
    best = max(seen, default=cpu_s * 1e9)
    return best / 1e9 if best > 0 else None
