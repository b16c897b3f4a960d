"""Boxes, as IOI's isolate has them: a uid of its own for each live player, and a private root.

Manager side: `acquire()` reserves one uid of a range kept for the grader (`UID_BASE` onwards) by
an flock on a file under `SLOTS_DIR`, held for the box's whole life, so no two live players share
a uid, across every grader run on one machine: the uids are the machine's, so their locks are
in one fixed folder whatever GRADER_SANDBOX_RUN_DIR says. The lock file says whether its last
owner let go cleanly; a box left by a manager that died (a `kill -9`) is reclaimed before reuse:
every process of that uid is killed and its cgroups removed. Only the lock decides "its owner is
dead" (the kernel drops it with its holder, in any pid namespace): never a pid. `sweep()` does
that for every box nobody holds, once per manager process, when its first player starts.
Each box's cgroups have a name of their own (uid and a random part), so no grader ever removes
(and kills the tasks of) a cgroup it did not make.

Child side: `private_root(paths)` gives the player a mount namespace whose root (a chroot: the
player has no capability to leave it) is an empty tmpfs holding only `paths`, bind-mounted at
their own places: nothing else of the machine, other
players' staged submissions included, can even be stat-ed or watched, and folders the player's
uid could not traverse (/root of a pyenv install, a 0700 temp folder) are plain 0755 folders there.
"""
from __future__ import annotations

import ctypes
import fcntl
import functools
import logging
import os
import platform
import secrets
import signal
import time
from collections.abc import Iterable
from pathlib import Path

from . import cgroup
from .pidfd import kill_if

log = logging.getLogger(__name__)

# Used as root only (an ordinary user gets neither box uids nor a private root): never a name made
# up in a folder others can write, such as /tmp, where another account could make it first.
RUN_DIR = Path(os.environ.get("GRADER_SANDBOX_RUN_DIR") or "/run/grader-sandbox")
UID_BASE = 1_700_000_000            # far above login uids and the usual subuid ranges
SLOTS = 1000                        # concurrent players on one machine, all grader runs together
ROOT_NAME = "root"                  # RUN_DIR/root: the (empty) mount point of each private root
# The box uids are the machine's: as root their locks are always here (another RUN_DIR would hand
# the same uid to two players).
SLOTS_DIR = Path("/run/grader-sandbox/slots")

CLONE_NEWNS = 0x00020000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REC, MS_PRIVATE = 0x1, 0x2, 0x4, 0x8, 0x1000, 0x4000, 0x40000
MS_REMOUNT, MS_NOATIME = 0x20, 0x400

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


# ----------------------------------------------------------------- manager side: uids
def unavailable_reason() -> str | None:
    """Why players cannot get uids of their own here (None: they can)."""
    if platform.system() != "Linux":
        return f"{platform.system()} has no user ids to switch to here"
    if os.geteuid() != 0:
        return "not root, so the player cannot be given a uid of its own"
    try:
        _slots_dir()
    except OSError as exc:
        return f"{RUN_DIR} cannot be used: {exc.strerror or exc}"
    return None


def _slots_dir() -> Path:
    path = SLOTS_DIR
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    (RUN_DIR / ROOT_NAME).mkdir(mode=0o755, exist_ok=True)
    return path


class Slot:
    """One box held by this manager: the player's uid (and gid), locked until `release()`."""

    def __init__(self, uid: int, fd: int) -> None:
        self.uid = uid
        self.fd: int | None = fd
        self.cgroup_name = f"{cgroup_prefix(uid)}{secrets.token_hex(6)}"   # never an earlier box's

    def release(self) -> None:
        """Mark the box clean and unlock it (the player must be gone)."""
        if self.fd is not None:
            os.ftruncate(self.fd, 0)
            os.close(self.fd)                  # closing drops the flock
            self.fd = None


def acquire() -> Slot:
    """A free box (its leftovers reclaimed first); OSError when every uid of the range is in use."""
    folder = _slots_dir()
    sweep_once()
    start = (os.getpid() * 7919 + time.monotonic_ns()) % SLOTS
    for i in range(SLOTS):
        uid = UID_BASE + (start + i) % SLOTS
        fd = _lock(folder / str(uid))
        if fd is None:
            continue
        if os.pread(fd, 64, 0):                # its last manager died holding it
            reclaim(uid, "its box's last owner ended without releasing it")
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return Slot(uid, fd)
    raise OSError(f"all {SLOTS} player uids from {UID_BASE} are in use")


