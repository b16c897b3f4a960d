"""What this host can apply, measured without starting a player: `sandbox.protections()`.

Never claims a layer it does not have: a missing one reads "missing: <why>".
"""
from __future__ import annotations

import functools
import os
import platform

from . import cgroup, landlock
from .limits import Limits


@functools.lru_cache(maxsize=None)
def cgroup_reason() -> str | None:
    """Why per-player cgroups are unavailable (None: available). Cached: it does not change."""
    if platform.system() != "Linux":
        return f"{platform.system()} has no cgroups"
    return cgroup.unavailable_reason()


def protections(limits: Limits | None = None) -> dict[str, str]:
    limits = limits or Limits()
    linux = platform.system() == "Linux"
    out: dict[str, str] = {}
    abi = landlock.abi_version() if linux else 0
    if abi:
        extra = ", TCP bind/connect denied" if abi >= 4 else ""
        extra += ", signal and abstract-socket scopes" if abi >= 6 else ""
        out["landlock"] = f"ABI {abi}: read-only interpreter, libraries, sandbox/rulesets, submission{extra}"
    else:
        out["landlock"] = "missing: the kernel offers no Landlock (Linux 5.13+ needed)" if linux else \
            f"missing: {platform.system()} has no Landlock"
    try:
        from . import seccomp_filter
        out["seccomp"] = seccomp_filter.describe() if linux else "missing: not Linux"
    except Exception as exc:
        out["seccomp"] = f"missing: {exc}"
    reason = cgroup_reason()
    out["memory"] = (f"cgroup v1 {limits.memory_mb} MB (OOM kill → memory verdict), pids.max {cgroup.PIDS_MAX}"
                     if reason is None else f"RLIMIT_AS {limits.memory_mb} MB (no cgroup: {reason})")
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    out["capabilities"] = "all dropped (root keeps uid 0 without capabilities)" if root else \
        "none to drop (not root)"
    out["no_new_privs"] = "set" if linux else "missing: not Linux"
    out["network"] = ("empty network namespace" if root and linux else "missing netns: not root") + \
        (", seccomp denies socket()" if "missing" not in out["seccomp"] else "")
    out["rlimits"] = "AS, FSIZE 0, CORE 0, NOFILE 64, MEMLOCK 0" if hasattr(os, "sched_setaffinity") or linux \
        else "missing: no POSIX rlimits"
    out["cpu"] = "sched_setaffinity to Limits.cpu" if hasattr(os, "sched_setaffinity") else \
        "missing: no sched_setaffinity"
    if reason is None and cgroup.own_dir("cpuacct") is not None:
        out["cpu_time"] = "move limits on CPU time from the player's cgroup cpuacct.usage (ns), all threads"
    elif linux:
        out["cpu_time"] = "move limits on CPU time from the process CPU clock (ns), all threads"
    else:
        out["cpu_time"] = (f"missing: {platform.system()} has no CPU clock of another process readable here; "
                           f"the wall clock stands in")
    out["freeze"] = "SIGSTOP/SIGCONT of the process group between calls" if hasattr(os, "killpg") else \
        "missing: no process groups"
    return out
