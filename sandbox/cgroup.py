"""Per-player cgroup v1 directories (memory, pids, cpuacct), made by the manager, joined by the child.

The memory cgroup gives the exact memory verdict: the kernel's OOM killer sends an uncatchable
SIGKILL and raises `oom_kill` in memory.oom_control; cpuacct.usage counts the player's CPU time
in nanoseconds (sandbox/cputime.py). Directories are created beneath the manager's own cgroup of
each controller, named after the player's box and a random part (sandbox/box.py) so that a dead
manager's leftovers can be found and reclaimed by the next holder of that box's lock, and removed
at close. A directory that already exists is never taken over (nor its tasks killed) by another.
"""
from __future__ import annotations

import os
import secrets
import signal
import time
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
PIDS_MAX = 128             # threads count as pids; fork is denied by seccomp anyway


def own_dir(controller: str) -> Path | None:
    """This process's cgroup v1 directory of `controller`, if mounted."""
    mount = ROOT / controller
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, ctrls, rel = line.split(":", 2)
        if controller in ctrls.split(","):
            path = mount / rel.lstrip("/")
            return path if path.is_dir() else None
    return None


def unavailable_reason() -> str | None:
    """Why per-player memory cgroups cannot be used here, or None when they can."""
    if not hasattr(os, "geteuid"):
        return "not a POSIX host"
    if os.geteuid() != 0:
        return "not root, so no cgroup can be created"
    base = own_dir("memory")
    if base is None:
        return "no cgroup v1 memory controller mounted"
    if not os.access(base, os.W_OK):
        return f"{base} is not writable"
    return None


def _write(path: Path, value: object) -> bool:
    try:
        path.write_text(str(value))
        return True
    except OSError:
        return False


def _read_int(path: Path) -> int | None:
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _optional_dir(controller: str, name: str) -> Path | None:
    """A new directory `name` under this process's cgroup of `controller`, or None."""
    base = own_dir(controller)
    if base is None:
        return None
    try:
        (base / name).mkdir()                  # a new name: an existing one is not ours to remove
        return base / name
    except OSError:
        return None


class PlayerCgroup:
    """One player's memory (and pids and cpuacct, when mounted) cgroup directories."""

    def __init__(self, memory_mb: int, name: str | None = None) -> None:
        name = name or f"grader-{secrets.token_hex(8)}"     # no pid or name a player could use
        base = own_dir("memory")
        if base is None:
            raise OSError("no cgroup v1 memory controller mounted")
        self.memory = base / name
        self.memory.mkdir()                    # FileExistsError rather than take over another's
        limit = memory_mb * 1024 * 1024
        if not _write(self.memory / "memory.limit_in_bytes", limit):
            self.remove()
            raise OSError(f"cannot set memory.limit_in_bytes in {self.memory}")
        self.memsw = _write(self.memory / "memory.memsw.limit_in_bytes", limit)
        _write(self.memory / "memory.swappiness", 0)
        pids_base = own_dir("pids")
        self.pids = None
        if pids_base is not None:
            try:
                (pids_base / name).mkdir()
                self.pids = pids_base / name
                _write(self.pids / "pids.max", PIDS_MAX)
            except OSError:
                self.pids = None
        self.cpuacct = _optional_dir("cpuacct", name)
        self.memory_mb = memory_mb
        self.oom_kills_at_start = self.oom_kills()

    @property
    def procs_files(self) -> list[str]:
        """The cgroup.procs files the child writes its pid into."""
        return [str(d / "cgroup.procs") for d in (self.memory, self.pids, self.cpuacct) if d is not None]

    @property
    def cpu_usage_file(self) -> Path | None:
        """cpuacct.usage: the CPU nanoseconds of every task in the player's cgroup."""
        return None if self.cpuacct is None else self.cpuacct / "cpuacct.usage"

    def oom_kills(self) -> int:
        """OOM kills so far (failcnt when the kernel has no oom_kill counter)."""
        try:
            for line in (self.memory / "memory.oom_control").read_text().splitlines():
                if line.startswith("oom_kill "):
                    return int(line.split()[1])
        except OSError:
            return 0
        return _read_int(self.memory / "memory.failcnt") or 0

    def hit_limit(self) -> bool:
        return self.oom_kills() > self.oom_kills_at_start

    def peak_mb(self) -> float | None:
        peak = _read_int(self.memory / "memory.max_usage_in_bytes")
        return None if peak is None else peak / (1024 * 1024)

    def describe(self) -> str:
        swap = "" if self.memsw else " (swap not limited)"
        pids = f", pids.max {PIDS_MAX}" if self.pids else ""
        return f"cgroup v1 {self.memory_mb} MB{swap}{pids}"

    def remove(self) -> None:
        """Remove the directories (their tasks must be gone; stragglers are killed first)."""
        for d in (self.memory, getattr(self, "pids", None), getattr(self, "cpuacct", None)):
            if d is not None:
                remove_dir(d)


def _kill_member(pid: int, d: Path) -> None:
    """SIGKILL `pid` if it is still a task of cgroup `d` once a pidfd pins it (a pid listed, then
    ended and reused by a process elsewhere, is never hit)."""
    rel = "/" + str(d.relative_to(ROOT)).split("/", 1)[1] if d.is_relative_to(ROOT) else None
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:
        return
    try:
        with open(f"/proc/{pid}/cgroup") as f:
            if rel is not None and not any(line.split(":", 2)[2].strip() == rel for line in f):
                return
        signal.pidfd_send_signal(pidfd, signal.SIGKILL)
    except OSError:
        pass
    finally:
        os.close(pidfd)


def remove_dir(d: Path) -> None:
    """Remove one cgroup directory if it exists, killing the tasks still in it."""
    for _ in range(50):
        if not d.exists():
            return
        try:
            d.rmdir()
            return
        except OSError:
            try:
                pids = (d / "cgroup.procs").read_text().split()
            except OSError:
                pids = []
            for pid in pids:
                _kill_member(int(pid), d)
            time.sleep(0.01)
