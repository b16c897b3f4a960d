"""Process-wide restrictions the child applies to itself before Landlock and seccomp.

Each function does one step and returns a short description of what it applied; it raises
OSError when the step fails, and the child records "missing: <why>" instead.
"""
from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import platform
import resource
import select
import signal
import threading
from collections.abc import Callable, Iterator
from typing import TypeVar

T = TypeVar("T")

PR_SET_NO_NEW_PRIVS = 38
PR_CAPBSET_DROP = 24
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
PR_SET_PDEATHSIG = 1
CLONE_NEWNET, CLONE_NEWPID, CLONE_NEWUSER = 0x40000000, 0x20000000, 0x10000000
CLONE_INTO_CGROUP = 0x200000000
SYS_CLONE3 = 435                    # one number on every architecture: added after the tables were unified
SYS_CLONE = {"x86_64": 56, "aarch64": 220, "riscv64": 220, "ppc64le": 120, "s390x": 120}
STACK_BYTES = 8 * 1024 * 1024
INF = resource.RLIM_INFINITY
_LINUX_CAPABILITY_VERSION_3 = 0x20080522

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def join_cgroups(procs_files: list[str], started_in: str | None = None) -> str:
    """Write our pid into each cgroup.procs, except that of the cgroup v2 directory we were created
    in (`started_in`: clone3 CLONE_INTO_CGROUP). The description names the hierarchies, not the paths."""
    names = []
    for path in procs_files:
        folder = os.path.dirname(path)
        v2 = os.path.exists(os.path.join(folder, "cgroup.controllers"))    # a file only cgroup v2 has
        names.append("cgroup v2" if v2 else os.path.relpath(path, "/sys/fs/cgroup").split("/")[0])
        if started_in is not None and os.path.samefile(folder, started_in):
            names[-1] += " (created in it: clone3 CLONE_INTO_CGROUP)"
            continue
        with open(path, "w") as f:
            f.write(str(os.getpid()))
    return "joined: " + ", ".join(names)


def set_rlimits(address_space_mb: int, nofile: int = 64, nproc: int | None = None, fsize_mb: int = 0) -> str:
    """Every limit a player could have inherited, set to the grader's value (a template's or a
    parent's own limits never count): no CPU-time or data limit of its own (the wall clock, the
    cgroup and RLIMIT_AS are the limits), 8 MiB main stack, RLIMIT_AS, no file writes (a build: files
    up to `fsize_mb`), no core
    dumps, few fds, no locked memory, `nproc` processes+threads (only meaningful for a uid of its
    own: root ignores it, and an ordinary user's other processes would count); 1 MiB thread stacks.
    Without root a limit cannot rise above its inherited hard limit: it is kept at that."""
    limits = {
        resource.RLIMIT_CPU: INF,
        resource.RLIMIT_DATA: INF,
        resource.RLIMIT_STACK: STACK_BYTES,
        resource.RLIMIT_AS: address_space_mb * 1024 * 1024,
        resource.RLIMIT_FSIZE: fsize_mb * 1024 * 1024,
        resource.RLIMIT_CORE: 0,
        resource.RLIMIT_NOFILE: nofile,
        resource.RLIMIT_MEMLOCK: 0,
        resource.RLIMIT_RTPRIO: 0,             # no real-time scheduling (a SCHED_FIFO loop starves its core)
        resource.RLIMIT_NICE: 0,               # no raising its own priority
    }
    if nproc is not None:
        limits[resource.RLIMIT_NPROC] = nproc
    capped = []
    for which, value in limits.items():
        try:
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):          # not root: the hard limit is the ceiling
            hard = resource.getrlimit(which)[1]
            resource.setrlimit(which, (hard, hard))
            capped.append(which)
    threading.stack_size(1024 * 1024)
    text = (f"CPU and DATA unlimited, STACK 8 MiB, AS {address_space_mb} MB, FSIZE {fsize_mb} MB, CORE 0, "
            f"NOFILE {nofile}, MEMLOCK 0, RTPRIO 0, NICE 0" + (f", NPROC {nproc}" if nproc is not None else "") +
            ", thread stack 1 MiB")
    return text + (f" ({len(capped)} kept at their inherited hard limit)" if capped else "")


