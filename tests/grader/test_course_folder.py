"""What `grader init` writes is the course's own rules (issue 40): every field of each ruleset's
`Defaults` (its clock above all: Colosseum and Bohnenspiel timed the wall clock) with the ruleset's
value, and a course folder made that way judges exactly as a student's `grader check` does."""
from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest
import yaml

import rulesets
from grader.assignment import load_assignments
from grader.cli import main
from rulesets.base import Defaults, Policy

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", rulesets.names())
def test_init_writes_every_course_default_of_the_ruleset_and_check_uses_the_same(tmp_path, name):
    assert main(["init", str(tmp_path / "course"), "--assignment", name]) == 0
    written = yaml.safe_load((tmp_path / "course" / "config.yaml").read_text())["assignments"][name]
    defaults = rulesets.load(name).defaults
    for f in fields(Defaults):
        if f.name != "policy":
            assert written["limits"].get(f.name) == getattr(defaults, f.name), (name, f.name)
    for key in Policy.KEYS:
        assert written["policy"].get(key, "") == getattr(defaults.policy, key), (name, key)

    made = load_assignments(tmp_path / "course" / "config.yaml")[name]
    checked = load_assignments(ROOT / "config.yaml")[name]          # what `grader check` judges with
    assert made.clock == checked.clock == defaults.clock
    assert made.limits() == checked.limits()
    assert made.policy == checked.policy == defaults.policy
    assert made.describe_limits() == checked.describe_limits()
    assert made.play_settings() == checked.play_settings()
