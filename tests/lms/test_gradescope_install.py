"""The Gradescope autograder zip installs and runs as built (issue 28.3).

`grader gradescope` builds the zip; this test unpacks it into `/autograder/source` of a root laid
out as Gradescope's, runs its `setup.sh` there and then `/autograder/run_autograder` for a passing
and a failing submission of each kind (a Python and a Java Bohnenspiel player, a C++ Double Card
program), and checks each `results.json` against Gradescope's specification
(https://gradescope-autograders.readthedocs.io/en/latest/specs/).

As root, the root is `/autograder` itself in an overlay of this machine's own file system inside a
private mount namespace: whatever setup.sh installs and whatever the runs write stay in the overlay,
the host is untouched. As an ordinary user it is a folder under tmp laid out the same way
(`<tmp>/autograder/source`, `submission`, `results`), with no namespace: setup.sh and
run_autograder find their root from where they sit, so they run there unchanged, and the user
cannot write outside it anyway. (A private root is no use there: it needs a user namespace, where
this user is root and the sandbox cannot start a player, since the kernel refuses setns into the
player's pid namespace.) setup.sh installs nothing as an ordinary user; where the machine lacks a
package it needs, it says so and the test is skipped with its sentence.
Before this, setup.sh failed every time ("can't copy 'config.yaml'"), so every upload scored 0.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SUBS = ROOT / "submissions"
VISIBILITIES = {"visible", "hidden", "after_due_date", "after_published"}

# Enter a root laid out as Gradescope's: an overlay of / (writes go to WORK/upper); where the kernel
# refuses an overlay (an ordinary user's namespace), a tmpfs holding the host's folders bound in,
# which that user cannot write anyway, and a fresh /tmp. Then /proc, /sys and /dev, WORK/autograder
# as /autograder (so the results are readable from outside), and pivot_root into it.
ENTER = r"""
set -e
W="$1"; shift
PATH="$PATH:/usr/sbin:/sbin"
mkdir -p "$W/upper" "$W/work" "$W/merged"
if mount -t overlay overlay -o "lowerdir=/,upperdir=$W/upper,workdir=$W/work" "$W/merged" 2>/dev/null; then
  :
