"""The words a student reads once: the check's last line, the league's numbers and the LMS feedback."""
from __future__ import annotations

import copy

from grader.feedback import num, verdict
from grader.lms.export import feedback_html
from grader.outputs import grade_rows


def stage(name, passed, points=0, max_points=0, required=True, informational=False, message="ok"):
    return {"name": name, "title": name.capitalize(), "passed": passed, "points": points,
            "max_points": max_points, "required": required, "informational": informational, "message": message}


def test_a_failed_required_gate_is_named_beside_full_points():
    checks = [stage("interface", True), stage("expand", True, 2, 2),
              stage("smoke", False, message="raised IndexError")]
    passed, sentence = verdict(checks, [], 2, 2)
    assert not passed
    assert sentence.startswith('did not pass: the required stage "Smoke" failed')
    assert "2 of 2 points" in sentence and "out of the league" in sentence


def test_a_gate_that_is_not_required_is_not_counted_as_a_graded_stage():
    checks = [stage("interface", True), stage("legal", True, 1, 1), stage("smoke", False, required=False)]
    passed, sentence = verdict(checks, [], 1, 1)
    assert passed
    assert "graded stage" not in sentence and "points lost" not in sentence
    assert sentence == 'passed every required stage — 1 of 1 point; "Smoke" failed (not required here).'


def test_every_move_replaced_is_told():
    checks = [stage("interface", True), stage("legal", False, 0, 1, required=False),
              stage("smoke", False, required=False)]
    games = [{"moves": 2, "replaced": 2}, {"moves": 4, "replaced": 4}]
    _, sentence = verdict(checks, games, 0, 1)
    assert "Every one of your 6 moves in the smoke games was replaced by a random move" in sentence
    assert "so you played at random" in sentence
    _, some = verdict(checks, [{"moves": 3, "replaced": 1}], 0, 1)
    assert "1 of your 3 moves in the smoke games were replaced" in some


def test_points_are_printed_with_two_decimals_everywhere():
    assert num(5.138888) == "5.14" and num(10) == "10" and num(0.5) == "0.5"
    _, sentence = verdict([stage("interface", True), stage("probe", False, 5.138888, 10)], [], 5.138888, 10)
    assert "5.14 of 10 points" in sentence and "5.1389" not in sentence


def test_the_interface_failing_says_nothing_else_ran():
    passed, sentence = verdict([stage("interface", False, message="no class Player")], [], 0, 2)
    assert not passed and sentence == "did not pass: the interface stage failed, so no other stage ran (0 of 2 points)."


def _doc():
    failing = "Returned e9, which is off the board. " + "Long explanation. " * 20
    sub = {"status": "valid", "status_detail": "", "penalties": [], "grade_max": 3, "games": 8}
    ok = {"passed": True, "points": 2, "max_points": 2, "checks": [
        stage("interface", True), stage("expand", True, 2, 2), stage("smoke", True)]}
    return {"assignment": {"title": "Quoridor", "grading": {"kind": "bands", "bands": [[0.1, 3], [0.2, 2], [0.4, 1]]}},
            "submissions": [
                {**sub, "id": "builtin:baseline", "display_name": "baseline", "status": "built-in", "rank": 1,
                 "points": 8, "grade": None, "validation": None},
                {**sub, "id": "ann", "display_name": "Ann", "rank": 2, "points": 6, "grade": 3,
                 "grade_reason": "place 1 of 2: in the top 10%", "validation": copy.deepcopy(ok)},
                {**sub, "id": "builtin:random", "display_name": "random", "status": "built-in", "rank": 3,
                 "points": 3, "grade": None, "validation": None},
                {**sub, "id": "bo", "display_name": "Bo", "rank": 4, "points": 1, "grade": 0,
                 "grade_reason": "place 2 of 2: outside every band", "validation": copy.deepcopy(ok)},
                {**sub, "id": "cy", "display_name": "Cy", "status": "failed", "rank": None, "points": None,
                 "games": None, "grade": 0, "status_detail": "failed validation at the smoke stage: " + failing[:40] + "…",
                 "grade_reason": "failed validation at the smoke stage: " + failing[:40] + "…",
                 "validation": {"passed": False, "points": 2, "max_points": 2, "checks": [
                     stage("interface", True), stage("expand", True, 2, 2), stage("smoke", False, message=failing)]}},
            ]}


