"""What this host can apply, measured without starting a player: `sandbox.protections()`.

Never claims a layer it does not have: a missing one reads "missing: <why>". Where players run in
the portable sandbox (macOS, Windows, GRADER_SANDBOX=portable), `sandbox.protections()` is that
sandbox's own list instead (sandbox/__init__.py chooses, as it chooses `PlayerProcess`).
"""
from __future__ import annotations

import functools
import os
import platform
import subprocess
import sys
from collections.abc import Callable

from . import blame, pinning
from .layers import LAYERS as LAYERS  # the names protections() reports, in its order
from .limits import Limits


@functools.cache
def cgroup_reason() -> str | None:
    """Why per-player cgroups are unavailable (None: available). Cached: it does not change."""
    if platform.system() != "Linux":
        return f"{platform.system()} has no cgroups"
    from . import cgroup  # here: Linux only, absent where the portable sandbox runs
    return cgroup.unavailable_reason()


@functools.cache
def cgroup_probe(memory_mb: int) -> str | None:
    """Why a player's cgroup could not be made just now, or None: one is made and removed, so the
    answer is what the kernel allowed, not what the files suggest. Cached: once a process."""
    from . import cgroup  # here: Linux only, like cgroup_reason
    try:
        cgroup.PlayerCgroup(memory_mb).remove()
    except OSError as exc:
        return f"a trial cgroup could not be made: {exc.strerror or exc}"
    return None


def memory_row(memory_mb: int) -> str:
    """The memory protection a player gets from its cgroup here (cgroup_reason() is None)."""
    from . import cgroup  # here: Linux only, like cgroup_reason
    if cgroup.version() == 2:
        tree = cgroup.subtree()
        pids = f", pids.max {cgroup.PIDS_MAX}" if "pids" in tree.controllers else ", missing: pids not delegated"
        return f"cgroup v2 {memory_mb} MB (OOM kill → memory verdict){pids}; {tree.note}"
    pids = f", pids.max {cgroup.PIDS_MAX}" if cgroup.own_dir("pids") is not None else ", missing: no pids hierarchy"
    return f"cgroup v1 {memory_mb} MB (OOM kill → memory verdict){pids}"


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
    return namespaces_probe()


# unshare(CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET) in a fresh interpreter, its errno the exit status.
NAMESPACES_PROBE = ("import ctypes, sys; libc = ctypes.CDLL(None, use_errno=True); "
                    "sys.exit(0 if libc.unshare(0x00020000 | 0x20000000 | 0x40000000) == 0 else ctypes.get_errno())")


