"""Reading what a sandboxed build left behind without ever leaving its folder or following a link.

A build runs as the student (the box's uid) and may leave anything in its folder: symlinks to
root-only files, FIFOs, hard links, ten thousand files, or a process still renaming things. The
grader runs as root, so every path under that folder is resolved from an open descriptor of the
folder: with `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)` where the kernel has it (5.6+), else
one `openat(O_NOFOLLOW)` per path component. Files are opened `O_NONBLOCK` (a FIFO never blocks
the grader), checked with `fstat` to be regular files, and read through that descriptor only;
copies are new files the grader creates itself, so no `chmod`/`chown` ever lands on a path the
student could shape.
"""
from __future__ import annotations

import ctypes
import errno
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SYS_OPENAT2 = {"x86_64": 437, "aarch64": 437}.get(os.uname().machine) if hasattr(os, "uname") else None
RESOLVE_NO_MAGICLINKS, RESOLVE_NO_SYMLINKS, RESOLVE_BENEATH = 0x02, 0x04, 0x08
DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
CHUNK = 1 << 20


class NotTaken(Exception):
    """A build's folder holds something the grader will not take; str() is the sentence for the student."""


class _OpenHow(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64), ("resolve", ctypes.c_uint64)]


_libc = ctypes.CDLL(None, use_errno=True) if SYS_OPENAT2 is not None else None
_openat2_works = SYS_OPENAT2 is not None


def _openat2(dirfd: int, rel: str, flags: int) -> int:
    how = _OpenHow(flags, 0, RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)
    assert _libc is not None and SYS_OPENAT2 is not None
    fd = _libc.syscall(ctypes.c_long(SYS_OPENAT2), ctypes.c_int(dirfd), ctypes.c_char_p(os.fsencode(rel)),
                       ctypes.byref(how), ctypes.c_size_t(ctypes.sizeof(how)))
    if fd < 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err), rel)
    return int(fd)


def _components(rel: str) -> list[str]:
    parts = rel.split("/")
    if not rel or rel.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise NotTaken(f"{rel!r} is not a plain path inside the build's folder.")
    return parts


def open_beneath(dirfd: int, rel: str, flags: int = FILE) -> int:
    """A descriptor for `rel` (a relative path) under the folder `dirfd`, no component a link and
    nothing outside it; OSError (ELOOP for a link, EXDEV for an escape) otherwise."""
    global _openat2_works
    parts = _components(rel)
    if _openat2_works:
        try:
            return _openat2(dirfd, rel, flags)
        except OSError as exc:
            if exc.errno not in (errno.ENOSYS, errno.EPERM, errno.E2BIG):   # no openat2 here (or a filter denies it)
                raise
            _openat2_works = False
    fd = os.dup(dirfd)
    try:
        for part in parts[:-1]:
            nxt = os.open(part, DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = nxt
        return os.open(parts[-1], flags | os.O_NOFOLLOW, dir_fd=fd)
    finally:
        os.close(fd)


@dataclass
class Tally:
    """What a folder holds, counted without following links: entries of every type, and bytes
    (a file's apparent size or its allocated blocks, whichever is larger)."""

    files: int = 0
    bytes: int = 0


def entries(dirfd: int, prefix: str = "") -> Iterator[tuple[str, os.stat_result, int]]:
    """(relative path, lstat, parent folder's fd) of everything under `dirfd`, depth first; each
    sub-folder is opened with O_NOFOLLOW from its parent's descriptor, so a link is never entered."""
    with os.scandir(dirfd) as listing:
        names = [e.name for e in listing]
    for name in names:
        try:
            st = os.stat(name, dir_fd=dirfd, follow_symlinks=False)
        except OSError:
            continue                              # gone meanwhile
        rel = f"{prefix}{name}"
        yield rel, st, dirfd
        if stat.S_ISDIR(st.st_mode):
            try:
                sub = os.open(name, DIRECTORY, dir_fd=dirfd)
            except OSError:
                continue                          # replaced by a link or removed meanwhile: never followed
            try:
                yield from entries(sub, rel + "/")
            finally:
                os.close(sub)


def tally(folder: Path, stop_files: int | None = None, stop_bytes: int | None = None) -> Tally:
    """Count a folder's entries and bytes; stops early once over either `stop_` figure."""
    count = Tally()
    fd = os.open(folder, DIRECTORY)
    try:
        for _, st, _ in entries(fd):
            count.files += 1
            count.bytes += max(st.st_size, st.st_blocks * 512) if stat.S_ISREG(st.st_mode) else 0
            if (stop_files is not None and count.files > stop_files) or \
                    (stop_bytes is not None and count.bytes > stop_bytes):
                break
    finally:
        os.close(fd)
    return count


def copy_out(src_fd: int, dest: Path, mode: int, max_bytes: int) -> int:
    """Copy the regular file open as `src_fd` into a new file `dest` (created here, `mode`); its size."""
    st = os.fstat(src_fd)
    if not stat.S_ISREG(st.st_mode):
        raise NotTaken("it is not a regular file")
    if st.st_size > max_bytes:
        raise NotTaken(f"it is {st.st_size / 1e6:.1f} MB, over the {max_bytes / 1e6:g} MB a build may leave")
    os.set_blocking(src_fd, True)
    out = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    size = 0
    try:
        while chunk := os.read(src_fd, CHUNK):
            size += len(chunk)
            if size > max_bytes:
                raise NotTaken(f"it grew over the {max_bytes / 1e6:g} MB a build may leave while being copied")
            view = memoryview(chunk)
            while view:
                view = view[os.write(out, view):]
        os.fchmod(out, mode)                      # our own new file's descriptor, never a path
    finally:
        os.close(out)
    return size