def test_feedback_says_what_passed_what_failed_place_among_students_and_why_the_grade():
    rows = {r["student_id"]: r["feedback"] for r in grade_rows(_doc())}
    assert set(rows) == {"ann", "bo", "cy"}                               # no built-ins
    bo = rows["bo"]
    assert "League: 2nd of 2 students, 1 point from 8 games." in bo        # built-ins not counted
    assert "Grade: 0 of 3: place 2 of 2: outside every band (the top 10% get 3" in bo
    assert "Passed: Interface; Expand (2 of 2 points); Smoke." in bo
    assert "[pass]" not in bo and "0 / 0" not in bo
    cy = rows["cy"]
    assert cy.count("Returned e9") == 1 and "…" not in cy                   # the sentence once, whole
    assert "Failed: Smoke (required): Returned e9, which is off the board." in cy
    assert "Grade: 0 of 3: a required stage failed" in cy
    assert "  " not in "".join(rows.values())                              # no alignment by spaces
    assert "&nbsp;" not in feedback_html(cy) and "<br>" in feedback_html(cy)


def test_the_check_prints_a_position_once_and_points_rounded():
    from types import SimpleNamespace

    from rich.console import Console

    from grader import check_report
    from grader.validation import Check, ValidationReport

    board = "12  .   .   .\n 1  .   .   .\n    A   B   C"
    report = ValidationReport("s", passed=True, points=5.138888, max_points=10, checks=[
        Check("interface", "Interface", True, 0, 0, "ok"),
        Check("legal", "Legal moves", False, 5.138888, 10, "wrong on the empty board", picture=board,
              required=False),
        Check("tactics", "Tactics", False, 0, 0, "wrong on the empty board", informational=True, picture=board)],
        games=[{"opponent": "random", "seat": 0, "result": "loss", "reason": "error", "moves": 3, "replaced": 3}])
    out = Console(record=True, width=80, soft_wrap=True)
    check_report.print_check_report(SimpleNamespace(title="Double Card"), SimpleNamespace(source="sub"), report, out)
    text = out.export_text()
    assert text.count("12  .   .   .") == 1 and "(the same position as shown above)" in text
    assert "5.14/10 pt" in text and "5.1389" not in text
    assert "loss (error), 3 of 3 moves replaced by random ones" in text
    assert text.strip().splitlines()[-1].startswith(
        'Result: passed every required stage — 5.14 of 10 points; points lost in "Legal moves". Every one')


def test_feedback_tells_how_many_league_moves_were_replaced():
    doc = _doc()
    doc["submissions"][1].update(moves=40, replaced=40)
    ann = {r["student_id"]: r["feedback"] for r in grade_rows(doc)}["ann"]
    assert "League: Every one of your 40 moves in the league was replaced by a random move" in ann


def test_ratings_read_as_plus_minus_and_only_where_meaningful():
    from grader.feedback import rating

    assert rating(1517.4, 1417.4, 1617.4) == ("1517", "±100")
    assert rating(517, -642, 1676) == (None, None)                      # ±1159: too few games to tell
    assert rating(None, None, None) == (None, None)


def test_a_program_that_fails_is_not_kept_out_of_a_league_it_never_plays():
    program = [{"name": "program", "title": "The program", "passed": False, "points": 0, "max_points": 10,
                "required": True, "message": "it hangs"}]
    passed, sentence = verdict(program, [], 0, 10, passed=False, plays=False)
    assert not passed and sentence == 'did not pass: the required stage "The program" failed (0 of 10 points).'
    program[0]["required"] = False                     # graded on points, but the report failed it
    passed, sentence = verdict(program, [], 0, 10, passed=False, plays=False)
    assert not passed and sentence.startswith("did not pass — 0 of 10 points; points lost in")
