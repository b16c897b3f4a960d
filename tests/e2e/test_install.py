"""What a student installs: the wheel of the course's copy, in a virtual environment outside the project.

The wheel must carry the rulesets' data (built-in players, course files, READMEs), the report's
templates and the course's config.yaml, and `grader check` must work from it in a folder that is not
the project (no config.yaml beside it, the project not importable).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    (found,) = out.glob("*.whl")
    return found


def test_the_wheel_carries_the_data_files(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    files = [p.relative_to(ROOT).as_posix() for package in ("grader", "sandbox", "rulesets")
             for p in (ROOT / package).rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"]
    assert sorted(set(files) - names) == []             # every file of the packages, data too
    assert {"rulesets/quoridor/README.md", "rulesets/quoridor/players/random/player.py"} <= names
    assert any(n.endswith("data/share/game-grader/config.yaml") for n in names)


def test_check_works_from_a_venv_outside_the_project(wheel, tmp_path):
    venv = tmp_path / "student-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / ("python.exe" if os.name == "nt" else "python")
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    # the dependencies come from this environment's site-packages (a path, not its .pth files: the
    # project's editable install is not seen), the project itself only from the wheel
    Path(purelib, "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index",
                    str(wheel)], check=True, capture_output=True, timeout=600)
    where = tmp_path / "student"
    shutil.copytree(ROOT / "submissions" / "quoridor" / "no_crossing", where / "no_crossing")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GRADER_SANDBOX")}
    env["GRADER_STAGE_DIR"] = str(tmp_path / "staged")
    origin = subprocess.run([str(python), "-c", "import grader; print(grader.__file__)"], cwd=where,
                            capture_output=True, text=True, env=env, check=True).stdout
    assert Path(origin.strip()).is_relative_to(venv)
    proc = subprocess.run([shutil.which("grader", path=str(bindir)), "check", "no_crossing", "--assignment", "quoridor", "--json"],
                          cwd=where, capture_output=True, text=True, env=env, timeout=600)
    assert proc.stdout.strip(), proc.stderr
    doc = json.loads(proc.stdout)
    assert proc.returncode == 1 and doc["points"] == 1
    assert {c["name"]: c["passed"] for c in doc["checks"]} == {
        "interface": True, "expand_player": True, "expand_obstacles": False, "smoke": True}
