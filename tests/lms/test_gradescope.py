"""`grader gradescope`: the autograder zip, run as Gradescope runs it in a temporary root laid out like
Gradescope's (/autograder/source, /autograder/submission, /autograder/results), its results.json
checked against the fields of Gradescope's autograder specification."""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from grader.cli import main
from grader.gradescope import results_json
from grader.validation import Check, ValidationReport

ROOT = Path(__file__).resolve().parents[2]
TOP_KEYS = {"score", "execution_time", "output", "output_format", "test_output_format", "test_name_format",
            "visibility", "stdout_visibility", "extra_data", "tests", "leaderboard"}
TEST_KEYS = {"score", "max_score", "status", "name", "name_format", "number", "output", "output_format",
             "tags", "visibility", "extra_data"}
VISIBILITY = {"visible", "hidden", "after_due_date", "after_published"}


def check_spec(doc: dict) -> None:
    """The fields and types Gradescope's results.json specification allows."""
    assert set(doc) <= TOP_KEYS and doc["tests"]
    for t in doc["tests"]:
        assert set(t) <= TEST_KEYS
        assert isinstance(t["name"], str) and t["name"]
        assert isinstance(t["score"], float) and isinstance(t["max_score"], float) and t["score"] <= t["max_score"]
        assert isinstance(t["output"], str) and t["visibility"] in VISIBILITY and t["status"] in ("passed", "failed")
    assert doc["score"] == sum(t["score"] for t in doc["tests"])
    for entry in doc.get("leaderboard", []):
        assert set(entry) <= {"name", "value", "order"} and isinstance(entry["value"], (int, float))


def build(tmp_path: Path, prefork: bool, *extra: str) -> Path:
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"assignments": {"quoridor": {
        "ruleset": "quoridor", "submissions": "subs", "game": {"sizex": 9, "sizey": 9, "max_obstacles": 4},
        "validation": {"stages": {"expand_player": {"points": 1, "required": True},
                                  "expand_obstacles": {"points": 1, "required": True}},
                       "smoke_games": 2, "smoke_opponent": "random"},
        "league": {"prefork": prefork}}}}), encoding="utf-8")
    out = tmp_path / "autograder.zip"
    assert main(["--config", str(config), "gradescope", "quoridor", "--out", str(out), *extra]) == 0
    return out


def gradescope_root(tmp_path: Path, autograder: Path, submission: Path) -> Path:
    """A folder laid out as Gradescope's /autograder, the zip unpacked as Gradescope unpacks it."""
    root = tmp_path / "autograder"
    (root / "results").mkdir(parents=True)
    with zipfile.ZipFile(autograder) as z:
        z.extractall(root / "source")
        for info in z.infolist():
            if info.external_attr >> 16 & 0o111:
                os.chmod(root / "source" / info.filename, 0o755)
    shutil.copytree(submission, root / "submission")
    return root


def run_autograder(root: Path, copied: bool = False) -> dict:
    """Run the script from source/ or, as Gradescope does, copied to the root; it finds the root itself."""
    script = root / "source" / "run_autograder"
    if copied:
        script = Path(shutil.copy2(script, root / "run_autograder"))
    env = {k: v for k, v in os.environ.items() if k != "AUTOGRADER_ROOT"} | {"AUTOGRADER_PYTHON": sys.executable}
    done = subprocess.run([str(script)], env=env, capture_output=True, text=True, timeout=600, cwd=root.parent)
    assert done.returncode == 0, done.stderr
    return json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))


def test_the_zip_is_what_gradescope_expects(tmp_path: Path):
    out = build(tmp_path, True)
    with zipfile.ZipFile(out) as z:
        names = set(z.namelist())
        modes = {i.filename: i.external_attr >> 16 for i in z.infolist()}
        config = yaml.safe_load(z.read("config.yaml"))
        setup = z.read("setup.sh").decode()
    assert {"setup.sh", "run_autograder", "config.yaml", "grader-src/pyproject.toml",
            "grader-src/sandbox/child.py", "grader-src/rulesets/quoridor/__init__.py"} <= names
    assert modes["setup.sh"] & stat.S_IXUSR and modes["run_autograder"] & stat.S_IXUSR
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert list(config["assignments"]) == ["quoridor"]
    assert "libseccomp2" in setup and 'pip install --quiet "$HERE/grader-src"' in setup
    subprocess.run(["bash", "-n", "-c", setup], check=True)


@pytest.mark.parametrize("prefork", [False, True], ids=["spawned", "prefork"])
def test_run_autograder_on_a_failing_submission(tmp_path: Path, prefork: bool):
    root = gradescope_root(tmp_path, build(tmp_path, prefork, "--leaderboard"),
                           ROOT / "submissions" / "quoridor" / "no_crossing")
    doc = run_autograder(root)
    check_spec(doc)
    names = [t["name"] for t in doc["tests"]]
    assert len(names) >= 3 and names[0] == "Interface"
    failed = [t for t in doc["tests"] if t["status"] == "failed"]
    assert failed and all(t["score"] < t["max_score"] for t in failed if t["max_score"])
    assert any("missing" in t["output"].lower() and "\n" in t["output"] for t in failed)    # the position's picture
    assert doc["output"].startswith("Did not pass")
    assert [e["name"] for e in doc["leaderboard"]] == ["Stage points", "Smoke games won"]


@pytest.mark.parametrize("prefork", [False, True], ids=["spawned", "prefork"])
def test_run_autograder_on_a_good_and_an_empty_submission(tmp_path: Path, prefork: bool):
    autograder = build(tmp_path, prefork)
    good = run_autograder(gradescope_root(tmp_path / "good", autograder,
                                          ROOT / "rulesets" / "quoridor" / "players" / "baseline"), copied=True)
    check_spec(good)
    assert good["score"] == 2.0 and all(t["status"] == "passed" for t in good["tests"])
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "README.txt").write_text("forgot the code")
    empty = run_autograder(gradescope_root(tmp_path / "e", autograder, tmp_path / "empty"))
    check_spec(empty)
    assert empty["score"] == 0.0 and "player.py" in empty["tests"][0]["output"]


def test_missing_sandbox_layers_are_named_in_the_output():
    report = ValidationReport("s", passed=True, checks=[Check("interface", "Interface", True, 0, 0, "")],
                              sandbox={"landlock": "missing: the kernel offers no Landlock (Linux 5.13+ needed)",
                                       "seccomp": "98 calls denied",
                                       "memory": "RLIMIT_AS 500 MB (no cgroup: read-only /sys/fs/cgroup)"})
    doc = results_json(report, visibility="after_published")
    check_spec(doc)
    assert "lacks some sandbox protections" in doc["output"]
    lacking = next(line for line in doc["output"].splitlines() if "lacks some sandbox protections" in line)
    assert "landlock: missing" in lacking and "no cgroup" in lacking and "seccomp" not in lacking


def test_an_autograder_whose_setup_did_not_finish_says_so(tmp_path: Path):
    root = gradescope_root(tmp_path, build(tmp_path, True), ROOT / "submissions" / "quoridor" / "no_crossing")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}     # no venv; the system python3 lacks the project
    done = subprocess.run(["/bin/bash", str(root / "source" / "run_autograder")], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    doc = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    assert doc["score"] == 0 and "not installed" in doc["output"] and "not the student's fault" in doc["output"]
