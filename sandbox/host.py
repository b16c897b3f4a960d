"""What this host can apply, measured without starting a player: `sandbox.protections()`.

Never claims a layer it does not have: a missing one reads "missing: <why>". Where players run in
the portable sandbox (macOS, Windows, GRADER_SANDBOX=portable), `sandbox.protections()` is that
sandbox's own list instead (sandbox/__init__.py chooses, as it chooses `PlayerProcess`).
"""
from __future__ import annotations

import functools
import os
import platform

from . import blame
from .limits import Limits


@functools.cache
def cgroup_reason() -> str | None:
    """Why per-player cgroups are unavailable (None: available). Cached: it does not change."""
    if platform.system() != "Linux":
        return f"{platform.system()} has no cgroups"
    from . import cgroup  # here: Linux only, absent where the portable sandbox runs
    return cgroup.unavailable_reason()


@functools.cache
def uid_reason() -> str | None:
    """Why players cannot run as uids of their own (sandbox/box.py) here (None: they can)."""
    from . import box  # here: box.py is Linux's (fcntl, namespaces); a portable sandbox's host never loads it

    return box.unavailable_reason()


def pid_namespace_reason() -> str | None:
    """Why players cannot be pid 1 of pid namespaces of their own (None: they can; without root
    only pre-forked ones, whose template enters a user namespace)."""
    if platform.system() != "Linux":
        return f"{platform.system()} has no pid namespaces"
    if os.geteuid() != 0:
        return userns_reason()
    return None


USERNS_SYSCTLS = (("/proc/sys/user/max_user_namespaces", "0", "user.max_user_namespaces is 0"),
                  ("/proc/sys/kernel/unprivileged_userns_clone", "0", "kernel.unprivileged_userns_clone is 0"),
                  ("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", "1",
                   "AppArmor restricts unprivileged user namespaces"))


@functools.cache
def userns_reason() -> str | None:
    """Why an ordinary user cannot make a user namespace here (None: the sysctls allow it)."""
    if platform.system() != "Linux":
        return f"{platform.system()} has no user namespaces"
    for path, bad, why in USERNS_SYSCTLS:
        try:
            with open(path) as f:
                if f.read().strip() == bad:
                    return f"not root, and {why}"
        except OSError:
            pass
    return None


FIRST_TURN_NOT_ENFORCED = "not enforced for this user"


def first_turn_row(root: bool, private_root_missing: str | None) -> str:
    """How the files readable only until the first reply are taken away after it (a thread the
    player started before its first move keeps its Landlock domain, so only a mount covers them)."""
    if root and private_root_missing is None:
        return "covered in the player's private root after its first move: unreadable to every thread"
    why = "not root" if not root else private_root_missing
    return (f"missing: {FIRST_TURN_NOT_ENFORCED} ({why}): first-turn files are taken away only by the player's "
            f"own process after its first move, from the thread that served it (Landlock binds one thread), so "
            f"a thread the player started before it (a Java thread too), or a Python player that patches its "
            f"bootstrap through a frame it can reach, can still read them")


def protections(limits: Limits | None = None) -> dict[str, str]:
    # here: Linux's layers, never loaded where the portable sandbox runs (tests/sandbox/test_portable.py)
    from . import box, cgroup, landlock
    limits = limits or Limits()
    linux = platform.system() == "Linux"
    out: dict[str, str] = {}
    abi = landlock.abi_version() if linux else 0
    if abi:
        extra = ", TCP bind/connect denied" if abi >= 4 else ""
        extra += ", signal and abstract-socket scopes" if abi >= 6 else ""
        out["landlock"] = (f"ABI {abi}: read-only interpreter, libraries, the sandbox and the shim's own files "
                           f"(never the grader's engines or probes), submission{extra}")
    else:
        out["landlock"] = "missing: the kernel offers no Landlock (Linux 5.13+ needed)" if linux else \
            f"missing: {platform.system()} has no Landlock"
    try:
        from . import seccomp_filter  # here: Linux only, like the layers above
        out["seccomp"] = seccomp_filter.describe() if linux else "missing: not Linux"
    except Exception as exc:
        out["seccomp"] = f"missing: {exc}"
    reason = cgroup_reason()
    out["memory"] = (f"cgroup v1 {limits.memory_mb} MB (OOM kill → memory verdict), pids.max {cgroup.PIDS_MAX}"
                     if reason is None else f"RLIMIT_AS {limits.memory_mb} MB; missing: a memory cgroup ({reason})")
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    out["capabilities"] = ("all dropped" if root else "none to drop (not root)") + \
        (" (then the player's own uid)" if root and uid_reason() is None else "")
    reason = uid_reason()
    out["uid"] = (f"a uid of its own per player ({box.UID_BASE} onwards, locked under {box.RUN_DIR})"
                  if reason is None else f"missing: {reason}")
    reason = pid_namespace_reason()
    userns = "" if root else " (pre-forked start, in a user namespace; none when spawned)"
    out["pid_namespace"] = (f"pid 1 of its own pid namespace: no other process visible{userns}"
                            if reason is None else f"missing: {reason}")
    out["private_root"] = (f"a mount namespace holding only the read-only paths{userns}"
                           if reason is None else f"missing: {reason}")
    out["first_turn"] = first_turn_row(root, reason)
    out["parent_death"] = (("players, pre-fork templates and builds end with a killed manager (PR_SET_PDEATHSIG, a "
                            "template's control socket" + ("; a build's compiler processes with its pid namespace)"
                                                           if reason is None else
                                                           f"); missing: a build's compiler processes can outlive it "
                                                           f"(no pid namespace: {reason})"))
                           if linux else "missing: not Linux")
    out["no_new_privs"] = "set" if linux else "missing: not Linux"
    out["network"] = (f"empty network namespace{userns}" if reason is None else f"missing netns: {reason}") + \
        (", seccomp denies socket()" if "missing" not in out["seccomp"] else "")
    out["rlimits"] = ("CPU, DATA, STACK, AS, FSIZE 0, CORE 0, NOFILE 64, MEMLOCK 0, NPROC: all reset"
                      if hasattr(os, "sched_setaffinity") or linux \
        else "missing: no POSIX rlimits")
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
    out["self_tuning"] = blame.self_tuning_row(out["seccomp"], out["landlock"])
    out["blame"] = blame.RULE
    return out
