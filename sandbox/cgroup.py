"""Per-player cgroups, made by the manager, joined (or started in) by the child: one interface,
`PlayerCgroup`, over cgroup v1 directories (memory, pids, cpuacct) and a cgroup v2 directory.

Which one a host gets is decided by the hierarchy that holds the memory controller
(sandbox/cgroup_layout.py; a hybrid host can hold memory in v1 and offer a cgroup2 mount beside
it). `PlayerCgroup(memory_mb, name)` returns the right kind, as pathlib.Path does.

Both give the same verdicts. The kernel's OOM killer sends an uncatchable SIGKILL when a player
goes over its memory limit and counts it (v1 `oom_kill` in memory.oom_control, v2 `oom_kill` in
memory.events): that count is the exact memory verdict. The player's CPU time is read from its
cgroup (v1 cpuacct.usage in ns, v2 cpu.stat usage_usec in µs; sandbox/cputime.py). Swap is not
allowed (v1 memsw limit and swappiness 0, v2 memory.swap.max 0) and threads are bounded by
pids.max. v2 directories live in the grader's delegated subtree (sandbox/cgroup_tree.py); a
pre-forked player is created inside its v2 cgroup (clone3 CLONE_INTO_CGROUP, sandbox/zygote.py)
so it never migrates, and is removed with cgroup.kill. Directories are named after the player's
box and a random part (sandbox/box.py) so that a dead manager's leftovers can be found and
reclaimed by the next holder of that box's lock, and removed at close. A directory that already
exists is never taken over (nor its tasks killed) by another.
"""
from __future__ import annotations

import functools
import os
import secrets
import signal
import time
from pathlib import Path

from . import cgroup_layout, cgroup_tree

ROOT = Path("/sys/fs/cgroup")
PIDS_MAX = 128             # threads count as pids; fork is denied by seccomp anyway
MiB = 1024 * 1024


@functools.cache
def subtree() -> cgroup_tree.Subtree:
    """The cgroup v2 subtree player cgroups go in, set up once per process (OSError: why not)."""
    own = cgroup_layout.current().v2_dir
    if own is None:
        raise OSError("no cgroup2 hierarchy is mounted")
    return cgroup_tree.set_up(own)


def v2_base() -> Path | None:
    """The directory v2 player cgroups are made in, or None when there is none to use."""
    try:
        return subtree().base
    except OSError:
        return None


def own_dir(controller: str) -> Path | None:
    """The directory this process makes its players' cgroups of `controller` in: its own cgroup v1
    directory of that controller, or the v2 subtree when the cgroup2 hierarchy holds it."""
    layout = cgroup_layout.current()
    owner = layout.owner(controller)
    if owner == 1:
        d = layout.v1[controller]
        return d if d.is_dir() else None
    if owner == 2 and layout.memory_version() == 2:
        return v2_base()
    return None


def version() -> int | None:
    """1 or 2: the kind of cgroup players get here; None: none (unavailable_reason() says why)."""
    return cgroup_layout.current().memory_version()


def unavailable_reason() -> str | None:
    """Why per-player memory cgroups cannot be used here, or None when they can."""
    if not hasattr(os, "geteuid"):
        return "not a POSIX host"
    layout = cgroup_layout.current()
    want = layout.memory_version()
    if want is None or layout.owner("memory") != want:
        return layout.memory_missing()
    if want == 1:
        if os.geteuid() != 0:
            return "not root, so no cgroup can be created"
        base = own_dir("memory")
        if base is None:
            return "no cgroup v1 memory controller mounted"
        return None if os.access(base, os.W_OK) else f"{base} is not writable"
    try:
        base = subtree().base
    except OSError as exc:
        return ("not root, and " if os.geteuid() != 0 else "") + (exc.strerror or str(exc))
    return None if os.access(base, os.W_OK) else f"{base} is not writable"


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


def read_key(path: Path, key: str) -> int | None:
    """The value of `key` in a flat-keyed cgroup file (memory.events, cpu.stat, memory.oom_control)."""
    try:
        for line in path.read_text().splitlines():
            name, _, value = line.partition(" ")
            if name == key:
                return int(value)
    except (OSError, ValueError):
        return None
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
    """One player's cgroup(s). `PlayerCgroup(memory_mb, name)` is a V1Cgroup or a V2Cgroup, as
    the host's memory controller is held (each implements every method below). `memory` is the
    directory holding the memory limit."""

    memory: Path
    memory_mb: int
    oom_kills_at_start: int

    def __new__(cls, *args: object, **kwargs: object) -> PlayerCgroup:
        if cls is PlayerCgroup:
            cls = V2Cgroup if version() == 2 else V1Cgroup
        return super().__new__(cls)

    @property
    def directories(self) -> list[Path]:
        """Every directory this player's cgroups occupy."""
        raise NotImplementedError

    @property
    def procs_files(self) -> list[str]:
        """The cgroup.procs files the child writes its pid into (unless it was started inside)."""
        return [str(d / "cgroup.procs") for d in self.directories]

    @property
    def start_in(self) -> str | None:
        """A cgroup v2 directory a child can be created in (clone3 CLONE_INTO_CGROUP); None on v1."""
        return None

    @property
    def cpu_usage_file(self) -> Path | None:
        """The file holding the CPU time of every task in the player's cgroup (sandbox/cputime.py)."""
        raise NotImplementedError

    def oom_kills(self) -> int:
        """OOM kills so far in the player's cgroup."""
        raise NotImplementedError

    def hit_limit(self) -> bool:
        return self.oom_kills() > self.oom_kills_at_start

    def peak_mb(self) -> float | None:
        """The most memory the cgroup held, when the kernel says."""
        raise NotImplementedError

    def describe(self) -> str:
        """What the player's cgroup holds it to, in a few words."""
        raise NotImplementedError

    def remove(self) -> None:
        """Remove the directories (their tasks must be gone; stragglers are killed first)."""
        for d in self.directories:
            remove_dir(d)


