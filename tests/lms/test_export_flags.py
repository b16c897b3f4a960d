"""A similarity flag reaches the instructor at export time, and only the instructor (issue 45,
item 5): the export's summary line and the review copy name it, the feedback a student reads in the
LMS does not, and the grade is the one the league gave ("flags never change a grade")."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
import yaml

from grader.cli import main

WORKSHEET = ("Identifier,Full name,Status,Grade,Maximum grade,Grade can be changed,Last modified (submission),"
             "Last modified (grade),Feedback comments\n"
             "Participant 501,Alice Novak,Submitted for grading,,100.00,Yes,-,-,\n"
             "Participant 502,Bob Dvorak,Submitted for grading,,100.00,Yes,-,-,\n"
             "Participant 503,Eve Mallory,Submitted for grading,,100.00,Yes,-,-,\n")
GRADES = {"501": 90.0, "502": 60.0, "503": 75.0}

OWN = '''import random


class Player:
    """Walks towards the goal row; a wall now and then when the opponent is closer."""

    def __init__(self, seat):
        self.seat = seat
        self.rng = random.Random(seat)

    def move(self, state):
        pawns = state["pawns"]
        mine, theirs = pawns[self.seat], pawns[1 - self.seat]
        steps = [m for m in state["legal"] if m[0] == "step"]
        if theirs[2] < mine[2] and state["walls_left"][self.seat] > 0:
            walls = [m for m in state["legal"] if m[0] == "wall"]
            if walls:
                return self.rng.choice(walls)
        steps.sort(key=lambda m: abs(m[2] - state["goal"][self.seat]))
        return steps[0] if steps else self.rng.choice(state["legal"])
'''

OTHER = '''def evaluate(board, who):
    total = 0
    for row in board:
        for cell in row:
            if cell == who:
                total += 3
            elif cell:
                total -= 2
    return total


def search(board, depth, who, children):
    if depth == 0:
        return evaluate(board, who), None
    best, choice = None, None
    for move, child in children(board, who):
        value = -search(child, depth - 1, 1 - who, children)[0]
        if best is None or value > best:
            best, choice = value, move
    return (best if best is not None else evaluate(board, who)), choice
'''


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    """Three students (503 handed in 501's code unchanged), the similarity report run on them, and
    a results.json as `grader run` leaves it; returns the course folder."""
    folder = tmp_path_factory.mktemp("course")
    for sid, code in (("501", OWN), ("502", OTHER), ("503", OWN)):
        (folder / "subs" / sid).mkdir(parents=True)
        (folder / "subs" / sid / "player.py").write_text(code, encoding="utf-8")
    (folder / "config.yaml").write_text(yaml.safe_dump({"assignments": {"q": {
        "ruleset": "quoridor", "submissions": "subs", "reports": "reports/q", "similarity": {},
        "grading": {"kind": "bands", "bands": [[0.5, 100]]}}}}), encoding="utf-8")
    assert main(["--config", str(folder / "config.yaml"), "similarity", "q"]) == 0
    subs = [{"id": sid, "display_name": sid, "student_name": sid, "status": "valid", "status_detail": "",
             "validation": {"passed": True, "points": 1, "max_points": 1, "checks": []}, "rank": n + 1,
             "points": 2.0 - n, "grade": grade, "grade_max": 100.0, "penalties": []}
            for n, (sid, grade) in enumerate(GRADES.items())]
    (folder / "reports" / "q").mkdir(parents=True, exist_ok=True)
    (folder / "reports" / "q" / "results.json").write_text(json.dumps(
        {"assignment": {"title": "Quoridor"}, "submissions": subs}), encoding="utf-8")
    return folder


def test_the_moodle_export_names_the_flag_to_the_instructor_and_not_to_the_student(tmp_path, course, capsys):
    capsys.readouterr()
    (tmp_path / "ws.csv").write_text(WORKSHEET, encoding="utf-8")
    back = tmp_path / "back.csv"
    assert main(["--config", str(course / "config.yaml"), "export", "q", "--moodle", str(tmp_path / "ws.csv"),
                 "--out", str(back)]) == 0
    said = capsys.readouterr().out
    summary = said.splitlines()[0]
    assert "2 students flagged by the similarity report, grades unchanged" in summary, said
    assert "flagged: 503: similar code: 100% shared with submission 501" in said, said
    assert "flagged: 502" not in said

    rows = {r["Identifier"]: r for r in csv.DictReader(back.open(encoding="utf-8"))}
    for sid, grade in GRADES.items():                        # the grades stand as the league gave them
        assert float(rows[f"Participant {sid}"]["Grade"]) == grade
    student = rows["Participant 503"]["Feedback comments"]
    assert "Quoridor" in student
    assert "similar" not in student.lower() and "flag" not in student.lower()

    review = course / "reports" / "q-instructor" / "feedback-review.csv"
    assert "feedback-review.csv" in said
    reviewed = {r["student_id"]: r for r in csv.DictReader(review.open(encoding="utf-8"))}
    assert "Similarity flags (instructor only" in reviewed["503"]["feedback"]
    assert "similar code: 100% shared with submission 501" in reviewed["503"]["feedback"]
    assert "Similarity flags" not in reviewed["502"]["feedback"]
    assert float(reviewed["503"]["grade"]) == GRADES["503"]


def test_the_plain_export_summary_names_the_flag_and_its_file_does_not(tmp_path, course, capsys):
    capsys.readouterr()
    plain = tmp_path / "grades.csv"
    assert main(["--config", str(course / "config.yaml"), "export", "q", "--out", str(plain)]) == 0
    said = capsys.readouterr().out
    assert "3 students; 2 students flagged by the similarity report, grades unchanged" in said, said
    written = plain.read_text(encoding="utf-8")
    assert "similar" not in written.lower() and "flag" not in written.lower()
    assert {r["student_id"]: float(r["grade"]) for r in csv.DictReader(plain.open(encoding="utf-8"))} == GRADES
