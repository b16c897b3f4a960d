"""The upload service as students and instructors use it, and as hostile users try it."""
from __future__ import annotations

import re
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOOD = ROOT / "submissions" / "quoridor" / "alice" / "player.py"
BROKEN = ROOT / "submissions" / "quoridor" / "no_crossing" / "player.py"


def upload_id(response) -> str:
    assert response.status_code == 303, response.text
    return response.headers["location"].rsplit("/", 1)[1]


def test_a_student_uploads_a_broken_player_and_sees_the_failing_stage_then_a_fixed_one_passes(service):
    alice = service.site("alice", "alice-password")
    broken = upload_id(alice.upload(BROKEN))
    page = alice.client.get(f"/uploads/{broken}").text
    assert "Waiting to be evaluated" in page
    assert alice.client.get(f"/uploads/{broken}/status").json()["status"] == "queued"
    assert service.work() == 1
    page = alice.client.get(f"/uploads/{broken}").text
    assert "Did not pass" in page and "expand_player" in page
    assert 'src="data:image/svg+xml;base64,' in page          # the failing position's picture
    assert "FAIL" in page and "Result:" in page              # the check's own text output
    good = upload_id(alice.upload(GOOD))
    service.work()
    page = alice.client.get(f"/uploads/{good}").text
    assert "Passed: 2 of 2 points" in page
    listing = alice.client.get("/a/quoridor").text
    assert listing.count("/uploads/") == 2 and "did not pass" in listing and "passed" in listing


def test_every_acknowledged_upload_gets_exactly_one_verdict_even_when_its_worker_is_taken_over(service):
    from grader.serve.worker import Worker

    alice = service.site("alice", "alice-password")
    uid = upload_id(alice.upload(GOOD))
    dead = Worker(service.config)
    job = dead.db.claim("uploads", "dead-worker", 0.01)          # a worker that dies right after claiming
    assert job["id"] == uid
    time.sleep(0.05)
    assert service.work() == 1                                   # the lease expired: another worker takes it
    assert not dead.db.finish("uploads", uid, "dead-worker", status="done", passed=0)   # the late writer writes nothing
    row = service.database.one("SELECT * FROM uploads WHERE id = ?", (uid,))
    assert row["status"] == "done" and row["passed"] == 1 and row["attempts"] == 2


def test_a_failure_of_the_grader_is_retried_and_never_shown_as_the_students_fault(service, monkeypatch):
    from grader.serve import worker

    def broken_evaluate(assignment, upload, on_stage=None):
        raise OSError("disk full")             # in the job's own process (grader/serve/upload_job.py)

    monkeypatch.setattr(worker, "evaluate", broken_evaluate)
    monkeypatch.setattr(worker, "MAX_ATTEMPTS", 2)
    alice = service.site("alice", "alice-password")
    uid = upload_id(alice.upload(GOOD))
    service.work()
    row = service.database.one("SELECT * FROM uploads WHERE id = ?", (uid,))
    assert row["status"] == "queued" and row["not_before"] > time.time()        # retried after a pause
    service.database.execute("UPDATE uploads SET not_before = 0 WHERE id = ?", (uid,))
    service.work()
    row = service.database.one("SELECT * FROM uploads WHERE id = ?", (uid,))
    assert row["status"] == "grader_failed" and row["passed"] is None and row["attempts"] == 2
    assert row["grader_error"] == "OSError: disk full"
    assert "The grader itself failed" in alice.client.get(f"/uploads/{uid}").text
    teacher = service.site("teacher", "teacher-password")
    assert "could not be evaluated by the grader itself" in teacher.client.get("/teach/quoridor").text


def test_one_student_cannot_reach_another_students_upload_nor_the_instructor_pages(service):
    alice = service.site("alice", "alice-password")
    uid = upload_id(alice.upload(GOOD))
    bob = service.site("bob", "bob-password")
    for path in (f"/uploads/{uid}", f"/uploads/{uid}/status", f"/uploads/{uid}/file"):
        assert bob.client.get(path).status_code in (403, 404), path
    assert bob.client.get("/uploads/" + "A" * 22).status_code == 404
    assert bob.client.get("/teach/quoridor").status_code == 403
    assert bob.client.get("/teach/quoridor/grades.csv").status_code == 403
    token = bob.csrf("/a/quoridor")
    assert bob.client.post("/teach/quoridor/rejudge", data={"csrf": token}).status_code == 403
    assert bob.client.post("/teach/quoridor/league", data={"csrf": token}).status_code == 403
    anonymous = service.site()
    assert anonymous.client.get(f"/uploads/{uid}", follow_redirects=False).status_code == 303
    assert len(uid) >= 22                                          # 128 random bits


