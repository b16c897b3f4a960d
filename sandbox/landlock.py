"""A small ctypes binding to Landlock (Linux ≥ 5.13): read-only file access, no TCP, scopes.

Used by the child after it imported everything it needs; `abi_version()` is also used by the
manager to report what the host offers. Rights are limited to what the running ABI knows.
"""
from __future__ import annotations

import ctypes
import os
import platform
from collections.abc import Callable, Iterable, Sequence

SYS_CREATE_RULESET, SYS_ADD_RULE, SYS_RESTRICT_SELF = 444, 445, 446   # same on x86_64 and arm64
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1

FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
FS_ABI1_ALL = (1 << 13) - 1            # execute .. make_sym
FS_REFER = 1 << 13                     # ABI 2
FS_TRUNCATE = 1 << 14                  # ABI 3
FS_IOCTL_DEV = 1 << 15                 # ABI 5
NET_BIND_TCP, NET_CONNECT_TCP = 1, 2   # ABI 4
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1, 2   # ABI 6

READ_FILE_RIGHTS = FS_EXECUTE | FS_READ_FILE
READ_DIR_RIGHTS = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR
FILE_RIGHTS = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV   # the rest are for folders


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64),
                ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


_libc: ctypes.CDLL | None = None


def _syscall() -> Callable[..., int]:
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
        _libc.syscall.restype = ctypes.c_long
    return _libc.syscall


def abi_version() -> int:
    """The Landlock ABI the kernel offers; 0 when unavailable (with no exception)."""
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "aarch64"):
        return 0
    v = _syscall()(SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(CREATE_RULESET_VERSION))
    return max(int(v), 0)


def handled_fs(abi: int) -> int:
    rights = FS_ABI1_ALL
    if abi >= 2:
        rights |= FS_REFER
    if abi >= 3:
        rights |= FS_TRUNCATE
    if abi >= 5:
        rights |= FS_IOCTL_DEV
    return rights


def restrict(read_paths: Iterable[str], abi: int, network: bool = True, scopes: bool = True,
             execute: list[str] | None = None, write: Sequence[str] = ()) -> list[str]:
    """Apply one ruleset to the calling thread (before any other thread exists): read-only
    access beneath `read_paths`, nothing else on the filesystem; no TCP bind/connect (ABI 4+);
    no signals or abstract Unix sockets outside this domain (ABI 6+). Needs NO_NEW_PRIVS.
    With `execute` (a program's run, sandbox/command.py) only those files may be executed and
    the read paths lose the EXECUTE right; `write` folders are writable.
    Returns the paths skipped because they do not exist. Raises OSError on failure."""
    call = _syscall()
    attr = _RulesetAttr(handled_fs(abi), 0, 0)
    size = ctypes.sizeof(_RulesetAttr) if abi >= 6 else (16 if abi >= 4 else 8)
    if network and abi >= 4:
        attr.handled_access_net = NET_BIND_TCP | NET_CONNECT_TCP
    if scopes and abi >= 6:
        attr.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL
    ruleset = call(SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
    no_exec = 0 if execute is None else FS_EXECUTE
    grants = [(p, READ_DIR_RIGHTS & ~no_exec, READ_FILE_RIGHTS & ~no_exec) for p in read_paths]
    grants += [(p, READ_DIR_RIGHTS, READ_FILE_RIGHTS) for p in execute or ()]
    grants += [(p, handled_fs(abi), handled_fs(abi) & FILE_RIGHTS) for p in write]
    skipped = []
    try:
        for path, dir_rights, file_rights in grants:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                skipped.append(path)
                continue
            try:
                is_dir = os.path.isdir(path)
                rule = _PathBeneathAttr(dir_rights if is_dir else file_rights, fd)
                if call(SYS_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(RULE_PATH_BENEATH),
                        ctypes.byref(rule), ctypes.c_uint32(0)) < 0:
                    raise OSError(ctypes.get_errno(), f"landlock_add_rule failed for {path}")
            finally:
                os.close(fd)
        if call(SYS_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) < 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
    finally:
        os.close(ruleset)
    return skipped
