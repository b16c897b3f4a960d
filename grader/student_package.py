"""The students' copy of the grader for one course: a wheel that carries the course's config.yaml and
its pinned packages, zipped with what installs it without the network.

The wheel is written here, file by file (a wheel is a zip with a RECORD), not by a build backend:
that would need a recent setuptools and, with build isolation, the network. It holds the packages
of this project, the course's config as the data file `share/game-grader/config.yaml` (where
`default_config_path` finds it) and the course environment's wheels under
`share/game-grader/wheels/` (where `course_env` installs from, offline). The zip beside it holds
that wheel, the wheels of the grader's own dependencies when they could be downloaded, and
INSTALL.txt: the one command to type, and one line per package built for one platform only.
"""
from __future__ import annotations

import base64
import hashlib
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .course_env import WHEELS_DATA_DIR

PROJECT = Path(__file__).resolve().parent.parent
PACKAGES = ("grader", "sandbox", "rulesets")
SKIPPED = {"__pycache__", ".mypy_cache", ".pytest_cache"}
PIP_TIMEOUT_S = 900


class PackageProblem(Exception):
    """Why the students' package could not be made, as one sentence for the instructor."""


@dataclass
class StudentPackage:
    """What was made: the zip, the wheel inside it, and what a student must know beyond INSTALL's command."""

    zip_path: Path
    wheel_name: str
    course_wheels: list[str] = field(default_factory=list)
    dependency_wheels: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)     # platform-specific packages, or a part left out: a line each


def _pip(args: list[str], what: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "pip", *args, "--disable-pip-version-check", "--no-input",
                           "--quiet"], capture_output=True, text=True, timeout=PIP_TIMEOUT_S)
    if proc.returncode != 0:
        said = (proc.stderr or proc.stdout).strip().splitlines() or ["no message"]
        raise PackageProblem(f"pip could not download {what}: {said[-1]}")


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _metadata(project: dict) -> tuple[str, str, str]:
    """The distribution's name, version and METADATA text, from pyproject.toml."""
    name, version = project["name"], project["version"]
    lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}",
             f"Summary: {project.get('description', '')}", f"Requires-Python: {project.get('requires-python', '')}"]
    lines += [f"Requires-Dist: {dep}" for dep in project.get("dependencies", [])]
    return name, version, "\n".join(lines) + "\n"


def shipped_files(shipped: dict[str, Path]) -> dict[str, bytes]:
    """{path relative to the config: bytes} of the course files the config names (its sparring players),
    folders walked; a link is refused, since a package ships files, never what a link points at."""
    out: dict[str, bytes] = {}
    for rel, source in sorted(shipped.items()):
        paths = [source] if source.is_file() or source.is_symlink() else sorted(source.rglob("*"))
        for path in paths:
            inside = Path(rel) / path.relative_to(source) if path != source else Path(rel)
            if path.is_symlink():
                raise PackageProblem(f"{path} is a symbolic link: the students' package ships the course's files "
                                     f"as they are, so replace it by the file it points at.")
            if path.is_file() and not SKIPPED & set(inside.parts) and path.suffix != ".pyc":
                out[inside.as_posix()] = path.read_bytes()
    return out


