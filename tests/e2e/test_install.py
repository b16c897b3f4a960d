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
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def test_the_wheel_carries_the_data_files(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    files = [p.relative_to(ROOT).as_posix() for package in ("grader", "sandbox", "rulesets")
             for p in (ROOT / package).rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"]
    assert sorted(set(files) - names) == []             # every file of the packages, data too
    assert {"rulesets/quoridor/README.md", "rulesets/quoridor/players/random/player.py"} <= names
    assert any(n.endswith("data/share/game-grader/config.yaml") for n in names)


def test_check_works_from_a_venv_outside_the_project(wheel, venv_with, tmp_path):
    venv = tmp_path / "student-venv"
    python = venv_with(wheel, venv)
    bindir = python.parent
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
