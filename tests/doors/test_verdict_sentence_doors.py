"""The verdict of one check in the same words at every door (issue 42.3): the last line of `grader
check` (which the upload service keeps as the upload's page), the first line of the Gradescope
output, and the feedback sent to the LMS gradebook all come from `usecases.check_verdict`.

Three reports, as the check leaves them: every point, points lost, and a console program the
grader could not read (a TA decides). Before, the Gradescope output and the LMS feedback said
"did not pass" where `grader check` said "needs a human"."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.assignment import load_assignments
from grader.check_report import verdict_text
from grader.gradescope import results_json
from grader.serve.lti_grades import feedback
from grader.submissions import Submission
from grader.validation import Check, ValidationReport

ROOT = Path(__file__).resolve().parents[2]


def report(case: str) -> ValidationReport:
    interface = Check("interface", "Interface", True, 0, 0, "loads")
    if case == "needs a human":
        console = Check("console", "Console dialogue", False, 0, 10, "Needs a human: could not read the piles.",
                        needs_human=True)
        return ValidationReport("alice", passed=False, points=0, max_points=10, checks=[interface, console],
                                kind="program", seed=7)
    probes = Check("probes", "Probe positions", case == "every point", 10 if case == "every point" else 4, 10,
                   "" if case == "every point" else "wrong on 6 of 10 positions", required=False)
    return ValidationReport("alice", passed=True, points=probes.points, max_points=10, checks=[interface, probes],
                            seed=7)


@pytest.fixture(scope="module")
def assignment():
    return load_assignments(ROOT / "config.yaml")["quoridor"]


@pytest.mark.parametrize("case", ["every point", "points lost", "needs a human"])
def test_the_three_doors_say_the_same_sentence(assignment, case):
    checked = report(case)
    cli = verdict_text(assignment, Submission("alice", Path("player.py")), checked)
    said = cli.rsplit("Result: ", 1)[1].strip()
    gradescope = results_json(checked)["output"].splitlines()[0]
    lms = feedback({"verdict_json": json.dumps(checked.to_json()), "points": checked.points}, checked.points)
    assert said[:1].upper() + said[1:] == gradescope == lms, case
    if case == "needs a human":
        assert gradescope.startswith("Needs a human: ") and "no points recorded" in lms
