"""The `league` grade policy (serve.lti.grade: league): the LMS gets the grade of the last league run
begun after the deadline, with a comment that names the policy and the run. Before such a run nothing
is decided, however good an upload is; a run begun before the deadline does not count; repeating the
sync sends nothing new. The league run is left as the worker leaves one: a done row in league_runs and
results.json in the league's reports folder."""
from __future__ import annotations

import json
import time
from datetime import datetime

import httpx
import pytest
from joserfc.jwk import KeySet

from grader.serve.league_folder import folder_name

from .test_lti import CLIENT, ISS, FakeLms, client, graded, instructor, launch, post

DEADLINE = "2026-01-01T00:00:00"


@pytest.fixture
def league_tool(make_config):
    from starlette.testclient import TestClient

    from grader.serve.app import create_app

    lms = FakeLms()
    app = create_app(make_config(
        f"  lti:\n    grade: league\n    platforms:\n      - {{issuer: '{ISS}', client_id: {CLIENT}, "
        f"auth_url: '{ISS}/auth', token_url: '{ISS}/token', jwks_url: '{ISS}/jwks', deployment_ids: [dep-1]}}\n",
        **{"upload_penalty: 0.1}": f"upload_penalty: 0.1, deadline: '{DEADLINE}'}}"}))
    app.service.lti.transport = httpx.MockTransport(lms.handle)
    lms.tool_keys = KeySet.import_key_set(TestClient(app).get("/lti/jwks").json())
    return app, lms


def league_run(app, started_at: float, grade: float) -> int:
    """A finished league run begun at `started_at` in which alice got `grade` of 3."""
    db = app.service.db
    db.execute("INSERT INTO league_runs (assignment, status, requested_at, started_at, finished_at) "
               "VALUES ('quoridor', 'done', ?, ?, ?)", (started_at, started_at, started_at + 60))
    run = db.one("SELECT id FROM league_runs ORDER BY id DESC LIMIT 1")
    folder = app.service.league_folder("quoridor")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "results.json").write_text(json.dumps({"assignment": {"name": "quoridor"}, "submissions": [
        {"id": folder_name("alice@uni.example.edu"), "rank": 1, "grade": grade, "grade_max": 3.0,
         "grade_reason": "place 1 of 2: in the top 50%"}]}))
    return run["id"]


def test_the_league_after_the_deadline_is_the_grade_sent(league_tool):
    app, lms = league_tool
    launch(client(app), lms)
    teacher = instructor(app, lms)
    graded(app.service.db, "alice@uni.example.edu", 1, 3.0)          # a perfect upload is not the league
    text = post(teacher, "/teach/quoridor/lti/grades")
    assert "No league run has finished since the deadline (2026-01-01 00:00" in text and lms.scores == []

    deadline = datetime.fromisoformat(DEADLINE).timestamp()
    league_run(app, deadline - 3600, 1.0)                             # begun before the deadline: not it
    post(teacher, "/teach/quoridor/lti/grades")
    assert lms.scores == []

    run = league_run(app, time.time(), 2.5)
    text = post(teacher, "/teach/quoridor/lti/grades")
    assert "1 grade(s) sent" in text
    assert [(s["userId"], s["scoreGiven"], s["scoreMaximum"]) for s in lms.scores] == [("lms-alice", 2.5, 3.0)]
    comment = lms.scores[0]["comment"]
    assert comment.startswith(f"Grade from the league run after the deadline (serve.lti.grade: league; run {run},")
    assert comment.endswith("): 2.5 of 3 points, place 1 of 2: in the top 50%.")
    post(teacher, "/teach/quoridor/lti/grades")                       # the same run again: nothing new
    assert len(lms.scores) == 1