class V1Cgroup(PlayerCgroup):
    """cgroup v1: a memory directory, and pids and cpuacct ones where those are mounted."""

    def __init__(self, memory_mb: int, name: str | None = None) -> None:
        name = name or f"grader-{secrets.token_hex(8)}"     # no pid or name a player could use
        self.pids: Path | None = None
        self.cpuacct: Path | None = None
        base = own_dir("memory")
        if base is None:
            raise OSError("no cgroup v1 memory controller mounted")
        self.memory = base / name
        self.memory.mkdir()                    # FileExistsError rather than take over another's
        limit = memory_mb * MiB
        if not _write(self.memory / "memory.limit_in_bytes", limit):
            self.remove()
            raise OSError(f"cannot set memory.limit_in_bytes in {self.memory}")
        self.memsw = _write(self.memory / "memory.memsw.limit_in_bytes", limit)
        _write(self.memory / "memory.swappiness", 0)
        self.pids = _optional_dir("pids", name)
        if self.pids is not None:
            _write(self.pids / "pids.max", PIDS_MAX)
        self.cpuacct = _optional_dir("cpuacct", name)
        self.memory_mb = memory_mb
        self.oom_kills_at_start = self.oom_kills()

    @property
    def directories(self) -> list[Path]:
        return [d for d in (getattr(self, "memory", None), self.pids, self.cpuacct) if d is not None]

    @property
    def cpu_usage_file(self) -> Path | None:
        """cpuacct.usage: the CPU nanoseconds of every task in the player's cgroup."""
        return None if self.cpuacct is None else self.cpuacct / "cpuacct.usage"

    def oom_kills(self) -> int:
        """OOM kills so far (failcnt when the kernel has no oom_kill counter)."""
        kills = read_key(self.memory / "memory.oom_control", "oom_kill")
        if kills is not None:
            return kills
        if not (self.memory / "memory.oom_control").exists():
            return 0
        return _read_int(self.memory / "memory.failcnt") or 0

    def peak_mb(self) -> float | None:
        peak = _read_int(self.memory / "memory.max_usage_in_bytes")
        return None if peak is None else peak / MiB

    def describe(self) -> str:
        swap = "" if self.memsw else " (swap not limited)"
        pids = f", pids.max {PIDS_MAX}" if self.pids else ""
        return f"cgroup v1 {self.memory_mb} MB{swap}{pids}"


class V2Cgroup(PlayerCgroup):
    """cgroup v2: one directory in the grader's delegated subtree, holding every limit."""

    def __init__(self, memory_mb: int, name: str | None = None, base: Path | None = None) -> None:
        name = name or f"grader-{secrets.token_hex(8)}"     # no pid or name a player could use
        self.dir: Path | None = None
        base = base or subtree().base
        self.memory = base / name
        self.memory.mkdir()                    # FileExistsError rather than take over another's
        self.dir = self.memory
        if not _write(self.memory / "memory.max", memory_mb * MiB):
            self.remove()
            raise OSError(f"cannot set memory.max in {self.memory}")
        self.memsw = _write(self.memory / "memory.swap.max", 0)  # absent without swap accounting
        self.pids_max = _write(self.memory / "pids.max", PIDS_MAX)
        self.memory_mb = memory_mb
        self.oom_kills_at_start = self.oom_kills()

    @property
    def directories(self) -> list[Path]:
        return [] if self.dir is None else [self.dir]

    @property
    def start_in(self) -> str | None:
        return str(self.memory)

    @property
    def cpu_usage_file(self) -> Path | None:
        """cpu.stat: usage_usec, the CPU microseconds of every task in the cgroup (no controller needed)."""
        return self.memory / "cpu.stat"

    def oom_kills(self) -> int:
        return read_key(self.memory / "memory.events", "oom_kill") or 0

    def peak_mb(self) -> float | None:
        peak = _read_int(self.memory / "memory.peak")           # Linux 5.19+
        return None if peak is None else peak / MiB

    def describe(self) -> str:
        swap = "" if self.memsw else " (swap not limited)"
        pids = f", pids.max {PIDS_MAX}" if self.pids_max else ""
        return f"cgroup v2 {self.memory_mb} MB{swap}{pids}"

    def remove(self) -> None:
        if self.dir is not None:
            kill_and_remove(self.dir)


def kill_and_remove(d: Path) -> None:
    """Kill every task of cgroup v2 directory `d` at once with cgroup.kill (Linux 5.14+; else each
    member, as remove_dir does), then remove it."""
    _write(d / "cgroup.kill", 1)
    remove_dir(d)


def _kill_member(pid: int, d: Path) -> None:
    """SIGKILL `pid` if it is still a task of cgroup `d` once a pidfd pins it (a pid listed, then
    ended and reused by a process elsewhere, is never hit)."""
    rel = cgroup_layout.current().hierarchy_path(d)
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:
        return
    try:
        with open(f"/proc/{pid}/cgroup") as f:
            if rel is None or not any(line.split(":", 2)[2].strip() == rel for line in f):
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