def test_forms_without_the_sessions_csrf_token_are_refused(service):
    alice = service.site("alice", "alice-password")
    r = alice.client.post("/a/quoridor/upload", data={"csrf": "forged"}, files={"file": ("player.py", b"x")})
    assert r.status_code == 403
    assert service.database.query("SELECT * FROM uploads") == []
    stranger = service.site()
    r = stranger.client.post("/login", data={"login": "alice", "password": "alice-password"}, follow_redirects=False)
    assert r.status_code == 403


def test_an_oversized_upload_is_refused_before_it_is_stored_and_a_flood_is_rate_limited(service):
    alice = service.site("alice", "alice-password")
    token = alice.csrf("/a/quoridor")
    big = b"#" * int(11e6)
    r = alice.client.post("/a/quoridor/upload", data={"csrf": token}, files={"file": ("player.py", big)})
    assert r.status_code == 413 and "larger than" in r.text
    assert service.database.query("SELECT * FROM uploads") == []
    for _ in range(5):
        assert alice.upload(GOOD).status_code == 303
    r = alice.upload(GOOD)
    assert r.status_code == 429 and "try again in" in r.text
    assert len(service.database.query("SELECT * FROM uploads")) == 5


def test_names_and_texts_are_escaped(service):
    teacher = service.site("teacher", "teacher-password")
    page = teacher.client.get("/teach/quoridor").text
    assert "<b>Svoboda</b>" not in page and "&lt;b&gt;Svoboda&lt;/b&gt;" in page
    bob = service.site("bob", "bob-password")
    uid = upload_id(bob.upload(GOOD, name="<script>alert(1)</script>.py"))
    page = bob.client.get(f"/uploads/{uid}").text
    assert "<script>alert(1)" not in page


def test_penalties_use_the_servers_clock_and_count_not_what_the_client_sends(service):
    alice = service.site("alice", "alice-password")
    ids = [upload_id(alice.upload(GOOD)) for _ in range(3)]
    service.work()
    third = service.database.one("SELECT * FROM uploads WHERE id = ?", (ids[-1],))
    assert third["seq"] == 3 and abs(third["uploaded_at"] - time.time()) < 60
    page = alice.client.get(f"/uploads/{ids[-1]}").text
    assert "3 uploads, 1 past the limit of 2" in page and "1.8 after penalties" in page
    token = alice.csrf("/a/quoridor")
    r = alice.client.post("/a/quoridor/upload", data={"csrf": token, "uploaded_at": "2000-01-01", "seq": "1"},
                          files={"file": ("player.py", GOOD.read_bytes())}, follow_redirects=False)
    row = service.database.one("SELECT * FROM uploads WHERE id = ?", (upload_id(r),))
    assert row["seq"] == 4 and row["uploaded_at"] > time.time() - 60


def test_the_instructor_imports_a_roster_rejudges_runs_the_league_and_exports(service):
    teacher = service.site("teacher", "teacher-password")
    token = teacher.csrf("/teach/quoridor")
    roster = "Full name;Email address;Username\nCyril Černý;cyril@example.edu;cyril\nAlice Nováková;a@x;alice\n"
    r = teacher.client.post("/teach/quoridor/roster", data={"csrf": token},
                            files={"roster": ("roster.csv", roster.encode())})
    assert r.status_code == 200 and "cyril" in r.text and "1 login(s) already had an account" in r.text
    link = re.search(r"http://testserver/setup/([\w-]+)", r.text).group(1)
    cyril = service.site()
    token = cyril.csrf(f"/setup/{link}")
    r = cyril.client.post(f"/setup/{link}", data={"csrf": token, "password": "a-long-password", "again": "a-long-password"},
                          follow_redirects=False)
    assert r.status_code == 303
    assert cyril.client.get(f"/setup/{link}").status_code == 404              # used once
    uid = upload_id(cyril.upload(GOOD))
    alice = service.site("alice", "alice-password")
    upload_id(alice.upload(GOOD))
    service.work()
    token = teacher.csrf("/teach/quoridor")
    r = teacher.client.post("/teach/quoridor/rejudge", data={"csrf": token, "upload": uid}, follow_redirects=True)
    assert "1 upload(s) queued" in r.text
    assert service.work() == 1
    r = teacher.client.post("/teach/quoridor/league", data={"csrf": token}, follow_redirects=True)
    assert "League run queued" in r.text
    service.work()
    runs = service.database.query("SELECT * FROM league_runs")
    assert runs[0]["status"] == "done", runs
    csv = teacher.client.get("/teach/quoridor/grades.csv")
    assert csv.status_code == 200 and "cyril" in csv.text and "alice" in csv.text
    page = cyril.client.get("/a/quoridor").text
    assert 'id="my-games"' in page
    assert cyril.client.get("/league/quoridor/index.html").status_code == 200
    assert cyril.client.get("/league/quoridor/results.json").status_code == 404
    assert cyril.client.get("/league/quoridor/../../grader.sqlite").status_code == 404
