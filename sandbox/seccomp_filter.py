"""The child's seccomp filter (through pyseccomp): a deny-list on top of Landlock.

Closes what Landlock leaves open (new processes, UDP and Unix sockets, signals to others,
file locks, leases and inotify watches on the files every box shares,
ptrace, namespaces, chmod/chown of files uid 0 owns, clearing its parent-death signal, making
another process a descriptor's owner, ...) and
what a uid of its own does not
cover: every call that names another process by pid is allowed on the caller only (signals to its
own pid, reading limits with `prlimit64` on pid 0). No player changes how it is limited or
scheduled, not even on itself (NO_SELF_TUNING): its rlimits, scheduling policy and priority, nice
value, I/O priority and CPU affinity are the box's, set before this filter closes (sandbox/confine.py;
a runtime's own wishes, the JVM's, are met there or refused harmlessly). A lowered RLIMIT_CPU was
a way to die by a SIGKILL the grader did not send, SCHED_IDLE a way to hide thinking from the fair
clock (sandbox/blame.py says whose such an end is). Its cgroup is files, which Landlock keeps
unwritable. Denied calls fail with EPERM so the
player sees a plain PermissionError; foreign ABIs (i386 `int 0x80`, x32) kill the process.
`load_library()` must run before Landlock: afterwards libseccomp cannot be opened.
"""
from __future__ import annotations

import ctypes.util
import errno
import os
import signal
from typing import Any

CLONE_THREAD = 0x00010000
AF_UNIX = 1
PR_SET_PDEATHSIG = 1        # clearing it would let the player outlive a killed manager or template
# Making another process a descriptor's owner: the kernel then signals it (SIGIO kills by default,
# F_SETSIG picks any signal) whenever the descriptor is ready -- a `kill` by other means, allowed
# between processes of one uid (an ordinary user's grader) where Landlock has no signal scope (ABI < 6).
SET_OWNER = (("fcntl", 8), ("fcntl", 15), ("ioctl", 0x8901), ("ioctl", 0x8902))   # F_SETOWN(_EX), FIOSETOWN, SIOCSPGRP
# Locks, leases and change notices: every box reads the same interpreter, library and ruleset files,
# and a lock (or a lease, or a watch) on one of them is state another box can see -- a channel from
# one player to another. fcntl's F_GETLK F_SETLK F_SETLKW (the 64-bit ones share the numbers),
# F_OFD_GETLK F_OFD_SETLK F_OFD_SETLKW, F_SETLEASE F_GETLEASE, F_NOTIFY; flock and inotify whole.
# They fail with EOPNOTSUPP ("no locking here"). A build keeps them (cargo's registry and cache
# need flock and SQLite's locks): a lock a build takes is invisible to every player, which can
# neither take nor test one, so it carries nothing to a player.
# The signal argument of each call that sends one. A player may not SIGKILL itself by these calls (a
# POSIX timer can still deliver one, and the portable sandbox has no filter): whatever the route, a
# SIGKILL the grader did not send is the player's own end (sandbox/blame.py), never a replay.
SIGNAL_ARG = (("kill", 1), ("tgkill", 2), ("rt_sigqueueinfo", 1), ("rt_tgsigqueueinfo", 2))
LOCK_COMMANDS = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026)
NO_LOCKS = ("flock", "inotify_init", "inotify_init1", "inotify_add_watch", "fanotify_mark")

# Each denied with EPERM, whatever the arguments.
DENIED = (
    "fork", "vfork", "execve", "execveat",
    "socket", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "kcmp",
    "pidfd_open", "pidfd_getfd", "pidfd_send_signal", "tkill", "process_mrelease",
    "setsid", "setpgid", "personality",
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree",
    "fsopen", "fsmount", "fsconfig", "fspick", "mount_setattr",
    "memfd_create", "memfd_secret", "userfaultfd",
    "keyctl", "add_key", "request_key", "bpf", "perf_event_open", "fanotify_init",
    "open_by_handle_at", "name_to_handle_at", "seccomp",
    "chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "fchown", "lchown", "fchownat",
    "utime", "utimes", "utimensat", "futimesat",
    "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr",
    "shmget", "shmat", "msgget", "msgsnd", "msgrcv", "semget", "semop", "semtimedop", "mq_open",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot",
    "swapon", "swapoff", "acct", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
    "syslog", "quotactl", "iopl", "ioperm", "lookup_dcookie", "vhangup",
)

# Denied whatever the target, the caller itself included: how the player is limited and scheduled
# is the box's to set (before the filter closes), never the player's to change. `prlimit64` is
# denied only when it carries a new limit (argument 2): reading one's own limits stays open.
NO_SELF_TUNING = (
    "setrlimit", "sched_setscheduler", "sched_setparam", "sched_setattr", "sched_setaffinity",
    "setpriority", "nice", "ioprio_set",
)
PRLIMIT_NEW_LIMIT = 2

