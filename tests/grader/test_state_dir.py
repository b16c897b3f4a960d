"""No predictable path (sandbox/state_dir.py): a root grader keeps its caches, staged copies,
builds and course environments in a private folder of its own, and never changes, follows or
writes into what another account made first.

The attacker is an ordinary account (uid 65534) that plants, before the grader runs, every name the
grader used or could use: the old fixed names in the shared temporary folder (as links to a
root-only folder, or as folders of its own), and the cache folders of a HOME and XDG_CACHE_HOME that
are its own (sudo keeping the student's HOME). Links are followed by root only when
`fs.protected_symlinks` is 0, so the tests set it to 0 (and put it back). The grader runs as a
separate process (`grader check` of a C++ and of a Java program), as it would from a shell.
"""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
NOBODY = 65534
SYSCTL = Path("/proc/sys/fs/protected_symlinks")
PROGRAMS = {"cpp": ("doublecard", ROOT / "submissions" / "doublecard" / "cpp_random"),
            "java": ("bohnenspiel", ROOT / "submissions" / "bohnenspiel" / "java_greedy_student")}
pytestmark = pytest.mark.root


@pytest.fixture
def unprotected_symlinks():
    """fs.protected_symlinks=0 for the test (root follows a link another account owns), then as it was."""
    before = SYSCTL.read_text().strip()
    try:
        SYSCTL.write_text("0\n")
    except OSError:
        if before != "0":
            pytest.skip("fs.protected_symlinks cannot be set to 0 here")
    yield
    if before != "0":
        SYSCTL.write_text(before + "\n")


@pytest.fixture
def places():
    """A shared sticky temporary folder (1777), a root-only folder the attacker aims at, and the
    attacker's own home; outside pytest's 0700 folder so the attacker can reach the shared one."""
    made = [Path(tempfile.mkdtemp(prefix="state-test-")) for _ in range(3)]
    shared, victim, home = made
    os.chmod(shared, 0o1777)
    (victim / "secret").write_text("root's only\n")
    os.chmod(victim / "secret", 0o600)
    os.chown(home, NOBODY, NOBODY)
    os.chmod(home, 0o755)
    yield shared, victim, home
    for folder in made:
        shutil.rmtree(folder, ignore_errors=True)


def _as_attacker(*argv: str) -> None:
    subprocess.run(argv, user=NOBODY, group=NOBODY, check=True, capture_output=True)


def _snapshot(*folders: Path) -> dict:
    """Mode and owner of every path under `folders` (links not followed)."""
    out = {}
    for top in folders:
        for path in [top, *top.rglob("*")]:
            st = path.lstat()
            out[str(path)] = (stat.S_IMODE(st.st_mode), st.st_uid, stat.S_IFMT(st.st_mode))
    return out


def _config(tmp_path: Path, kind: str) -> tuple[Path, str, Path]:
    assignment, source = PROGRAMS[kind]
    block = yaml.safe_load((ROOT / "config.yaml").read_text())["assignments"][assignment]
    block.update(submissions=str(tmp_path / "subs"), reports=str(tmp_path / "reports"), similarity=None)
    block["validation"] = dict(block.get("validation") or {}) | {"smoke_games": 1}
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"assignments": {assignment: block}}), encoding="utf-8")
    folder = tmp_path / "subs" / source.name
    shutil.copytree(source, folder)
    return config, assignment, folder


def _check(config: Path, assignment: str, folder: Path, home: Path, shared: Path, **extra: str):
    env = {k: v for k, v in os.environ.items()
           if k not in ("GRADER_STATE_DIR", "GRADER_JAVA_CACHE", "GRADER_STAGE_DIR", "GRADER_COURSE_ENVS")}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / "xdg"), TMPDIR=str(shared), PYTHONPATH=str(ROOT), **extra)
    return subprocess.run([sys.executable, "-m", "grader.cli", "--config", str(config), "check", str(folder),
                           "--assignment", assignment, "--json"], capture_output=True, text=True, env=env,
                          timeout=1800, cwd=config.parent)


@pytest.mark.parametrize("kind", sorted(PROGRAMS))
@pytest.mark.parametrize("planted", ["links", "folders"])
def test_names_planted_by_another_account_are_never_changed_and_builds_still_work(
        tmp_path, unprotected_symlinks, places, kind, planted):
    if kind == "java" and shutil.which("javac") is None:
        pytest.skip("no JDK")
    if kind == "cpp" and shutil.which("g++") is None:
        pytest.skip("no g++")
    shared, victim, home = places
    names = [shared / f"grader-java-{os.geteuid()}", shared / f"grader-sandbox-{os.geteuid()}",
             home / ".cache", home / "xdg"]
    for path in names:
        if planted == "links":                  # each a link to the root-only folder
            _as_attacker("ln", "-s", str(victim), str(path))
        else:                                    # each a folder of the attacker's, open to it
            _as_attacker("mkdir", "-m", "755", str(path))
    if planted == "folders":
        for sub in ("grader", "grader/builds", "grader/compiled", "grader/staged", "grader/course-envs"):
            _as_attacker("mkdir", "-m", "777", str(home / "xdg" / sub))
        _as_attacker("mkdir", "-m", "777", str(names[0] / "builds"))
    before = _snapshot(shared, victim, home)
    config, assignment, folder = _config(tmp_path, kind)

    proc = _check(config, assignment, folder, home, shared)

    assert _snapshot(shared, victim, home) == before, "the grader changed what another account made"
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    report = json.loads(proc.stdout)
    build = next(c for c in report["checks"] if c["name"].lower().startswith(("build", "compil")))
    assert build["passed"], build
    assert not list(victim.glob("*/**")), "nothing was written into the root-only folder"


def test_a_chosen_state_folder_another_account_made_fails_the_check_with_one_sentence(
        tmp_path, unprotected_symlinks, places):
    shared, _, home = places
    planted = shared / "grader-state"
    _as_attacker("mkdir", "-m", "777", str(planted))
    before = _snapshot(shared)
    config, assignment, folder = _config(tmp_path, "cpp")

    proc = _check(config, assignment, folder, home, shared, GRADER_STATE_DIR=str(planted))

    assert _snapshot(shared) == before
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    said = proc.stdout + proc.stderr
    assert f"belongs to uid {NOBODY}" in said and str(planted) in said, said[-2000:]
