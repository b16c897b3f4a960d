"""What the league leaves for the site and the LMS: moves in the course's notation, links into the
public site."""
from __future__ import annotations

from pathlib import Path

from grader.assignment import load_assignments
from grader.outputs import _move_texts, course_notation, grade_rows
from grader.report import render_site

CONFIG = Path(__file__).resolve().parents[2] / "config.yaml"


def test_replays_list_moves_in_the_course_notation_not_the_wire_form():
    a = load_assignments(CONFIG)["quoridor"]
    state = a.game.new_state(7)
    wires = []
    for _ in range(3):
        move = state.legal_moves()[0]
        wires.append(state.move_to_json(move))
        state.play(move)
    texts = course_notation(a, 7, wires)
    assert texts and all(t.startswith(("pawn to [", "wall (")) for t in texts), texts
    assert not any(t.startswith("(1, [") for t in texts)
    assert course_notation(a, 7, [{"type": 9}]) is None                  # unreadable: the stored texts stay
    stored_by_an_older_grader = ["(1, [4, 1])", "(1, [4, 7])", "(1, [4, 2])"]
    assert _move_texts(a, 7, wires, stored_by_an_older_grader) == texts
    assert _move_texts(a, 7, wires, texts) is texts                      # today's texts are kept as stored


def test_feedback_links_point_into_the_public_site(tmp_path, doc):
    for n, sub in enumerate(doc["submissions"]):
        sub.update(public_name=f"Calm Otter {n}", student_name=sub["display_name"], penalties=[], grade_reason="")
    render_site(doc, tmp_path / "public", public=True)
    rows = grade_rows(doc, report_url="https://example.edu/league/")
    for row in rows:
        link = row["feedback"].rsplit("Details: https://example.edu/league/", 1)[1]
        assert (tmp_path / "public" / link).is_file(), link
        assert row["student_id"] not in link