def pin_cpu(cpu: int) -> str:
    os.sched_setaffinity(0, {cpu})
    return f"CPU {cpu}"


def unshare_network() -> str:
    _check(_libc.unshare(CLONE_NEWNET), "unshare(CLONE_NEWNET)")
    return "empty network namespace (loopback down)"


@functools.cache
def _cap_last() -> int:
    """The highest capability number (read at import: a private root has no /proc)."""
    with open("/proc/sys/kernel/cap_last_cap") as f:
        return int(f.read())


try:
    _cap_last()
except (OSError, ValueError):
    pass


def drop_capabilities(uid: int | None = None) -> str:
    """Lose every capability: the bounding and ambient sets, then (as the player's own uid and gid,
    when given, with no supplementary groups) effective/permitted/inheritable."""
    last = _cap_last()
    for cap in range(last + 1):
        _check(_libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0), f"PR_CAPBSET_DROP {cap}")
    _libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    if uid is not None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    header = (ctypes.c_uint32 * 2)(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()
    _check(_libc.capset(header, data), "capset")
    return f"all {last + 1} dropped" + (f", then uid {uid}" if uid is not None else "")


def die_with_parent(request_fd: int) -> str:
    """SIGKILL when the parent (the manager, or the template that forked us) ends. Set after the
    uid change, which would clear it. A manager that died before this is seen as the hang-up
    of the request pipe, whose only writer it is."""
    _check(_libc.prctl(PR_SET_PDEATHSIG, 9, 0, 0, 0), "PR_SET_PDEATHSIG")
    poller = select.poll()
    poller.register(request_fd, select.POLLHUP)
    if poller.poll(0):
        os._exit(0)
    return "SIGKILL when the parent ends"


def die_with(control_fd: int) -> str:
    """SIGKILL when the thread that started us ends; exit now if the parent has already gone (its
    end of `control_fd`, a socket only it holds, has hung up). For a trusted helper while it cannot
    watch its parent otherwise (a template importing its shim); `outlive_parent()` lifts it. No pid
    is passed: what a template is told, its players could read."""
    _check(_libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "PR_SET_PDEATHSIG")
    poller = select.poll()
    poller.register(control_fd, select.POLLHUP)
    if poller.poll(0):
        os._exit(0)
    return "SIGKILL when the parent ends"


def outlive_parent() -> None:
    """Lift die_with: from here on the caller watches its parent another way."""
    _check(_libc.prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0), "PR_SET_PDEATHSIG 0")


class NamespaceError(OSError):
    """A new namespace could not be made (nothing was started)."""


_own_pid_ns: dict[int, int] = {}


@contextlib.contextmanager
def pid_namespace_for_children() -> Iterator[None]:
    """Processes this thread forks inside the block are each pid 1 of a new pid namespace
    (root only; OSError otherwise). The thread's own namespace is restored on leaving (in the
    forking process only: a forked child leaves the block as pid 1 of its own namespace)."""
    pid = os.getpid()
    if pid not in _own_pid_ns:
        _own_pid_ns.clear()
        _own_pid_ns[pid] = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
    if _libc.unshare(CLONE_NEWPID) != 0:
        err = ctypes.get_errno()
        raise NamespaceError(err, f"unshare(CLONE_NEWPID): {os.strerror(err)}")
    try:
        yield
    finally:
        if os.getpid() == pid:
            _check(_libc.setns(_own_pid_ns[pid], CLONE_NEWPID), "setns(pid)")


def no_new_privs() -> str:
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "PR_SET_NO_NEW_PRIVS")
    return "set"