# Allowed only when the argument at this index (a pid) is 0: the caller itself. Calls that only
# read another process's scheduling data stay open (its pid namespace leaves the player nothing else
# to name); prlimit64 reads and writes in one call, so it is closed to others.
ON_CALLER_ONLY = (("prlimit64", 0), ("migrate_pages", 0), ("move_pages", 0), ("get_robust_list", 0))

_pyseccomp = None


def load_library() -> Any:
    """Import pyseccomp without ctypes.util.find_library's subprocess (slow, and it needs files)."""
    global _pyseccomp
    if _pyseccomp is None:
        original = ctypes.util.find_library
        known = {"c": "libc.so.6", "seccomp": "libseccomp.so.2"}
        ctypes.util.find_library = lambda name: known.get(name) or original(name)
        try:
            import pyseccomp  # here: Linux's only (pyproject's marker), loaded with find_library patched
        finally:
            ctypes.util.find_library = original
        _pyseccomp = pyseccomp
    return _pyseccomp


def describe() -> str:
    """What the host offers, for `protections()`; raises if libseccomp is missing."""
    sc = load_library()
    return (f"libseccomp via pyseccomp {sc.__version__}, deny-list of {len(DENIED) + len(NO_SELF_TUNING) + 7} calls, "
            f"{len(ON_CALLER_ONLY)} more on the caller only, no file locks, leases or watches, "
            f"no change to its own limits, scheduling or CPU affinity")


def install(allow_exec: bool = False, allow_processes: bool = False) -> int:
    """Load the filter into the calling process (all threads: TSYNC). Returns the rule count.
    `allow_exec`: leave `execve` open for the one exec of a program (sandbox/command.py), whose
    target Landlock limits; fork and process clones stay denied, so nothing else can start.
    `allow_processes` (builds only: a compiler driver forks) leaves fork, vfork and clone open too."""
    sc = load_library()
    eperm, me = sc.ERRNO(errno.EPERM), os.getpid()
    flt = sc.SyscallFilter(sc.ALLOW)
    flt.set_attr(sc.Attr.ACT_BADARCH, sc.KILL_PROCESS)
    flt.set_attr(sc.Attr.CTL_TSYNC, 1)
    count = 0
    for name in (*DENIED, *NO_SELF_TUNING):
        if (allow_exec and name == "execve") or (allow_processes and name in ("fork", "vfork")):
            continue
        if sc.resolve_syscall(sc.Arch.NATIVE, name) < 0:
            continue                       # not on this architecture
        flt.add_rule(eperm, name)
        count += 1
    flt.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")         # glibc falls back to clone
    if not allow_processes:
        flt.add_rule(eperm, "clone", sc.Arg(0, sc.MASKED_EQ, CLONE_THREAD, 0))  # threads only
    flt.add_rule(eperm, "socketpair", sc.Arg(0, sc.NE, AF_UNIX))
    flt.add_rule(eperm, "prctl", sc.Arg(0, sc.EQ, PR_SET_PDEATHSIG))
    for name, cmd in SET_OWNER:
        flt.add_rule(eperm, name, sc.Arg(1, sc.EQ, cmd))
    locks = 0
    if not allow_processes:                # a build keeps them: cargo's caches are SQLite and flock
        unsupported = sc.ERRNO(errno.EOPNOTSUPP)
        for cmd in LOCK_COMMANDS:
            flt.add_rule(unsupported, "fcntl", sc.Arg(1, sc.EQ, cmd))
            locks += 1
        for name in NO_LOCKS:
            if sc.resolve_syscall(sc.Arch.NATIVE, name) >= 0:
                flt.add_rule(unsupported, name)
                locks += 1
    for name in ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo"):
        flt.add_rule(eperm, name, sc.Arg(0, sc.NE, me))    # signals to itself only
    for name, arg in SIGNAL_ARG:                           # and never SIGKILL: see SIGNAL_ARG
        flt.add_rule(eperm, name, sc.Arg(arg, sc.EQ, signal.SIGKILL))
    for name, arg in ON_CALLER_ONLY:
        if sc.resolve_syscall(sc.Arch.NATIVE, name) >= 0:
            flt.add_rule(eperm, name, sc.Arg(arg, sc.NE, 0))
    flt.add_rule(eperm, "prlimit64", sc.Arg(PRLIMIT_NEW_LIMIT, sc.NE, 0))     # setting, not reading
    flt.load()
    return count + 8 + len(SET_OWNER) + locks + len(SIGNAL_ARG) + len(ON_CALLER_ONLY)
