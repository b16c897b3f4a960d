"""One submission, one check verdict: the league the service runs keeps the verdict each student's
upload was given (its seed, its positions, its points), rather than checking the same bytes again
with another seed and telling the student another count of positions."""
from __future__ import annotations

import json
from pathlib import Path

from grader.serve.league_folder import league_assignment
from grader.store import Store

ROOT = Path(__file__).resolve().parents[2]
GOOD = ROOT / "submissions" / "quoridor" / "alice" / "player.py"
BROKEN = ROOT / "submissions" / "quoridor" / "no_crossing" / "player.py"


def _verdicts(service) -> dict[str, dict]:
    rows = service.database.query("SELECT s.login, u.verdict_json FROM uploads u JOIN users s ON s.id = u.user_id")
    return {r["login"]: json.loads(r["verdict_json"]) for r in rows}


def test_the_league_keeps_the_verdict_each_upload_was_given_and_checks_again_only_under_other_settings(service):
    service.site("alice", "alice-password").upload(GOOD)
    service.site("bob", "bob-password").upload(BROKEN)
    service.work()
    shown = _verdicts(service)
    assert shown["alice"]["passed"] and not shown["bob"]["passed"]
    # bob's verdict was given under other settings (the course changed its limits since): checked again
    bob = dict(shown["bob"], key="0" * 64)
    service.database.execute("UPDATE uploads SET verdict_json = ? WHERE user_id = (SELECT id FROM users WHERE login = ?)",
                             (json.dumps(bob), "bob"))
    teacher = service.site("teacher", "teacher-password")
    teacher.client.post("/teach/quoridor/league", data={"csrf": teacher.csrf("/teach/quoridor")})
    service.work()
    assert [r["status"] for r in service.database.query("SELECT status FROM league_runs")] == ["done"]

    svc = service.app_.service
    league = league_assignment(svc.assignment("quoridor"), svc.data_dir)
    with Store(league.store_path) as store:
        kept = {r.id: json.loads(r.validation_json) for r in store.submissions("quoridor")
                if not r.id.startswith("builtin:")}
    assert kept["alice"]["seed"] == shown["alice"]["seed"]            # the seed the student was shown
    assert kept["alice"]["checks"] == shown["alice"]["checks"] and kept["alice"]["points"] == shown["alice"]["points"]
    assert kept["bob"]["seed"] != shown["bob"]["seed"]                # another configuration: a fresh check