@functools.cache
def namespaces_probe() -> str | None:
    """Why root cannot make the mount, pid and network namespaces a player needs here (None: it
    can): tried in a process of its own, since root in a container (Docker's default seccomp
    profile and capabilities, no CAP_SYS_ADMIN) is refused them. Cached: once a process."""
    try:
        done = subprocess.run([sys.executable, "-S", "-c", NAMESPACES_PROBE], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"the namespace probe could not run: {exc}"
    if done.returncode == 0:
        return None
    if done.returncode > 0:
        return (f"unshare(CLONE_NEWNS|CLONE_NEWPID|CLONE_NEWNET): {os.strerror(done.returncode)} "
                f"(a container without CAP_SYS_ADMIN, or a seccomp policy, forbids new namespaces)")
    return f"the namespace probe ended by signal {-done.returncode}"


def unmet(required: list[str], prot: dict[str, str]) -> dict[str, str]:
    """Each required layer `prot` (protections()) does not fully apply, with its state. The portable
    sandbox (macOS, Windows, GRADER_SANDBOX=portable) meets no requirement."""
    if "sandbox" in prot:
        return dict.fromkeys(required, prot["sandbox"])
    return {name: prot.get(name, "missing: not reported") for name in required
            if "missing" in prot.get(name, "missing")}


# A player's ready report (sandbox/child.py) names some layers apart from protections(): its own name -> ours.
READY_NAMES = {"netns": "network"}


def as_held(prot: dict[str, str], ready: dict[str, str]) -> dict[str, str]:
    """`prot` (protections()) corrected by one player's ready report: where the player said a layer
    was missing that the host's list claims (or the reverse), the player's word stands, since it
    is what the kernel did for it. Layers the two agree on keep the host's description."""
    out = dict(prot)
    if "sandbox" in prot:                      # the portable sandbox's list is already its players'
        return out
    for name, state in ready.items():
        ours = READY_NAMES.get(name, name)
        if ours in out and out[ours].startswith("missing") != state.startswith("missing"):
            out[ours] = state
    return out


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
    reason = cgroup_reason() or cgroup_probe(limits.memory_mb)
    out["memory"] = (memory_row(limits.memory_mb) if reason is None else
                     f"RLIMIT_AS {limits.memory_mb} MB; missing: a memory cgroup ({reason})")
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    out["capabilities"] = ("all dropped" if root else "none to drop (not root)") + \
        (" (then the player's own uid)" if root and uid_reason() is None else "")
    reason = uid_reason()
    out["uid"] = (f"a uid of its own per player ({box.UID_BASE} onwards, locked under {box.RUN_DIR})"
                  if reason is None else f"missing: {reason}")
    if reason is None and root and pid_namespace_reason() is not None:
        out["uid"] += ("; missing: without a private root only for a submission other users can reach by its path "
                       "(the grader's staging folder is 0700, so there the player keeps uid 0 without capabilities)")
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
    out["cpu"] = ("each player pinned to one CPU (sched_setaffinity before its filter; the caller's, else the "
                  "next in turn), its threads' CPU all charged" if pinning.can_pin() else
                  "missing: no sched_setaffinity here, so a player's threads may share every CPU")
    cgroups = out["memory"].startswith("cgroup")
    if cgroups and cgroup.version() == 2:
        out["cpu_time"] = "move limits on CPU time from the player's cgroup cpu.stat usage_usec (µs), all threads"
    elif cgroups and cgroup.own_dir("cpuacct") is not None:
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


USERNS_FIXES = {"user.max_user_namespaces is 0": "sysctl -w user.max_user_namespaces=15000",
                "kernel.unprivileged_userns_clone is 0": "sysctl -w kernel.unprivileged_userns_clone=1",
                "AppArmor restricts unprivileged user namespaces":
                    "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"}
AS_ROOT = "run the grader as root (sudo), which also gives each player a uid of its own"
CONTAINER = ("give the grader's container CAP_SYS_ADMIN and a seccomp profile that allows unshare "
             "(docker run --cap-add SYS_ADMIN --security-opt seccomp=unconfined), or grade outside a container")
DELEGATE = ("run the grader in a systemd unit with Delegate=yes (systemd-run --scope -p Delegate=yes grader …; "
            "as an ordinary user add --user)")


def cgroup_fix() -> str:
    """The one change that gives players memory cgroups here (cgroup_reason() is not None)."""
    if platform.system() != "Linux":
        return "run the grader on Linux"
    from . import cgroup_layout  # here: Linux only, like cgroup_reason
    layout = cgroup_layout.current()
    if layout.forced:
        return f"unset {cgroup_layout.FORCE_ENV} (it is {layout.forced!r})"
    version = layout.memory_version()
    if version is None:
        return "mount the cgroup2 hierarchy (mount -t cgroup2 none /sys/fs/cgroup) or boot with cgroups enabled"
    if version == 1:
        return AS_ROOT + "; on a cgroup v2 host, a systemd unit with Delegate=yes does it without root"
    return DELEGATE + (", or run it as root" if os.geteuid() != 0 else "")


def fixes(prot: dict[str, str]) -> dict[str, str]:
    """For each layer of `prot` (protections()) that is missing or partly missing, the one-line
    change to this host that gives it, from the same facts protections() read."""
    if "sandbox" in prot:                      # the portable sandbox: no layer can be added here
        return {"sandbox": "grade on Linux: only there does the sandbox confine files, network and processes"}
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    userns = None if root else userns_reason()
    namespaces = AS_ROOT if not root or namespaces_probe() is None else CONTAINER
    if userns is not None:
        namespaces = next((fix for why, fix in USERNS_FIXES.items() if why in userns), AS_ROOT)
    where: dict[str, Callable[[], str]] = {
        "memory": cgroup_fix, "uid": lambda: namespaces if root else AS_ROOT, "capabilities": lambda: AS_ROOT,
        "pid_namespace": lambda: namespaces, "private_root": lambda: namespaces,
        "first_turn": lambda: namespaces, "network": lambda: namespaces, "parent_death": lambda: namespaces,
        "landlock": lambda: "a Linux 5.13+ kernel with Landlock among its security modules (boot option lsm=…,landlock)",
        "seccomp": lambda: "install libseccomp (apt-get install libseccomp2)",
        "self_tuning": lambda: "install libseccomp (apt-get install libseccomp2)"}
    return {name: where[name]() for name, state in prot.items() if "missing" in state and name in where}


def advice(prot: dict[str, str]) -> list[str]:
    """Changes that make this host's sandbox (`prot`, protections()) faster, not safer; one line each."""
    if "sandbox" in prot or platform.system() != "Linux" or cgroup_reason() is not None:
        return []
    from . import cgroup  # here: Linux only, like cgroup_reason
    if cgroup.version() != 1:
        return []
    try:
        with open("/sys/kernel/rcu_expedited") as f:
            expedited = f.read().strip() != "0"
    except OSError:
        return []
    if expedited:
        return []
    return [("players join their cgroup v1 by migration, each waiting out an RCU grace period (most of a player's "
             "start): echo 1 > /sys/kernel/rcu_expedited (boot option rcupdate.rcu_expedited=1), or a cgroup v2 host")]
