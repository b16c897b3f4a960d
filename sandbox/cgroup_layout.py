"""Which cgroup hierarchy holds each controller on this host, and where this process sits in each.

A host mounts cgroup v1 (a hierarchy per controller set: /sys/fs/cgroup/memory, …), cgroup v2 (one
unified hierarchy) or both: a hybrid host keeps v1 mounts for the controllers a v1 hierarchy
holds and a cgroup2 mount beside them (often /sys/fs/cgroup/unified) offering only the rest. A
controller belongs to exactly one of them. This is read from /proc/self/cgroup, /proc/self/mountinfo
and the cgroup2 mount's own cgroup.controllers; each parser takes the text, so tests hand it a
fixture. `GRADER_CGROUP=v1|v2|off` forces which hierarchy holds the players' memory limits
(`off`: none), so a test or a v2 guest can insist on one backend and see why it cannot be used.
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from pathlib import Path

FORCE_ENV = "GRADER_CGROUP"
FORCE_VALUES = ("v1", "v2", "off")


@dataclass(frozen=True)
class Mount:
    """One cgroup mount: where it is, which path of its hierarchy it shows, and (v1) its controllers."""

    point: Path
    root: str                                    # the hierarchy's path mounted there ("/" usually)
    version: int
    controllers: frozenset[str] = frozenset()    # v1 only: cpu,cpuacct share one hierarchy

    def dir_of(self, path: str) -> Path | None:
        """The directory of hierarchy path `path` under this mount (None: the mount does not show it)."""
        root = self.root.rstrip("/")
        if path != root and not path.startswith(root + "/"):
            return None
        return self.point / path[len(root):].lstrip("/")


@dataclass(frozen=True)
class Layout:
    """This process's cgroups: v1 directories by controller, the cgroup2 mount and its directory there."""

    v1: dict[str, Path] = field(default_factory=dict)     # controller -> this process's v1 directory
    v2_mount: Mount | None = None
    v2_dir: Path | None = None                            # this process's cgroup2 directory
    v2_offered: frozenset[str] = frozenset()              # controllers the cgroup2 hierarchy holds
    mounts: tuple[Mount, ...] = ()
    forced: str = ""                                      # GRADER_CGROUP's value, when set

    def owner(self, controller: str) -> int | None:
        """1 or 2: the hierarchy holding `controller` here; None: neither is mounted with it."""
        if controller in self.v1:
            return 1
        if self.v2_dir is not None and controller in self.v2_offered:
            return 2
        return None

    def memory_version(self) -> int | None:
        """The hierarchy the players' memory cgroups are made in (GRADER_CGROUP may force one)."""
        if self.forced in ("v1", "v2"):
            return int(self.forced[1])
        return None if self.forced else self.owner("memory")

    def memory_missing(self) -> str:
        """Why no hierarchy gives memory cgroups (memory_version() is None, or a forced one lacks memory)."""
        if self.forced == "off":
            return f"{FORCE_ENV}=off"
        if self.forced and self.forced not in FORCE_VALUES:
            return f"{FORCE_ENV}={self.forced!r} is none of {', '.join(FORCE_VALUES)}"
        forced = f"{FORCE_ENV}={self.forced}, but " if self.forced else ""
        want = self.memory_version()
        if want == 1 or (want is None and self.v2_dir is None):
            return forced + "no cgroup v1 memory hierarchy is mounted" + (
                "" if self.v2_dir is not None or want == 1 else " and no cgroup2 hierarchy either")
        where = self.v2_mount.point if self.v2_mount is not None else "the cgroup2 mount"
        held = " (a cgroup v1 hierarchy holds it)" if "memory" in self.v1 else ""
        return forced + f"the cgroup2 hierarchy at {where} offers no memory controller{held}"

    def hierarchy_path(self, d: Path) -> str | None:
        """The path `d` (a cgroup directory under one of the mounts) has in its hierarchy, as
        /proc/<pid>/cgroup names it."""
        holding = [m for m in self.mounts if d.is_relative_to(m.point)]
        if not holding:
            return None
        best = max(holding, key=lambda m: len(m.point.parts))
        rel = d.relative_to(best.point).as_posix()
        return "/" + "/".join(p for p in (best.root.strip("/"), "" if rel == "." else rel) if p)


