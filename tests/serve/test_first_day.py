"""An instructor's and a student's first day with the service (issue 42's evidence, tried 2026-11-28):
the set-password links as a CSV, a pass that lost points is never green, a favicon, the instructor
named from the course folder, and a `serve:` section with a deadline from `grader init`."""
from __future__ import annotations

import base64
import csv
import html
import io
import json
import re
import time
import uuid
from pathlib import Path

import yaml

QUORIDOR = Path(__file__).resolve().parents[2] / "submissions" / "quoridor"
GOOD, BROKEN = QUORIDOR / "alice" / "player.py", QUORIDOR / "no_crossing" / "player.py"


def test_the_browser_gets_a_favicon(service):
    r = service.site().client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"] == "image/png"
    assert r.content.startswith(b"\x89PNG\r\n\x1a\n")


def test_a_pass_that_lost_points_is_not_green(service):
    db = service.database
    alice = db.one("SELECT id FROM users WHERE login = 'alice'")
    doc = {"passed": True, "points": 0.0, "max_points": 1.0, "kind": "python", "games": [], "checks": [
        {"name": "interface", "title": "Interface", "passed": True, "required": True, "max_points": 0, "points": 0,
         "informational": False, "message": "ok"},
        {"name": "legal_moves", "title": "Legal moves", "passed": False, "required": False, "max_points": 1,
         "points": 0, "informational": False, "message": "16 of 24 positions answered wrongly"}]}
    upload_id = uuid.uuid4().hex
    db.execute("INSERT INTO uploads (id, user_id, assignment, filename, path, sha256, size, uploaded_at, seq, status, "
               "passed, points, max_points, verdict_text, verdict_json) VALUES (?, ?, 'quoridor', 'player.py', '/x', "
               "'0', 1, ?, 1, 'done', 1, 0, 1, '', ?)", (upload_id, alice["id"], time.time(), json.dumps(doc)))
    site = service.site("alice", "alice-password")
    page = site.client.get(f"/uploads/{upload_id}").text
    verdict = re.search(r'<p class="(\w+)" id="verdict">([^<]*)', page)
    assert verdict and verdict.group(1) != "ok" and "points lost" in verdict.group(2)
    assert "0 of 1 points" in verdict.group(2)
    listing = site.client.get("/a/quoridor").text
    assert '<span class="ok">' not in listing and "passed with points lost" in listing


def test_the_set_password_links_come_as_a_csv_for_a_mail_merge(service):
    teacher = service.site("teacher", "teacher-password")
    token = teacher.csrf("/teach/quoridor")
    roster = "Full name;Email address;Username\nCyril Černý;cyril@example.edu;cyril\nDana Dvořák;dana@example.edu;dana\n"
    r = teacher.client.post("/teach/quoridor/roster", data={"csrf": token},
                            files={"roster": ("roster.csv", roster.encode())})
    assert r.status_code == 200
    found = re.search(r'id="links-csv" href="data:text/csv;charset=utf-8;base64,([^"]+)"', r.text)
    assert found, "no CSV link on the roster page"
    rows = list(csv.DictReader(io.StringIO(base64.b64decode(html.unescape(found.group(1))).decode())))
    assert [(row["login"], row["name"], row["email"]) for row in rows] == [
        ("cyril", "Cyril Černý", "cyril@example.edu"), ("dana", "Dana Dvořák", "dana@example.edu")]
    shown = re.findall(r"http://testserver/setup/[\w-]+", r.text)
    assert [row["link"] for row in rows] == shown


def test_the_first_instructor_is_named_from_the_course_folder(tmp_path):
    from grader.course_folder import BUNDLED_CONFIG
    from grader.serve.db import Database
    from grader.serve.supervisor import first_instructor

    said: list[str] = []
    course = tmp_path / "ai-2026"
    course.mkdir()
    db = Database(f"sqlite:///{tmp_path / 'a.sqlite'}")
    first_instructor(db, course / "config.yaml", said.append)
    assert db.one("SELECT name FROM users WHERE login = 'instructor'")["name"] == "Instructor of ai-2026"
    assert "password" in said[0]
    demo = Database(f"sqlite:///{tmp_path / 'b.sqlite'}")
    first_instructor(demo, BUNDLED_CONFIG, said.append)
    assert demo.one("SELECT name FROM users WHERE login = 'instructor'")["name"] == "Demo instructor"


def test_grader_init_writes_a_serve_section_and_a_deadline_with_its_zone():
    from grader.config import Config
    from grader.course_folder import config_text

    text = config_text(["quoridor"])
    doc = yaml.safe_load(text)
    assert Config.model_validate(doc).serve.port == doc["serve"]["port"]
    example = re.search(r"# penalties: (\{deadline: '\d{4}-\d\d-\d\dT\d\d:\d\d:00[+-]\d\d:\d\d'.*\})", text)
    assert example, "no commented deadline with its zone"
    uncommented = text.replace("    penalties: {}", "    penalties: " + example.group(1).split("   #")[0], 1)
    assert Config.model_validate(yaml.safe_load(uncommented)).assignments["quoridor"].penalties["deadline"]


def test_a_student_whose_uploads_all_failed_is_in_the_exported_grades_with_the_reason(service):
    """The first-day walk's export had no row for the student whose upload failed: the league took
    passing uploads only, so the grades an instructor sends to the LMS silently left them out."""
    alice, bob = service.site("alice", "alice-password"), service.site("bob", "bob-password")
    assert alice.upload(GOOD).status_code == 303
    assert bob.upload(BROKEN).status_code == 303
    service.work()
    assert alice.upload(BROKEN).status_code == 303           # a later failing upload: her passing one still plays
    service.work()
    teacher = service.site("teacher", "teacher-password")
    teacher.client.post("/teach/quoridor/league", data={"csrf": teacher.csrf("/teach/quoridor")})
    service.work()
    run = service.database.one("SELECT * FROM league_runs")
    assert run["status"] == "done", run
    rows = {row["student_id"]: row for row in csv.DictReader(io.StringIO(teacher.client.get("/teach/quoridor/grades.csv").text))}
    assert set(rows) == {"alice", "bob"}
    assert float(rows["bob"]["grade"]) == 0 and "expand_obstacles" in rows["bob"]["feedback"]
    assert float(rows["alice"]["grade"]) > 0
    first = service.database.one("SELECT id FROM uploads WHERE passed = 1")["id"]
    assert "the one that plays in the league" in alice.client.get(f"/uploads/{first}").text


def test_a_new_instructor_is_told_where_the_class_is_and_what_an_empty_class_page_is_for(service):
    """Seen in the first-day walk: the home page's table is a student's (uploads, points) with a bare
    "Class" link, and the empty class page shows an empty table with nothing saying what to do."""
    service.database.execute("DELETE FROM users WHERE role = 'student'")
    teacher = service.site("teacher", "teacher-password")
    home = teacher.client.get("/").text
    assert 'id="teach-hint"' in home and ">Class page</a>" in home
    page = teacher.client.get("/teach/quoridor").text
    assert 'id="no-students"' in page and "add them with a roster below" in page
    r = teacher.client.post("/teach/quoridor/league", data={"csrf": teacher.csrf("/teach/quoridor")})
    assert "its progress and result are under League runs" in r.text
