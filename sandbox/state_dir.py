"""The grader's own folder for what it keeps between steps and runs: compiled Java API classes,
cached builds and their scratch folders, staged submissions, course environments.

Why one private folder: a fixed name in /tmp (or in any folder others can write) can be made first
by another account, as a folder of its own or as a link to somewhere else; a root grader that then
changed its mode, or wrote into it, acted on a file it did not own (a root-only folder made 755).
So the root is `$GRADER_STATE_DIR` when set; else `$XDG_CACHE_HOME/grader` (or `~/.cache/grader`)
when that folder and the home are this user's own; else a `mkdtemp` folder for this run (a name
nobody can guess), handed to child processes through GRADER_STATE_DIR and removed at exit.

Every folder here is made by `own_folder`: mkdir relative to an open descriptor of its parent (a
parent only this user or root can change, or a sticky one), opened again with O_NOFOLLOW, and
checked (a folder, this user's, closed to others' writes) before its mode is set through that
descriptor. A link, a file or a folder someone else made is refused with one sentence that names
it, and never changed. The root is 0700, so nothing under it can be made or swapped by anyone
else; players reach what they need of it through their private root's bind mounts (sandbox/box.py),
which need no way through the folders above.
"""
from __future__ import annotations

import atexit
import os
import shutil
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

STATE_ENV = "GRADER_STATE_DIR"
POSIX = hasattr(os, "geteuid") and hasattr(os, "O_NOFOLLOW")     # Windows: the profile's folders are private by ACL


class StateUnsafe(OSError):
    """A folder of the grader's state exists but is not this user's alone; the message says which."""


def root() -> Path:
    """The private root of the grader's state (0700, this user's), made on first use."""
    chosen = os.environ.get(STATE_ENV)
    if chosen:
        return own_folder(Path(chosen), 0o700, what="the grader's state folder", env=STATE_ENV)
    cache = _cache_home()
    if cache is not None:
        try:
            return own_folder(cache / "grader", 0o700, what="the grader's state folder", env=STATE_ENV)
        except StateUnsafe:
            raise
        except OSError:                  # a read-only home: this run's own folder instead
            pass
    run = Path(tempfile.mkdtemp(prefix="grader-state-"))      # 0700, a name nobody can guess
    os.environ[STATE_ENV] = str(run)
    atexit.register(_remove_run_folder, run, os.getpid())
    return run


def folder(name: str, env: str = "", mode: int = 0o700) -> Path:
    """The state folder `name` (`compiled`, `staged`, …): `$env` when that is set, else under `root()`."""
    chosen = os.environ.get(env) if env else None
    where = Path(chosen) if chosen else root() / name
    return own_folder(where, mode, what=f"the grader's {name} folder", env=env or STATE_ENV)


def describe() -> str:
    """The `grader doctor` row: where the state is kept, and the rule."""
    try:
        where = root()
    except OSError as exc:
        return f"missing: {exc}"
    return (f"caches, staged copies, builds and course environments in {where} (0700, this user's): made "
            f"without following links, owner checked before any mode change, no fixed name in a shared folder")


def _cache_home() -> Path | None:
    """The user's own cache folder ($XDG_CACHE_HOME, else ~/.cache) when the home is its own, or
    None (a HOME kept by sudo from another account, none at all)."""
    home = os.path.expanduser("~")
    if not POSIX:
        return Path(home) / ".cache" if os.path.isabs(home) else None
    if not os.path.isabs(home) or not _owned(home):
        return None
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) if _owned(xdg) else None
    cache = Path(home) / ".cache"
    try:
        own_folder(cache, None, what="the cache folder", env="XDG_CACHE_HOME")
    except OSError:
        return None
    return cache


def _owned(path: str) -> bool:
    try:
        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid() and not st.st_mode & 0o022


def own_folder(path: Path, mode: int | None, what: str, env: str) -> Path:
    """`path`, a folder of this user's that no one else may write, made (with `mode`) if missing;
    an existing one gets `mode` only after it is seen to be ours (None: its mode is left as it is).
    StateUnsafe, naming `what` and the variable `env` that chooses another place, otherwise."""
    parent = path.parent
    parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    if not POSIX:
        path.mkdir(exist_ok=True)
        return path
    up = os.open(parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        pst = os.fstat(up)
        if pst.st_uid not in (0, os.geteuid()) or (pst.st_mode & 0o022 and not pst.st_mode & stat.S_ISVTX):
            raise StateUnsafe(f"{what} {path} is in {parent}, which other users can change; "
                              f"set {env} to a folder of your own")
        try:
            os.mkdir(path.name, mode if mode is not None else 0o700, dir_fd=up)
        except FileExistsError:
            pass
        try:
            fd = os.open(path.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=up)
        except OSError as exc:           # ELOOP: a link; ENOTDIR: a file
            raise StateUnsafe(f"{what} {path} is not a folder (a link, or a file); remove it or set {env} "
                              f"to another place") from exc
    finally:
        os.close(up)
    try:
        st = os.fstat(fd)
        if st.st_uid != os.geteuid():
            raise StateUnsafe(f"{what} {path} belongs to uid {st.st_uid}, not to this user (uid {os.geteuid()}); "
                              f"remove it or set {env} to a folder of your own")
        if st.st_mode & 0o022:          # others could have put things in it: not ours alone to repair
            raise StateUnsafe(f"{what} {path} is mode {stat.S_IMODE(st.st_mode):o}, open to other users; "
                              f"it must be {mode or 0o700:o} (chmod {mode or 0o700:o} {path})")
        if mode is not None and stat.S_IMODE(st.st_mode) != mode:
            os.fchmod(fd, mode)
    finally:
        os.close(fd)
    return path


def remove_tree(folder: Path) -> None:
    """Remove a folder of the state, read-only parts (staged copies: 0555) included."""
    def onerror(func: Callable[[str], object], p: str, exc: object) -> None:
        try:
            os.chmod(os.path.dirname(p), stat.S_IRWXU)
            os.chmod(p, stat.S_IRWXU)
            func(p)
        except OSError:
            pass
    shutil.rmtree(folder, onerror=onerror)


def _remove_run_folder(run: Path, owner: int) -> None:
    if os.getpid() == owner:                   # a forked copy leaves its parent's folder alone
        remove_tree(run)
        if os.environ.get(STATE_ENV) == str(run):
            del os.environ[STATE_ENV]