def unescape(field_text: str) -> str:
    """A mountinfo field with its octal escapes (\\040 for a space) decoded."""
    out, i = [], 0
    while i < len(field_text):
        if field_text[i] == "\\" and field_text[i + 1:i + 4].isdigit():
            out.append(chr(int(field_text[i + 1:i + 4], 8)))
            i += 4
        else:
            out.append(field_text[i])
            i += 1
    return "".join(out)


def parse_mountinfo(text: str) -> list[Mount]:
    """The cgroup and cgroup2 mounts in a /proc/<pid>/mountinfo text."""
    mounts = []
    for line in text.splitlines():
        left, sep, right = line.partition(" - ")
        if not sep:
            continue
        fields, tail = left.split(), right.split()
        if len(fields) < 5 or len(tail) < 3 or tail[0] not in ("cgroup", "cgroup2"):
            continue
        point, root = Path(unescape(fields[4])), unescape(fields[3])
        if tail[0] == "cgroup2":
            mounts.append(Mount(point, root, 2))
        else:
            options = set(tail[2].split(","))
            controllers = frozenset(o for o in options if o not in ("rw", "ro") and "=" not in o)
            if controllers:
                mounts.append(Mount(point, root, 1, controllers))
    return mounts


def parse_proc_cgroup(text: str) -> tuple[dict[frozenset[str], str], str | None]:
    """(v1 controller set -> path, the cgroup2 path or None) from a /proc/<pid>/cgroup text."""
    v1: dict[frozenset[str], str] = {}
    v2 = None
    for line in text.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        hid, ctrls, path = parts
        if hid == "0" and ctrls == "":
            v2 = path
        elif ctrls:
            names = frozenset(c for c in ctrls.split(",") if c and "=" not in c)
            if names:
                v1[names] = path
    return v1, v2


def layout_from(proc_cgroup: str, mountinfo: str, offered: str | None = None, forced: str = "") -> Layout:
    """The layout these texts describe. `offered`: the cgroup2 mount's own cgroup.controllers
    (None: read it from the mount)."""
    mounts = parse_mountinfo(mountinfo)
    v1_paths, v2_path = parse_proc_cgroup(proc_cgroup)
    v1: dict[str, Path] = {}
    for names, path in v1_paths.items():
        mount = next((m for m in mounts if m.version == 1 and m.controllers == names), None)
        d = mount.dir_of(path) if mount is not None else None
        if d is not None:
            v1.update(dict.fromkeys(sorted(names), d))
    v2_mount = next((m for m in mounts if m.version == 2), None)
    v2_dir = v2_mount.dir_of(v2_path) if v2_mount is not None and v2_path is not None else None
    if offered is None and v2_mount is not None:
        offered = read_text(v2_mount.point / "cgroup.controllers")
    return Layout(v1, v2_mount, v2_dir, frozenset((offered or "").split()) if v2_dir else frozenset(),
                  tuple(mounts), forced)


def read_text(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def forced() -> str:
    """GRADER_CGROUP's value ("" when unset; one that names no choice gives no memory cgroup, and
    memory_missing() says why)."""
    return os.environ.get(FORCE_ENV, "").strip().lower()


@functools.cache
def current() -> Layout:
    """This process's layout, read once: a process's cgroups change only when the grader moves it
    (sandbox/cgroup_tree.py, which reads its own directory afresh)."""
    return layout_from(read_text(Path("/proc/self/cgroup")), read_text(Path("/proc/self/mountinfo")),
                       forced=forced())