def write_wheel(out_dir: Path, config: Path, course_wheels: list[Path], shipped: dict[str, Path] | None = None) -> Path:
    """The grader's wheel with `config` as its config.yaml, `course_wheels` beside it, and the course files
    the config names (`shipped`: {path relative to the config: where it is now}) at the same places."""
    pyproject = PROJECT / "pyproject.toml"
    if not pyproject.is_file():
        raise PackageProblem(f"{PROJECT} is an installed copy, not the project's source (no pyproject.toml): "
                             f"run package-for-students from a clone of the grader.")
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    name, version, metadata = _metadata(project)
    stem = f"{re.sub(r'[-_.]+', '_', name)}-{version}"
    info, data = f"{stem}.dist-info", f"{stem}.data/data/" + "/".join(WHEELS_DATA_DIR[:-1])
    files: dict[str, bytes] = {}
    for package in PACKAGES:
        for path in sorted((PROJECT / package).rglob("*")):
            rel = path.relative_to(PROJECT)
            if path.is_file() and not SKIPPED & set(rel.parts) and path.suffix != ".pyc":
                files[rel.as_posix()] = path.read_bytes()
    files[f"{data}/config.yaml"] = config.read_bytes()
    files.update({f"{data}/{rel}": body for rel, body in shipped_files(shipped or {}).items()})
    for wheel in course_wheels:
        files[f"{data}/{WHEELS_DATA_DIR[-1]}/{wheel.name}"] = wheel.read_bytes()
    scripts = project.get("scripts", {})
    files[f"{info}/METADATA"] = metadata.encode()
    files[f"{info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: grader.student_package\nRoot-Is-Purelib: true\n"
                              b"Tag: py3-none-any\n")
    files[f"{info}/entry_points.txt"] = ("[console_scripts]\n" + "".join(
        f"{script} = {target}\n" for script, target in scripts.items())).encode()
    record = [f"{member},{_record_hash(body)},{len(body)}" for member, body in files.items()]
    files[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    out_dir.mkdir(parents=True, exist_ok=True)
    wheel_path = out_dir / f"{stem}-py3-none-any.whl"
    with zipfile.ZipFile(wheel_path, "w", zipfile.ZIP_DEFLATED) as zf:
        for member, body in files.items():
            zf.writestr(member, body)
    return wheel_path


def platform_note(wheels: list[str], what: str, elsewhere: str) -> str | None:
    """One line naming the packages of `wheels` built for one platform only (pip downloads for the
    Python and system it runs on) and what a student elsewhere does; None when every one is pure."""
    specific = sorted({w.split("-")[0] for w in wheels if not w.endswith("-none-any.whl")})
    if not specific:
        return None
    return (f"{what} ({', '.join(specific)}) are packed for Python {sys.version_info.major}."
            f"{sys.version_info.minor} on {platform.system()} {platform.machine()} only; elsewhere {elsewhere}.")


def build(assignment_name: str, config: Path, requirements: Path | None, out: Path, *,
          find_links: tuple[Path, ...] = (), no_index: bool = False, dependencies: bool = True,
          shipped: dict[str, Path] | None = None,
          say: Callable[[str], None] = lambda line: None) -> StudentPackage:
    """The zip for students of `assignment_name`: the course's config, the files it names (`shipped`, as
    `write_wheel` takes them) and its packages, installable offline."""
    index = [*(["--no-index"] if no_index else []), *[f"--find-links={p}" for p in find_links]]
    with tempfile.TemporaryDirectory(prefix="grader-student-package-") as tmp:
        work = Path(tmp)
        course = work / "course"
        course.mkdir()
        if requirements is not None:
            say(f"Downloading the course's packages ({requirements.name}) as wheels: needs the network.")
            _pip(["download", "--only-binary=:all:", "--dest", str(course), *index, "-r", str(requirements)],
                 f"the course's packages ({requirements})")
        course_wheels = sorted(course.glob("*.whl"))
        folder = work / f"{assignment_name}-for-students"
        say(f"Writing the grader's wheel with {config} and {len(course_wheels)} course wheel(s).")
        wheel = write_wheel(folder, config, course_wheels, shipped)
        notes: list[str | None] = [platform_note([w.name for w in course_wheels], "The course's packages",
                               "the first check downloads them (needs the network once)")]
        deps: list[str] = []
        if dependencies:
            say("Downloading the grader's own dependencies as wheels: needs the network.")
            _pip(["download", "--only-binary=:all:", "--dest", str(folder), *index, str(wheel)],
                 "the grader's dependencies")
            deps = sorted(p.name for p in folder.glob("*.whl") if p != wheel)
            notes.append(platform_note(deps, "Some of the grader's own dependencies",
                                       f"install with the network: pip install --find-links . {wheel.name}"))
        else:
            notes.append("The grader's own dependencies are not in the zip: pip install takes them from PyPI "
                         "(needs the network once).")
        install = (f"pip install --find-links . {wheel.name}" if not dependencies else
                   f"pip install --no-index --find-links . {wheel.name}")
        (folder / "INSTALL.txt").write_text(
            f"Install the grader for {assignment_name} (in this folder): {install}\n"
            f"Then check your player: grader check <your file> --assignment {assignment_name}\n"
            + "".join(f"{n}\n" for n in notes if n), encoding="utf-8")
        out.parent.mkdir(parents=True, exist_ok=True)
        made = shutil.make_archive(str(out.with_suffix("")), "zip", root_dir=work, base_dir=folder.name)
        return StudentPackage(Path(made), wheel.name, [w.name for w in course_wheels], deps, [n for n in notes if n])
