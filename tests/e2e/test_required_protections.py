"""A course can require protections (`sandbox.require`): `grader check`, `grader run` and the
Gradescope autograder refuse to grade where one is missing, with one sentence naming it and how to
get it. The missing layer here is real: GRADER_CGROUP=off takes the memory cgroup away (the same
refusal a host without one gives), in a process of its own so no cached host fact leaks."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from grader import usecases
from grader.config import load_config
from grader.gradescope import results_json
from grader.validation import Check, ValidationReport
from sandbox import host

ROOT = Path(__file__).resolve().parents[2]
STUDENT = ROOT / "submissions" / "colosseum" / "baseline_student"


def course(tmp_path: Path, require: list[str]) -> Path:
    (tmp_path / "subs").mkdir(exist_ok=True)
    block = {"ruleset": "colosseum", "submissions": "subs", "reports": "out", "game": {"board_size": 6},
             "validation": {"smoke_games": 0}, "sandbox": {"require": require}}
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump({"assignments": {"a": block}}), encoding="utf-8")
    return path


def run(*argv: str | Path, cgroup: str = "off") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GRADER_CGROUP": cgroup}
    return subprocess.run([sys.executable, *map(str, argv)], capture_output=True, text=True, timeout=600,
                          cwd=ROOT, env=env)


def test_check_refuses_without_a_required_protection_and_says_how_to_get_it(tmp_path):
    done = run("-m", "grader.cli", "--config", course(tmp_path, ["memory", "landlock"]), "check", STUDENT,
               "--assignment", "a")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "assignments.a.sandbox.require names protections this machine cannot apply" in done.stderr
    assert "memory (RLIMIT_AS" in done.stderr and "to get it: unset GRADER_CGROUP" in done.stderr
    assert "Interface" not in done.stdout                      # nothing was graded
    assert done.stderr.count("\n") == 1


def test_run_refuses_before_any_game(tmp_path):
    done = run("-m", "grader.cli", "--config", course(tmp_path, ["memory"]), "run", "a", "--quiet")
    assert done.returncode == 2 and "sandbox.require" in done.stderr and "memory" in done.stderr
    assert not (tmp_path / "out" / "results.json").exists()


def test_the_autograder_scores_nothing_and_blames_the_course(tmp_path):
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)
    done = run("-m", "grader.gradescope", "--root", root, "--config", course(tmp_path, ["memory"]),
               "--assignment", "a")
    assert done.returncode == 2
    doc = json.loads((root / "results" / "results.json").read_text())
    assert doc["score"] == 0.0 and doc["tests"] == []
    assert doc["output"].startswith("The autograder cannot grade here (not the student's fault): ")
    assert "memory" in doc["output"] and "unset GRADER_CGROUP" in doc["output"]


def test_a_requirement_the_host_meets_grades_as_before(tmp_path):
    held = [name for name in ("landlock", "seccomp") if "missing" not in host.protections()[name]]
    if not held:
        pytest.skip("neither Landlock nor seccomp here")
    done = run("-m", "grader.cli", "--config", course(tmp_path, held), "check", STUDENT, "--assignment", "a")
    assert done.returncode in (0, 1), done.stderr
    assert "Interface" in done.stdout and "sandbox.require" not in done.stderr


def test_an_unknown_protection_name_is_the_courses_mistake_in_one_sentence(tmp_path):
    done = run("-m", "grader.cli", "--config", course(tmp_path, ["memory_limit"]), "standings", "a")
    assert done.returncode == 2
    expected = "assignments.a.sandbox.require: 'memory_limit' names no protection; `grader doctor` lists them: "
    assert expected + "landlock, seccomp, memory," in done.stderr


def test_the_names_a_course_may_require_are_the_ones_doctor_lists():
    assert tuple(host.protections()) == host.LAYERS


def test_results_json_says_which_protections_held_in_one_line():
    report = ValidationReport("s", passed=True, checks=[Check("interface", "Interface", True, 0, 0, "")],
                              sandbox={"landlock": "missing: the kernel offers no Landlock (Linux 5.13+ needed)",
                                       "seccomp": "98 calls denied", "memory": "cgroup v2 500 MB"})
    lines = results_json(report)["output"].splitlines()
    assert "Sandbox protections that held for this run: seccomp, memory; missing: landlock." in lines


def test_grader_init_states_the_setting(tmp_path):
    made = usecases.init_course(tmp_path / "course", ["quoridor"])
    text = made.config.read_text()
    assert "sandbox: {require: []}" in text and "grader doctor" in text
    config, _ = load_config(made.config)
    assert config.assignments["quoridor"].sandbox.require == []
