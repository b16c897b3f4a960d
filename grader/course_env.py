"""The course's own packages per assignment, e.g. Colosseum W2022's NumPy 1.x.

A ruleset names its course's requirements (`Ruleset.requirements`, a requirements file). They are
installed once with pip into a folder of their own (`pip install --target`, wheels only), named by
a hash of the requirements and the Python version, under the grader's data folder
(`course-envs` in its private state folder, sandbox/state_dir.py, or `$GRADER_COURSE_ENVS`); later
runs reuse it. The sandbox puts
that folder on the player's `sys.path` ahead of site-packages, in the pre-fork template too
(`Limits.python_path`, sandbox/child.py), and keeps it readable. `make install` builds every
bundled assignment's environment; otherwise the first check or league of the assignment does.
Where it cannot be built (no network, no wheels), players get site-packages' versions and the
check's header says so. A students' copy (grader/student_package.py) carries the course's wheels
in <prefix>/share/game-grader/wheels: they are installed from there first, without the network.
Building says so on stderr (what, and that it needs the network the first time), then how it went.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import shutil
import site
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console

import rulesets
from sandbox import state_dir

VERSIONS_FILE = "grader-course-env.json"     # written last: a folder without it is unfinished
PIP_TIMEOUT_S = 900
RETRY_AFTER_S = 3600                         # a failed build is not tried again for an hour (no network)
WHEELS_DATA_DIR = ("share", "game-grader", "wheels")   # where a students' copy carries the course's wheels


@dataclass(frozen=True)
class CourseEnv:
    """One built environment (path None: it could not be built, `problem` says why)."""

    requirements: Path
    path: Path | None
    versions: dict[str, str] = field(default_factory=dict)
    problem: str = ""

    def header(self) -> str:
        """One line for the check's header."""
        if self.path is None:
            return f"Course environment: not available ({self.problem}); players get the grader's own packages."
        named = requirement_names(self.requirements)
        listed = ", ".join(f"{name} {version}" for name, version in sorted(self.versions.items()) if name in named)
        return f"Course environment ({self.requirements.name}): {listed}."


def requirement_names(requirements: Path) -> set[str]:
    """The distributions a requirements file names (lower case, "-" for "_")."""
    names = set()
    for line in requirements.read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-"):
            names.add(re.split(r"[\s<>=!~;\[]", line, maxsplit=1)[0].lower().replace("_", "-"))
    return names


def envs_root() -> Path:
    """The folder of every built environment: `course-envs` in the grader's private state folder
    (sandbox/state_dir.py), or $GRADER_COURSE_ENVS; this user's alone, checked on every use."""
    return state_dir.folder("course-envs", env="GRADER_COURSE_ENVS")


def env_key(requirements: Path) -> str:
    """What names an environment: the requirements' bytes, the Python version and the platform."""
    h = hashlib.sha256()
    for part in (requirements.read_bytes(), sys.version.encode(), sys.platform.encode()):
        h.update(len(part).to_bytes(8, "big") + part)
    return h.hexdigest()[:20]


@functools.cache
def course_env(requirements: Path) -> CourseEnv:
    """The environment for `requirements`, built now if it is not yet (once per process)."""
    try:
        root = envs_root()
        folder = root / f"py{sys.version_info.major}{sys.version_info.minor}-{env_key(requirements)}"
        failed = folder.with_name(folder.name + ".failed")
        if not (folder / VERSIONS_FILE).is_file():
            if failed.is_file() and time.time() - failed.stat().st_mtime < RETRY_AFTER_S:
                raise OSError(failed.read_text(encoding="utf-8").strip() + " (tried less than an hour ago)")
            try:
                _build(requirements, root, folder)
            except (OSError, subprocess.SubprocessError) as exc:
                if root.is_dir():
                    failed.write_text(str(exc).strip().splitlines()[-1][:300] if str(exc) else type(exc).__name__,
                                      encoding="utf-8")
                raise
            failed.unlink(missing_ok=True)
        _check_owner(folder)
        versions = json.loads((folder / VERSIONS_FILE).read_text(encoding="utf-8"))
        return CourseEnv(requirements, folder, versions)
    except (OSError, ValueError, subprocess.SubprocessError) as exc:
        return CourseEnv(requirements, None, problem=str(exc).strip().splitlines()[-1][:300] if str(exc) else
                         type(exc).__name__)


