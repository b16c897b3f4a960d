"""The CPU time a player process has used: what CPU-time move limits are measured with.

The most precise source the host offers, in this order: the player's cgroup `cpuacct.usage`
(nanoseconds, every task in the cgroup), the kernel's CPU clock of the process
(`clock_gettime` on the pid's process clock: nanoseconds, all its threads, ended ones
included, and no privilege needed), `/proc/<pid>/stat` (clock ticks: 10 ms, too coarse to tell
2.0008 s from 2 s). Where none can be read the wall clock stands in, an upper bound for one core.
A process frozen with SIGSTOP does not run, so it accrues nothing on any of these.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

_CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_clock(pid: int) -> int:
    """Linux's clockid of another process's CPU clock: MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)."""
    return ((~pid) << 3) | 2


class CpuMeter:
    """Reads one process's CPU seconds so far; `source` names what is read."""

    def __init__(self, pid: int, cgroup_usage: Path | None = None) -> None:
        self.pid = pid
        self.usage = cgroup_usage
        self.t0 = time.perf_counter()
        for source, read in (("cgroup cpuacct.usage (ns)", self._cgroup), ("process CPU clock (ns)", self._clock),
                             ("/proc/<pid>/stat (clock ticks)", self._stat)):
            if read() is not None:
                self.source, self._read = source, read
                break
        else:
            self.source, self._read = "wall clock (no CPU clock readable)", self._wall

    def seconds(self) -> float | None:
        """CPU seconds used so far; None once the process cannot be read (it has ended)."""
        return self._read()

    def _cgroup(self) -> float | None:
        if self.usage is None:
            return None
        try:
            return int(self.usage.read_text()) / 1e9
        except (OSError, ValueError):
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
