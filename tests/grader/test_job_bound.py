"""Whose fault a check stopped at its bound is (usecases.job_stopped): the player's own processor time
past the bound is the player's, whatever the wall clock says; the wall backstop alone is the machine's."""
from __future__ import annotations

from pathlib import Path

from grader.assignment import resolve
from grader.config import AssignmentConfig
from grader.job_bound import JobBound
from grader.submissions import Submission
from grader.usecases import job_stopped, stopped_document


def test_the_players_own_time_is_blamed_on_the_player_and_a_slow_machine_on_the_grader(tmp_path: Path):
    a = resolve("nim", AssignmentConfig(ruleset="rbnim", submissions=".", game={"red": 7, "blue": 9}), tmp_path)
    bound = JobBound(charged_s=100.0, wall_s=2000.0)
    assert job_stopped(a, bound, charged_s=99.0, wall_s=1999.0) is None
    over = job_stopped(a, bound, charged_s=101.0, wall_s=5000.0)      # a busy machine too: still the player's
    assert over is not None and over.students and over.sentence.startswith("The check was stopped: your player used 101 s")
    slow = job_stopped(a, bound, charged_s=3.0, wall_s=2001.0)
    assert slow is not None and not slow.students and "machine was too slow" in slow.sentence
    doc = stopped_document(a, Submission(id="upload-x", source=tmp_path), over)
    assert doc["passed"] is False and [c["name"] for c in doc["checks"]] == ["bound"]
    assert doc["max_points"] == sum(p.points for p in a.probes() if not p.informational)
