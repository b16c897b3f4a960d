"""An upload's check in the service: bounded by its stages' limits (grader/job_bound.py), stopped past
its bound with the blame where it belongs, and its stage shown on the upload's page while it runs."""
from __future__ import annotations

import time
from pathlib import Path

import psutil

from grader.job_bound import JobBound

ROOT = Path(__file__).resolve().parents[2]
GOOD = ROOT / "submissions" / "quoridor" / "alice" / "player.py"


def _upload(service) -> str:
    response = service.site("alice", "alice-password").upload(GOOD)
    assert response.status_code == 303, response.text
    return response.headers["location"].rsplit("/", 1)[1]


def _left_behind(since: float) -> list[psutil.Process]:
    """This test process's descendants started since `since` that still run (the job's players, templates)."""
    out = []
    for proc in psutil.Process().children(recursive=True):
        try:
            if proc.create_time() >= since - 1 and proc.status() != psutil.STATUS_ZOMBIE:
                out.append(proc)
        except psutil.Error:
            pass
    return out


def test_a_check_whose_players_use_more_than_its_bound_is_stopped_and_the_player_is_blamed(service, monkeypatch):
    from grader.serve import worker

    monkeypatch.setattr(worker, "check_bound", lambda assignment: JobBound(charged_s=0.0, wall_s=1e9))
    uid = _upload(service)
    since = time.time()
    assert service.work() == 1
    row = service.database.one("SELECT * FROM uploads WHERE id = ?", (uid,))
    assert row["status"] == "done" and row["passed"] == 0 and row["points"] == 0 and row["attempts"] == 1
    assert row["verdict_text"].startswith("The check was stopped: your player used")
    page = service.site("alice", "alice-password").client.get(f"/uploads/{uid}").text
    assert "Did not pass" in page and "The check was stopped: your player used" in page
    assert not _left_behind(since)


def test_a_check_the_machine_is_too_slow_for_is_stopped_blamed_on_the_grader_and_retried(service, monkeypatch):
    from grader.serve import worker

    monkeypatch.setattr(worker, "check_bound", lambda assignment: JobBound(charged_s=1e9, wall_s=0.0))
    monkeypatch.setattr(worker, "MAX_ATTEMPTS", 2)
    uid = _upload(service)
    since = time.time()
    service.work()
    row = service.database.one("SELECT * FROM uploads WHERE id = ?", (uid,))
    assert row["status"] == "queued" and row["passed"] is None and "the machine was too slow" in row["grader_error"]
    service.database.execute("UPDATE uploads SET not_before = 0 WHERE id = ?", (uid,))
    service.work()
    row = service.database.one("SELECT * FROM uploads WHERE id = ?", (uid,))
    assert row["status"] == "grader_failed" and row["passed"] is None and row["attempts"] == 2
    assert "The grader itself failed on this upload (not your player)" in \
        service.site("alice", "alice-password").client.get(f"/uploads/{uid}").text
    assert not _left_behind(since)


def test_the_bound_comes_from_the_stages_limits(service):
    from grader.job_bound import SMOKE_OWN_MOVES, check_bound
    from grader.serve.context import ServeContext

    a = ServeContext(service.config).assignments["quoridor"]
    bound = check_bound(a)
    move = a.move_s * a.kill_factor + a.kill_after_s
    cases = sum(len(p.cases(a.game, 0)) for p in a.probes())
    assert bound.charged_s > 2 * (cases * move + SMOKE_OWN_MOVES * move + a.config.programs.build_time_s)
    assert bound.wall_s > bound.charged_s


def test_the_upload_page_shows_the_stage_its_check_is_in(service):
    uid = _upload(service)
    assert service.work() == 1
    row = service.database.one("SELECT * FROM uploads WHERE id = ?", (uid,))
    assert row["status"] == "done" and row["stage"] == "Smoke games"      # the check's last stage, as it started
    service.database.execute("UPDATE uploads SET status = 'running', stage = 'Legal moves' WHERE id = ?", (uid,))
    alice = service.site("alice", "alice-password")
    assert "Being evaluated now: Legal moves…" in alice.client.get(f"/uploads/{uid}").text
    assert alice.client.get(f"/uploads/{uid}/status").json()["stage"] == "Legal moves"


def test_a_stuck_evaluation_is_stopped_at_the_wall_backstop_and_the_worker_goes_on_to_the_next_upload(service,
                                                                                                     monkeypatch):
    import re

    from grader.serve import worker

    def evaluate(assignment, upload, on_stage=None):
        if b"HANG" in Path(upload["path"]).read_bytes():
            re.match(r"(a+)+$", "a" * 64 + "b")          # holds the interpreter for ever
        return {"passed": 1, "points": 2.0, "max_points": 2.0, "verdict_text": "", "verdict_json": "{}",
                "grader_error": None}

    monkeypatch.setattr(worker, "evaluate", evaluate)
    monkeypatch.setattr(worker, "check_bound", lambda assignment: JobBound(charged_s=1e9, wall_s=2.0))
    alice = service.site("alice", "alice-password")
    stuck = alice.client.post("/a/quoridor/upload", data={"csrf": alice.csrf("/a/quoridor")},
                              files={"file": ("player.py", GOOD.read_bytes() + b"\n# HANG\n")}, follow_redirects=False)
    stuck_id = stuck.headers["location"].rsplit("/", 1)[1]
    bob = service.site("bob", "bob-password")
    later = bob.upload(GOOD).headers["location"].rsplit("/", 1)[1]
    assert service.work() >= 2          # more if the stuck one's pause ran out meanwhile (it is tried 3 times)
    row = service.database.one("SELECT * FROM uploads WHERE id = ?", (stuck_id,))
    assert row["status"] in ("queued", "grader_failed") and row["passed"] is None
    assert "not the player's fault" in row["grader_error"]
    assert service.database.one("SELECT * FROM uploads WHERE id = ?", (later,))["passed"] == 1
