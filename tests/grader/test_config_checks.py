"""What only the grader can judge in a config is checked when the assignments are loaded
(grader/config_checks.py), in the same sentence the schema used to give."""
from __future__ import annotations

from pathlib import Path

import pytest

from grader.assignment import load_assignments
from grader.config import ConfigError, ProgramsConfig
from grader.player_kinds import PROGRAMS, allowed_builds

CONFIG = """
assignments:
  d:
    ruleset: doublecard
    submissions: subs
"""


def test_a_course_that_names_no_builds_allows_every_one_and_an_unknown_build_is_one_sentence(tmp_path: Path):
    assert allowed_builds(ProgramsConfig().builds) == PROGRAMS
    assert allowed_builds(ProgramsConfig(builds=["gcc"]).builds) == ("gcc",)
    path = tmp_path / "config.yaml"
    path.write_text(CONFIG)
    assert allowed_builds(load_assignments(path)["d"].config.programs.builds) == PROGRAMS
    path.write_text(CONFIG + "    programs: {builds: [gcc, fortran]}\n")
    with pytest.raises(ConfigError) as exc:
        load_assignments(path)
    assert str(exc.value) == (f"{path}: assignments.d.programs.builds: unknown build 'fortran': the builds are "
                              f"{', '.join(PROGRAMS)}.")
