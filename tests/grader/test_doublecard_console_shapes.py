"""Double Card console programs as COMP 472 students wrote them (issue 40): seven shapes of our own
(tests/grader/doublecard_console_shapes.py) are each found by their entry, whatever its name, read
as console programs (a menu read by a bare input() too, never as a line-protocol player) and played
through their console in both scenarios, the AI's every move checked by the referee."""
from __future__ import annotations

import pytest

import rulesets
from grader.console_driver import check_console, console_kind, entry_file
from grader.submissions import load
from grader.validation import submission_kind
from sandbox import Limits
from tests.checking import check_json
from tests.grader.doublecard_console_shapes import SHAPES, write_shape

LIMITS = Limits(start_s=10.0, call_s=3.0, first_call_s=3.0, kill_after_s=1.0)
DOUBLECARD = rulesets.load("doublecard")


@pytest.mark.parametrize("shape", list(SHAPES))
def test_each_shape_is_found_by_its_entry_and_played_through_its_console(tmp_path, shape):
    folder = write_shape(tmp_path / "student", SHAPES[shape])
    entry = next(name for name in SHAPES[shape] if name[0] != "_")
    assert entry_file(console_kind(DOUBLECARD), folder) == entry
    report = check_console(DOUBLECARD, folder, LIMITS)
    transcripts = "\n----\n".join(s.transcript for s in report.scenarios)
    assert report.passed and report.points == 10, "\n".join(report.lines) + "\n" + transcripts
    for scenario in report.scenarios:                     # set-up answered and moves played in both games
        assert scenario.transcript.count(">>> ") >= 3, scenario.transcript


@pytest.mark.parametrize("shape", ["game.py, a printed menu read by input()", "driver.py, options in brackets"])
def test_grader_check_plays_the_console_not_a_line_protocol(tmp_path, shape):
    folder = write_shape(tmp_path / "student", SHAPES[shape])
    status, doc = check_json(folder, "doublecard")
    assert [c["name"] for c in doc["checks"]] == ["program"], doc["checks"]
    assert status == 0 and doc["passed"], doc["checks"]


def test_a_helper_named_player_py_is_not_taken_for_the_course_api_or_the_entry(tmp_path):
    from grader.assignment import load_assignments
    from tests.checking import ROOT

    a = load_assignments(ROOT / "config.yaml")["doublecard"]
    folder = write_shape(tmp_path / "student", SHAPES["playGame.py, menus in multi-line prompts and a player.py of its own"])
    sub = load(folder, a.ruleset.entry, 10)
    assert submission_kind(a, sub) == "program"
