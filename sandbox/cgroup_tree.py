"""The cgroup v2 subtree the grader makes its players' cgroups in, set up once per process.

In cgroup v2 a controller applies to a cgroup only when its parent lists it in
cgroup.subtree_control, and a cgroup that holds processes may not enable controllers for its
children (the "no internal processes" rule; the hierarchy's root is exempt). So the grader takes
the cgroup it runs in (the unit's own when it runs as a systemd service with Delegate=yes, the
container's in a container) as the parent of its players' cgroups: it moves the processes of that
cgroup (itself included) into a leaf child, `grader-manager`, and then enables memory and pids in
the parent's subtree_control. A grader started from inside such a leaf (a second grader, a test's
subprocess) uses the leaf's parent, already set up. Each step reads or writes plain files, so the
logic is tested on a folder laid out like a v2 tree as well as on the kernel's.
"""
from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path

LEAF = "grader-manager"
CONTROLLERS = ("memory", "pids")      # cpu.stat's usage_usec needs no controller: every cgroup has it
REQUIRED = ("memory",)
MOVE_ROUNDS = 20                      # processes forked into the parent while we move them: go again


@dataclass(frozen=True)
class Subtree:
    """Where player cgroups go, the controllers enabled for them, and what the grader did to get there."""

    base: Path
    controllers: frozenset[str]
    note: str


def words(path: Path) -> set[str]:
    try:
        return set(path.read_text().split())
    except OSError:
        return set()


def is_hierarchy_root(d: Path) -> bool:
    """The hierarchy's (or a cgroup namespace's outermost visible) true root: it has no cgroup.type."""
    return not (d / "cgroup.type").exists()


def move_processes(src: Path, dst: Path) -> int:
    """Move every process listed in src/cgroup.procs to dst (one that ended meanwhile is skipped);
    how many were moved."""
    moved = 0
    try:
        pids = (src / "cgroup.procs").read_text().split()
    except OSError:
        return 0
    for pid in pids:
        try:
            (dst / "cgroup.procs").write_text(pid)
            moved += 1
        except ProcessLookupError:
            pass
    return moved


def enable(d: Path, controllers: list[str]) -> None:
    """Write +controller for each into d/cgroup.subtree_control (OSError as the kernel says)."""
    if controllers:
        (d / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in controllers))


def set_up(own: Path, controllers: tuple[str, ...] = CONTROLLERS,
           required: tuple[str, ...] = REQUIRED) -> Subtree:
    """The subtree under `own` (this process's cgroup v2 directory), making it so when needed.
    OSError with one sentence when the controllers are not delegated to it or it is not writable."""
    if own.name == LEAF and set(required) <= words(own.parent / "cgroup.subtree_control"):
        own = own.parent                                   # set up already, by us or another grader
    enabled = words(own / "cgroup.subtree_control")
    if set(required) <= enabled:
        return Subtree(own, frozenset(enabled & set(controllers)), f"player cgroups under {own}")
    offered = words(own / "cgroup.controllers")
    lacking = [c for c in required if c not in offered]
    if lacking:
        raise OSError(errno.EPERM, f"the cgroup v2 controller {', '.join(lacking)} is not delegated to {own} "
                                   f"(its cgroup.controllers: {' '.join(sorted(offered)) or 'none'})")
    wanted = [c for c in controllers if c in offered and c not in enabled]
    if not os.access(own / "cgroup.subtree_control", os.W_OK):
        raise OSError(errno.EACCES, f"{own}/cgroup.subtree_control is not writable")
    if is_hierarchy_root(own):
        enable(own, wanted)
        return Subtree(own, frozenset((enabled | set(wanted)) & set(controllers)),
                       f"player cgroups under the hierarchy's root {own}")
    leaf = own / LEAF
    leaf.mkdir(exist_ok=True)
    moved = 0
    for _ in range(MOVE_ROUNDS):
        moved += move_processes(own, leaf)
        try:
            enable(own, wanted)
            break
        except OSError as exc:
            if exc.errno != errno.EBUSY:               # EBUSY: a process was forked into it meanwhile
                raise
    else:
        raise OSError(errno.EBUSY, f"processes keep appearing in {own}, so no controller can be enabled there")
    return Subtree(own, frozenset((enabled | set(wanted)) & set(controllers)),
                   f"player cgroups under {own} (moved {moved} of its processes, this grader's included, "
                   f"to {LEAF} so that it may enable {' '.join(wanted)})")
