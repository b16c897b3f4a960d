"""The cache of successful builds: one folder per build (kind, content hash), least recently used
evicted once the cache is over its size cap.

Only a build that succeeded and stayed within its output caps is published here, as a folder the
grader wrote itself (the artefacts the build declared, copied out of the box's folder). Each use
refreshes the folder's time; publishing a build evicts the least recently used folders until the
cache fits `cap_mb` again, sparing those used in the last `GRACE_S` seconds (a league may still be
starting players from them). Eviction also removes the scratch folders of builds whose grader died
(older than `STALE_S`).
"""
from __future__ import annotations

import os
import shutil
import stat
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sandbox import java, state_dir

GRACE_S = 60.0
PENDING = ".new-"
SCRATCH = ("building-", "built-", PENDING)      # a build's box folder, a doctor's build, a build being published
STALE_S = 6 * 3600.0                             # such a folder this old was left by a grader that died


def root() -> Path:
    """`builds/` in the compiled-code folder of the grader's private state (sandbox/state_dir.py):
    made without following links, StateUnsafe unless it is this user's alone."""
    return state_dir.own_folder(java.cache_root() / "builds", 0o700, what="the build cache",
                                env="GRADER_JAVA_CACHE")


def lookup(key: str) -> Path | None:
    """The cached build `key`, its use recorded; None when it is not cached."""
    path = root() / key
    try:
        if not stat.S_ISDIR(path.lstat().st_mode):
            return None
        os.utime(path)
    except OSError:
        return None
    return path


def publish(key: str, fill: Callable[[Path], None], cap_mb: float) -> Path:
    """Make the cached build `key` from `fill(folder)` (which writes into a new folder of ours),
    then evict down to `cap_mb`. A concurrent publisher of the same key wins harmlessly."""
    cache = root()
    work = Path(tempfile.mkdtemp(prefix=PENDING, dir=cache))
    try:
        fill(work)
        os.chmod(work, 0o755)                          # our own new folder: the box's uid reads it
        try:
            os.rename(work, cache / key)
        except OSError:
            if not (cache / key).is_dir():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    evict(cap_mb, keep=key)
    return cache / key


def _size(folder: Path) -> int:
    return sum(os.lstat(os.path.join(d, f)).st_size for d, _, files in os.walk(folder) for f in files)


def evict(cap_mb: float, keep: str = "") -> list[str]:
    """Remove the least recently used builds until the cache holds at most `cap_mb`; their keys."""
    cache = root()
    now = time.time()
    builds = []
    for entry in os.scandir(cache):
        if not entry.is_dir(follow_symlinks=False):
            continue
        if entry.name.startswith(SCRATCH):
            if now - entry.stat(follow_symlinks=False).st_mtime > STALE_S:
                shutil.rmtree(entry.path, ignore_errors=True)
            continue
        builds.append((entry.stat(follow_symlinks=False).st_mtime, entry.name, _size(Path(entry.path))))
    total = sum(size for _, _, size in builds)
    removed = []
    for used, name, size in sorted(builds):
        if total <= cap_mb * 1e6:
            break
        if name == keep or now - used < GRACE_S:
            continue
        shutil.rmtree(cache / name, ignore_errors=True)
        total -= size
        removed.append(name)
    return removed