def in_new_pid_namespace(start: Callable[[], T]) -> tuple[T, str | None]:
    """(start(), None) with the process start() creates as pid 1 of a new pid namespace, or
    (start(), why not) when none can be made (not root, no kernel support)."""
    if os.geteuid() != 0:
        return start(), "not root, so no pid namespace can be made"
    try:
        with pid_namespace_for_children():
            return start(), None
    except NamespaceError as exc:
        return start(), str(exc)


def enter_user_namespace() -> str:
    """Without root: become uid 0 of a new user namespace that maps only our own uid and gid, so
    that pid, network and mount namespaces can be made (single-threaded callers only)."""
    uid, gid = os.getuid(), os.getgid()
    _check(_libc.unshare(CLONE_NEWUSER), "unshare(CLONE_NEWUSER)")
    for name, text in (("uid_map", f"0 {uid} 1"), ("setgroups", "deny"), ("gid_map", f"0 {gid} 1")):
        with open(f"/proc/self/{name}", "w") as f:
            f.write(text)
    return f"user namespace (its uid 0 is uid {uid} outside)"


_pylibc = ctypes.PyDLL(None, use_errno=True)      # keeps the GIL across the call, as os.fork does


def _raw_fork(what: str, *args: object) -> int:
    """os.fork() by the raw system call `args` (a clone or clone3), with Python's own before/after-fork
    steps around it; NamespaceError (nothing started) when it fails."""
    api = ctypes.pythonapi
    api.PyOS_BeforeFork()
    pid: int = _pylibc.syscall(*args)
    err = ctypes.get_errno()
    if pid == 0:
        api.PyOS_AfterFork_Child()
    else:
        api.PyOS_AfterFork_Parent()
    if pid < 0:
        raise NamespaceError(err, f"{what}: {os.strerror(err)}")
    return pid


def fork_into_new_pid_namespace() -> int:
    """os.fork() with the child as pid 1 of a new pid namespace, by a raw clone(2): inside a user
    namespace, unshare+setns cannot go back to the caller's pid namespace (it belongs to the
    parent user namespace)."""
    nr = SYS_CLONE.get(platform.machine())
    if nr is None:
        raise NamespaceError(0, f"clone: unknown system call number on {platform.machine()}")
    return _raw_fork("clone(CLONE_NEWPID)", nr, ctypes.c_ulong(CLONE_NEWPID | signal.SIGCHLD), None, None, None, None)


class CloneArgs(ctypes.Structure):
    """struct clone_args of clone3(2), up to `cgroup` (CLONE_ARGS_SIZE_VER2, Linux 5.7)."""

    _fields_ = [(name, ctypes.c_uint64) for name in (
        "flags", "pidfd", "child_tid", "parent_tid", "exit_signal", "stack", "stack_size", "tls",
        "set_tid", "set_tid_size", "cgroup")]


def fork_into_cgroup(cgroup_fd: int, new_pid_namespace: bool) -> int:
    """os.fork() with the child created inside the cgroup v2 directory open as `cgroup_fd`
    (clone3 CLONE_INTO_CGROUP: it never migrates, so no migration lock or RCU grace period is
    waited for), and with `new_pid_namespace` as pid 1 of a new pid namespace. NamespaceError
    (nothing started) when the kernel refuses: ENOSYS before Linux 5.7, EBUSY for a cgroup that
    is not a leaf, EPERM or EACCES where the caller may not move a process there."""
    flags = CLONE_INTO_CGROUP | (CLONE_NEWPID if new_pid_namespace else 0)
    args = CloneArgs(flags=flags, exit_signal=signal.SIGCHLD, cgroup=cgroup_fd)
    return _raw_fork("clone3(CLONE_INTO_CGROUP)", ctypes.c_long(SYS_CLONE3), ctypes.byref(args),
                     ctypes.c_size_t(ctypes.sizeof(args)))