def _check_owner(folder: Path) -> None:
    """Only a folder this user owns and no one else can write (nor rename away: its parent is ours,
    root's or sticky) is offered to players."""
    st = folder.stat()
    if st.st_uid != os.geteuid() or st.st_mode & 0o022:
        raise OSError(f"{folder} is not owned by this user alone, so it is not used")
    up = folder.parent.stat()
    if up.st_uid not in (0, os.geteuid()) or (up.st_mode & 0o022 and not up.st_mode & stat.S_ISVTX):
        raise OSError(f"{folder.parent} can be changed by other users, so {folder.name} is not used")


def bundled_wheels() -> list[Path]:
    """The folders of course wheels an installed students' copy carries (none in a clone)."""
    return [w for w in (Path(sys.prefix, *WHEELS_DATA_DIR), Path(site.getuserbase(), *WHEELS_DATA_DIR))
            if w.is_dir() and any(w.glob("*.whl"))]


def _pip_install(requirements: Path, work: Path, index: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input",
         "--only-binary=:all:", *index, "--target", str(work), "-r", str(requirements)],
        capture_output=True, text=True, timeout=PIP_TIMEOUT_S, env={**os.environ, "PIP_NO_WARN_CONFLICTS": "1"})


def _say(line: str) -> None:
    print(f"grader: {line}", file=sys.stderr, flush=True)


def _waiting(what: str) -> contextlib.AbstractContextManager[object]:
    """A spinner while pip works, on a terminal; nothing in a log."""
    return Console(stderr=True).status(what) if sys.stderr.isatty() else contextlib.nullcontext()


def _build(requirements: Path, root: Path, folder: Path) -> None:
    work = Path(tempfile.mkdtemp(prefix=".building-", dir=root))
    try:
        os.chmod(work, 0o755)
        named = ", ".join(sorted(requirement_names(requirements)))
        bundled = bundled_wheels()
        started = time.monotonic()
        proc = None
        if bundled:
            _say(f"preparing the course environment ({named}) once, from the wheels this copy carries.")
            with _waiting("installing the course's wheels…"):
                proc = _pip_install(requirements, work, ["--no-index", *[f"--find-links={w}" for w in bundled]])
        if proc is None or proc.returncode != 0:
            _say(f"preparing the course environment ({named}) once: pip downloads it, which needs the network "
                 f"this first time and may take a few minutes; later checks reuse it.")
            with _waiting(f"pip is downloading and installing {named}…"):
                proc = _pip_install(requirements, work, [])
        if proc.returncode != 0:
            said = (proc.stderr or proc.stdout).strip().splitlines() or ["no message"]
            _say(f"the course environment could not be prepared: {said[-1]}")
            raise OSError(f"pip could not install {requirements.name}: {said[-1]}")
        _say(f"the course environment is ready ({time.monotonic() - started:.0f} s): {folder}.")
        versions = installed_versions(work)
        for path in [work, *work.rglob("*")]:      # readable by every box uid, writable by none
            if not path.is_symlink():
                path.chmod(0o755 if path.is_dir() else (path.stat().st_mode & 0o755) | 0o444)
        (work / VERSIONS_FILE).write_text(json.dumps(versions, indent=1, sort_keys=True), encoding="utf-8")
        (work / VERSIONS_FILE).chmod(0o444)
        try:
            work.rename(folder)                    # the first builder wins; a later one drops its copy
        except OSError:
            if not (folder / VERSIONS_FILE).is_file():
                raise
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)


def installed_versions(folder: Path) -> dict[str, str]:
    """{distribution: version} of what pip put in `folder` (its *.dist-info folders)."""
    out = {}
    for info in folder.glob("*.dist-info"):
        name, _, version = info.name[:-len(".dist-info")].rpartition("-")
        if name:
            out[name.lower().replace("_", "-")] = version
    return out


def main() -> int:
    """`python -m grader.course_env`: build the environment of every bundled ruleset that names one."""
    status = 0
    for name in rulesets.names():
        ruleset = rulesets.load(name)
        if ruleset.requirements is None:
            continue
        env = course_env(ruleset.requirements)
        print(f"{name}: {env.header()}" + (f" ({env.path})" if env.path else ""))
        status |= env.path is None
    return status


if __name__ == "__main__":
    raise SystemExit(main())
