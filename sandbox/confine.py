"""Process-wide restrictions the child applies to itself before Landlock and seccomp.

Each function does one step and returns a short description of what it applied; it raises
OSError when the step fails, and the child records "missing: <why>" instead.
"""
from __future__ import annotations

import ctypes
import os
import resource
import threading

PR_SET_NO_NEW_PRIVS = 38
PR_CAPBSET_DROP = 24
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
CLONE_NEWNET = 0x40000000
_LINUX_CAPABILITY_VERSION_3 = 0x20080522

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def join_cgroups(procs_files: list[str]) -> str:
    for path in procs_files:
        with open(path, "w") as f:
            f.write(str(os.getpid()))
    return ", ".join(os.path.dirname(p) for p in procs_files)


def set_rlimits(address_space_mb: int, nofile: int = 64, fsize_mb: int = 0) -> str:
    """RLIMIT_AS, no file writes (a build: files up to `fsize_mb`), no core dumps, few fds, no
    locked memory; 1 MiB thread stacks."""
    limits = {
        resource.RLIMIT_AS: address_space_mb * 1024 * 1024,
        resource.RLIMIT_FSIZE: fsize_mb * 1024 * 1024,
        resource.RLIMIT_CORE: 0,
        resource.RLIMIT_NOFILE: nofile,
        resource.RLIMIT_MEMLOCK: 0,
    }
    for which, value in limits.items():
        resource.setrlimit(which, (value, value))
    threading.stack_size(1024 * 1024)
    return (f"AS {address_space_mb} MB, FSIZE {fsize_mb} MB, CORE 0, NOFILE {nofile}, MEMLOCK 0, "
            f"thread stack 1 MiB")


def pin_cpu(cpu: int) -> str:
    os.sched_setaffinity(0, {cpu})
    return f"CPU {cpu}"


def unshare_network() -> str:
    _check(_libc.unshare(CLONE_NEWNET), "unshare(CLONE_NEWNET)")
    return "empty network namespace (loopback down)"


def drop_capabilities() -> str:
    """Root keeps uid 0 (the interpreter under /root is unreachable for other uids) but loses
    every capability: bounding set, ambient set, then effective/permitted/inheritable."""
    last = int(open("/proc/sys/kernel/cap_last_cap").read())
    for cap in range(last + 1):
        _check(_libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0), f"PR_CAPBSET_DROP {cap}")
    _libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = (ctypes.c_uint32 * 2)(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()
    _check(_libc.capset(header, data), "capset")
    return f"all {last + 1} dropped (uid 0 without capabilities)"


def no_new_privs() -> str:
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "PR_SET_NO_NEW_PRIVS")
    return "set"