else
  mount -t tmpfs tmpfs "$W/merged"
  for e in /*; do
    name="${e#/}"
    case "$name" in proc|sys|dev|tmp|mnt|autograder|lost+found) continue ;; esac
    if [ -L "$e" ]; then ln -s "$(readlink "$e")" "$W/merged/$name"
    elif [ -d "$e" ]; then mkdir "$W/merged/$name"; mount --rbind "$e" "$W/merged/$name"
    fi
  done
  mkdir -p "$W/merged/proc" "$W/merged/sys" "$W/merged/dev" "$W/merged/tmp" "$W/merged/mnt"
  mount -t tmpfs tmpfs "$W/merged/tmp"
fi
for d in proc sys dev; do mount --rbind "/$d" "$W/merged/$d"; done
mkdir -p "$W/merged/autograder" "$W/merged/.oldroot"
mount --bind "$W/autograder" "$W/merged/autograder"
cd "$W/merged"
pivot_root . .oldroot
exec chroot . /bin/sh -c 'umount -l /.oldroot; cd /autograder && exec "$@"' sh "$@"
"""

CASES = {   # kind: (assignment, passing submission, failing submission's files or folder)
    "python": ("bohnenspiel", SUBS / "bohnenspiel" / "greedy_student",
               {"student_player.py": "class StudentPlayer(:\n    pass\n"}),
    "java": ("bohnenspiel", SUBS / "bohnenspiel" / "java_greedy_student", SUBS / "bohnenspiel" / "java_does_not_compile"),
    "cpp": ("doublecard", SUBS / "doublecard" / "cpp_random", {"player.cpp": "int main( {\n"}),
}


PRIVATE_ROOT = os.geteuid() == 0        # /autograder in a private mount namespace; else a folder under tmp

# The module's first test pays for the `installed` fixture: two setup.sh runs of up to 900 s each at
# load, beyond the suite's 300 s per test (pytest-timeout counts a test's fixtures with it).
pytestmark = pytest.mark.timeout(2 * 900 + 600)


def _inside(work: Path, script: str, timeout: float) -> subprocess.CompletedProcess:
    """Run `script` (bash; `$AG` is the Gradescope root) in `work`'s root laid out as Gradescope's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON", "GRADER_"))}
    env["PATH"] = env.get("PATH", "/usr/bin:/bin") + ":/usr/sbin:/sbin"      # Gradescope runs as root
    if not PRIVATE_ROOT:
        return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=timeout,
                              env=env | {"AG": str(work / "autograder")}, cwd=work)
    enter = work / "enter.sh"
    enter.write_text(ENTER)
    return subprocess.run(["unshare", "-m", "--propagation", "private", "sh", str(enter), str(work),
                           "env", "AG=/autograder", "bash", "-c", script], capture_output=True, text=True,
                          timeout=timeout, env=env)


@pytest.fixture(scope="module")
def namespaces(tmp_path_factory) -> None:
    """As root, skip, saying why, where this machine cannot make a private root (no unshare, no overlay)."""
    if not PRIVATE_ROOT:
        return
    if shutil.which("unshare") is None:
        pytest.skip("unshare (util-linux) is not installed, so no private root can be made here")
    work = tmp_path_factory.mktemp("probe")
    (work / "autograder").mkdir()
    probe = _inside(work, 'test "$AG" = /autograder && test -d /autograder && ! test -e /.oldroot/etc', timeout=60)
    if probe.returncode != 0:
        pytest.skip(f"this machine refuses a private overlay root (unshare -m): "
                    f"{(probe.stderr or probe.stdout).strip().splitlines()[-1:]}")


def _zip(tmp: Path, assignment: str) -> Path:
    from grader.cli import main

    out = tmp / f"{assignment}.zip"
    assert main(["--config", str(ROOT / "config.yaml"), "gradescope", assignment, "--out", str(out),
                 "--leaderboard"]) == 0
    return out


@pytest.fixture(scope="module")
def installed(namespaces, tmp_path_factory) -> dict[str, Path]:
    """One Gradescope root per assignment, set up by the zip's own setup.sh (the second reuses the
    first one's venv, as the packages are the same, so its setup.sh only reinstalls the grader)."""
    roots = {}
    for n, assignment in enumerate(("bohnenspiel", "doublecard")):
        work = tmp_path_factory.mktemp(f"gs-{assignment}")
        source = work / "autograder" / "source"
        source.mkdir(parents=True)
        with zipfile.ZipFile(_zip(work, assignment)) as z:
            z.extractall(source)
            for info in z.infolist():                   # Gradescope keeps the zip's modes
                os.chmod(source / info.filename, (info.external_attr >> 16) & 0o777 or 0o644)
        if n:
            shutil.copytree(roots["bohnenspiel"] / "autograder" / "venv", work / "autograder" / "venv", symlinks=True)
        setup = _inside(work, 'cd "$AG/source" && bash ./setup.sh && cp "$AG/source/run_autograder" "$AG/run_autograder"',
                        timeout=900)
        if not PRIVATE_ROOT and "only root can install" in setup.stderr:
            pytest.skip(setup.stderr.strip().splitlines()[-1])
        assert setup.returncode == 0, setup.stdout[-3000:] + setup.stderr[-3000:]
        venv = "/autograder/venv" if PRIVATE_ROOT else work / "autograder" / "venv"
        assert f"installed the grader into {venv}" in setup.stdout
        roots[assignment] = work
    return roots


def test_setup_installs_the_grader_into_the_gradescope_root(installed):
    for work in installed.values():
        assert (work / "autograder" / "venv" / "bin" / "python").exists()
        assert (work / "autograder" / "run_autograder").is_file()
    assert not Path("/autograder").exists()                 # the host is untouched


def _grade(work: Path, submission: Path | dict[str, str]) -> dict:
    folder = work / "autograder" / "submission"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(work / "autograder" / "results", ignore_errors=True)
    if isinstance(submission, dict):
        folder.mkdir(parents=True)
        for name, text in submission.items():
            (folder / name).write_text(text)
    else:
        shutil.copytree(submission, folder)
    (work / "autograder" / "results").mkdir()
    run = _inside(work, '"$AG/run_autograder"', timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return json.loads((work / "autograder" / "results" / "results.json").read_text())


def _follows_the_specification(doc: dict) -> None:
    """Gradescope's results.json: score (the tests' sum here), tests with name, score, max_score,
    status, output and visibility, stdout_visibility, and a leaderboard of name/value entries."""
    assert isinstance(doc["score"], float) and doc["score"] == sum(t["score"] for t in doc["tests"])
    assert doc["stdout_visibility"] in VISIBILITIES and doc["visibility"] in VISIBILITIES
    assert isinstance(doc["output"], str) and doc["output"]
    assert doc["tests"]
    for t in doc["tests"]:
        assert isinstance(t["name"], str) and t["name"] and t["name"] == t["name"].strip()
        assert isinstance(t["score"], float) and isinstance(t["max_score"], float)
        assert 0 <= t["score"] <= t["max_score"] or t["max_score"] == 0 == t["score"]
        assert t["status"] in ("passed", "failed") and isinstance(t["output"], str) and t["output"]
        assert t["visibility"] in VISIBILITIES
    assert all(isinstance(e["name"], str) and isinstance(e["value"], (int, float)) for e in doc["leaderboard"])


def _are_titles(names: list[str], assignment: str) -> bool:
    """The tests are named by the stages' titles as `grader check` prints them, not internal keys."""
    from grader.assignment import load_assignments

    probes = {p.title for p in load_assignments(ROOT / "config.yaml")[assignment].probes()}
    return "Interface" in names and all(n in probes or n.startswith(("Interface", "Smoke games", "Compil", "Build"))
                                        for n in names) and probes <= set(names)


@pytest.mark.slow              # setup.sh installs the grader and its packages into a venv (about a minute)
@pytest.mark.parametrize("kind", list(CASES))
def test_a_passing_submission_gets_its_points_from_the_installed_autograder(kind, installed):
    assignment, good, _ = CASES[kind]
    doc = _grade(installed[assignment], good)
    _follows_the_specification(doc)
    assert doc["output"].startswith("Passed"), doc["output"]
    assert all(t["status"] == "passed" for t in doc["tests"] if "required" in t["tags"]), doc["tests"]
    assert doc["score"] > 0
    assert _are_titles([t["name"] for t in doc["tests"]], assignment), doc["tests"]
    assert not Path("/autograder").exists()                 # the host is untouched


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(CASES))
def test_a_failing_submission_is_told_why_by_the_installed_autograder(kind, installed):
    assignment, _, bad = CASES[kind]
    doc = _grade(installed[assignment], bad)
    _follows_the_specification(doc)
    assert doc["output"].startswith("Did not pass"), doc["output"]
    failed = [t for t in doc["tests"] if t["status"] == "failed"]
    assert failed and doc["score"] == 0, doc["tests"]
    assert "not installed" not in doc["output"]