def unreadable_reason(folder: str, by_path: bool = False) -> str | None:
    """Why a uid of its own could not read this submission folder (None: it can). The grader
    stages folders 0555 and files 0444; a caller's private folder (a 0700 temp dir) keeps the
    player at uid 0 without capabilities, and its protections say why. `by_path`: the player has no
    private root (which mounts the folder where it can be reached), so every folder above it must
    let other users through too (the staging folder is the grader's own, 0700)."""
    try:
        mode = os.stat(folder).st_mode
    except OSError as exc:
        return f"{folder}: {exc.strerror}"
    if mode & 0o005 != 0o005:
        return (f"{folder} is mode {mode & 0o777:o}, not readable by other users, so the player keeps "
                f"uid 0 (stage it readable by others: chmod -R o+rX)")
    above = os.path.dirname(os.path.abspath(folder))
    while by_path and above != os.path.dirname(above):
        if os.stat(above).st_mode & 0o001 == 0:
            return (f"without a private root the player reaches its submission by its path, and {above} "
                    f"lets no other user through, so the player keeps uid 0 without capabilities")
        above = os.path.dirname(above)
    return None


def _lock(path: Path) -> int | None:
    """An fd holding the flock of `path`, or None when someone else holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return fd
    except BlockingIOError:
        os.close(fd)
        return None


def in_use(uid: int) -> bool:
    """Whether a live manager holds box `uid` now (its slot's lock is taken): what it made is its own."""
    fd = _lock(_slots_dir() / str(uid))
    if fd is None:
        return True
    os.close(fd)
    return False


def processes_of(uid: int) -> list[int]:
    """Pids of this pid namespace whose effective uid is `uid` (zombies, already dead, left out)."""
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if os.stat(f"/proc/{name}").st_uid == uid:
                    with open(f"/proc/{name}/stat", "rb") as f:
                        if f.read().rsplit(b")", 1)[1].split()[0] != b"Z":
                            out.append(int(name))
            except (OSError, IndexError):
                pass
    return out


def _runs_as(pid: int, uid: int) -> bool:
    try:
        return os.stat(f"/proc/{pid}").st_uid == uid
    except OSError:
        return False


def cgroup_prefix(uid: int) -> str:
    return f"grader-box-{uid}-"


def reclaim(uid: int, why: str) -> None:
    """Kill whatever still runs as `uid` and remove its cgroups (its box is free, its owner dead:
    the caller holds the box's lock). Each kill is logged with `why`."""
    for _ in range(100):
        pids = processes_of(uid)
        if not pids:
            break
        for pid in pids:
            if kill_if(pid, functools.partial(_runs_as, pid, uid)):
                log.warning("killed pid %s of box uid %s: %s", pid, uid, why)
        time.sleep(0.01)
    for controller in ("memory", "pids", "cpuacct"):
        base = cgroup.own_dir(controller)
        for d in (base.iterdir() if base is not None else ()):
            if d.name.startswith(cgroup_prefix(uid)) or d.name == f"grader-box-{uid}":   # (the old name)
                cgroup.remove_dir(d)


def sweep() -> int:
    """Reclaim every box whose manager died holding it (its lock is free, its file still marked).
    Boxes held by live managers are not touched. Returns how many were reclaimed."""
    reclaimed = 0
    folder = _slots_dir()
    for path in folder.iterdir():
        if not path.name.isdigit():
            continue
        fd = _lock(path)
        if fd is None:
            continue                           # a live manager's player
        try:
            if os.pread(fd, 64, 0):
                reclaim(int(path.name), "the sweep: its box's last owner ended without releasing it")
                os.ftruncate(fd, 0)
                reclaimed += 1
        finally:
            os.close(fd)
    return reclaimed


@functools.cache
def _swept_in(pid: int) -> int:
    return sweep()


def sweep_once() -> None:
    """sweep(), once per manager process (a forked copy sweeps again)."""
    _swept_in(os.getpid())


# ----------------------------------------------------------------- child side: private root
def private_root(paths: Iterable[str], proc: bool = False, writable: Iterable[str] = ()) -> str:
    """Enter a new mount namespace whose root holds only `paths` (root only). Returns a description.
    `proc`: also a /proc of the player's own pid namespace (it must be pid 1 of one, so the mount
    shows no other process), which a program the child execs needs (a JVM, the dynamic loader's
    $ORIGIN through /proc/self/exe). Every bind but those of `writable` (a build's output folder)
    is remounted without access times."""
    root = str(RUN_DIR / ROOT_NAME)
    os.makedirs(root, mode=0o755, exist_ok=True)
    _check(_libc.unshare(CLONE_NEWNS), "unshare(CLONE_NEWNS)")
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    _mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=256k")
    bound: list[str] = []
    for name in os.listdir("/"):                 # /lib -> usr/lib and the like: links only, their
        if os.path.islink("/" + name):           # targets are exposed (or not) by `paths`
            os.symlink(os.readlink("/" + name), f"{root}/{name}")
    for path in sorted({os.path.normpath(p) for p in paths}):
        if os.path.lexists(path):
            _expose(root, path, bound)
    keep = [os.path.normpath(p) for p in writable]
    remounted = [_quiet(root + path) for path in bound          # every one: no short cut
                 if not any(_covered(w, [path]) for w in keep)]     # nor a folder holding a writable one
    quiet = all(remounted)
    # chroot, not pivot_root: detaching the old tree costs up to 5 ms (an RCU grace period), and
    # a process without CAP_SYS_CHROOT (and with seccomp denying chroot) cannot leave a chroot.
    if proc:
        if os.getpid() != 1:
            raise OSError("a /proc for a program needs a pid namespace of its own")
        os.makedirs(root + "/proc", mode=0o555, exist_ok=True)
        _mount("proc", root + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    os.chroot(root)
    os.chdir("/")
    return (f"private root holding {len(bound)} read-only paths" + (", /proc of its own pid namespace" if proc else "")
            + (", no access times" if quiet else ", access times kept (the mounts' atime flags are locked here)"))


GONE = "/.first-turn-gone"          # in a private root: what covers a first-turn file


def hide_in_root(pid: int, paths: list[str], pidfd: int | None = None) -> str | None:
    """Cover `paths` in the private root of process `pid` (its first-turn files, after its first
    move): an empty tmpfs of mode 000 over each folder, an empty file of mode 000 over each file. The player's own
    Landlock domain forgets them too, but only for the thread that served the first move: a
    player that keeps that thread (serving every later call itself) would read on. Done from
    outside, by a short-lived fork of the manager that joins the player's mount namespace.
    Either way the player then gets PermissionError, as from Landlock.
    `pidfd` (a player another process reaps: its template's child): the player is checked to be
    alive after its root was opened, so the root cannot be a later process's with a reused pid.
    Returns None, or why it could not be done."""
    try:
        root = os.open(f"/proc/{pid}/root", os.O_RDONLY | os.O_DIRECTORY)
        mnt = os.open(f"/proc/{pid}/ns/mnt", os.O_RDONLY)
    except OSError as exc:
        return f"the player's root is gone ({exc.strerror})"
    try:
        if pidfd is not None:
            signal.pidfd_send_signal(pidfd, 0)      # ProcessLookupError: it ended, the pid is not its
    except OSError as exc:
        os.close(root)
        os.close(mnt)
        return f"the player is gone ({exc.strerror})"
    try:
        child = os.fork()
        if child == 0:                                   # single-threaded: may join a mount namespace
            code = 1
            try:
                _check(_libc.setns(mnt, CLONE_NEWNS), "setns(mnt)")
                os.fchdir(root)
                os.chroot(".")
                for path in paths:
                    if os.path.isdir(path):
                        _mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV | MS_RDONLY, "mode=000,size=4k")
                    elif os.path.lexists(path):
                        os.close(os.open(GONE, os.O_CREAT | os.O_WRONLY, 0))   # on the root's own tmpfs
                        _mount(GONE, path, None, MS_BIND)
                code = 0
            finally:
                os._exit(code)
        status = os.waitpid(child, 0)[1]
        return None if os.waitstatus_to_exitcode(status) == 0 else "a mount in the player's root failed"
    finally:
        os.close(root)
        os.close(mnt)


def _covered(path: str, bound: list[str]) -> bool:
    return any(path == b or path.startswith(b.rstrip("/") + "/") for b in bound)


def _expose(root: str, path: str, bound: list[str]) -> None:
    """Make `path` reachable under `root`: symlinked components become the same symlinks (and
    their targets are exposed), the first real path is bind-mounted at its own place."""
    parts = path.strip("/").split("/")
    current = ""
    for i, part in enumerate(parts):
        current += "/" + part
        if _covered(current, bound):
            return
        if os.path.islink(current):
            link = root + current
            if not os.path.lexists(link):
                os.makedirs(os.path.dirname(link), mode=0o755, exist_ok=True)
                os.symlink(os.readlink(current), link)
            rest = parts[i + 1:]
            _expose(root, os.path.join(os.path.realpath(current), *rest), bound)
            return
    target = root + path
    if os.path.isdir(path):
        os.makedirs(target, mode=0o755, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), mode=0o755, exist_ok=True)
        open(target, "wb").close()
    _mount(path, target, None, MS_BIND | MS_REC)
    bound.append(path)


def _quiet(target: str) -> bool:
    """A bind mount whose files keep no access time: a read would otherwise move a shared file's
    atime, which another box can stat (a channel). Writing is Landlock's to deny (PermissionError,
    as everywhere else). The mount's locked flags (nosuid, nodev, noexec of the original) are kept;
    a remount the kernel refuses (in a user namespace the atime flags are locked) leaves the bind as
    it was: False."""
    flags = MS_REMOUNT | MS_BIND | MS_NOATIME
    try:
        st = os.statvfs(target)
    except OSError:
        return False
    for bit, flag in ((os.ST_NOSUID, MS_NOSUID), (os.ST_NODEV, MS_NODEV), (os.ST_NOEXEC, MS_NOEXEC)):
        if st.f_flag & bit:
            flags |= flag
    try:
        _mount(None, target, None, flags)
        return True
    except OSError:
        return False


def _enc(text: str | None) -> bytes | None:
    return None if text is None else os.fsencode(text)


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    enc = _enc
    _check(_libc.mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)),
           f"mount {target}")
