"""The LMS commands as an instructor or a student types them: export's exit status, import --roster,
and `grader check` on a single entry file whose helper modules sit beside it."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml
from lms_builders import make_zip

from grader.cli import main

ROOT = Path(__file__).resolve().parents[2]
WORKSHEET = ("Identifier,Full name,Status,Grade,Maximum grade,Grade can be changed,Last modified (submission),"
             "Last modified (grade),Feedback comments\n"
             "Participant 501,Alice Novak,Submitted for grading,,100.00,Yes,\"Friday, 20 November 2026, 2:03 PM\",-,\n")


def graded_assignment(tmp_path: Path, ids: list[str]) -> list[str]:
    """A config and a results.json as `grader run` leaves them, with these students graded."""
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"assignments": {"arena": {
        "ruleset": "colosseum", "submissions": "subs", "reports": "reports",
        "grading": {"kind": "bands", "bands": [[0.5, 100]]}}}}), encoding="utf-8")
    (tmp_path / "reports").mkdir()
    subs = [{"id": sid, "display_name": sid, "student_name": sid, "status": "valid", "status_detail": "",
             "validation": {"passed": True, "points": 1, "max_points": 1, "checks": []}, "rank": 1, "points": 1.0,
             "grade": 80.0 - 20 * n, "grade_max": 100.0, "penalties": []} for n, sid in enumerate(ids)]
    (tmp_path / "reports" / "results.json").write_text(json.dumps({"assignment": {"title": "Arena"},
                                                                   "submissions": subs}), encoding="utf-8")
    return ["--config", str(config)]


def test_export_that_matches_nobody_exits_1_with_the_ids(tmp_path: Path, capsys):
    base = graded_assignment(tmp_path, ["novakal", "dvorabo"])     # imported as a folder, not from Moodle
    (tmp_path / "ws.csv").write_text(WORKSHEET, encoding="utf-8")
    out = tmp_path / "back.csv"
    assert main(base + ["export", "arena", "--moodle", str(tmp_path / "ws.csv"), "--out", str(out)]) == 1
    said = capsys.readouterr().err
    assert "matched no graded student (novakal, dvorabo)" in said and "--allow-partial" in said
    assert not out.exists()


def test_export_partial_match_needs_allow_partial(tmp_path: Path, capsys):
    base = graded_assignment(tmp_path, ["501", "dvorabo"])
    (tmp_path / "ws.csv").write_text(WORKSHEET, encoding="utf-8")
    out = tmp_path / "back.csv"
    args = base + ["export", "arena", "--moodle", str(tmp_path / "ws.csv"), "--out", str(out)]
    assert main(args) == 1 and not out.exists()
    assert "matched 1 graded students but not 1 (dvorabo)" in capsys.readouterr().err
    assert main(args + ["--allow-partial"]) == 0
    assert "not in the file: dvorabo" in capsys.readouterr().out
    assert out.read_text(encoding="utf-8").splitlines()[1].startswith("Participant 501,Alice Novak,Submitted for grading,80.00,")


def test_import_with_the_worksheet_as_roster(tmp_path: Path, capsys):
    base = graded_assignment(tmp_path, [])
    source = make_zip(tmp_path / "download.zip", {
        "Alice Novak_501_assignsubmission_file/student_agent.py": "x = 1"}, date_time=(2026, 11, 23, 10, 0, 0))
    (tmp_path / "ws.csv").write_text(WORKSHEET, encoding="utf-8")
    assert main(base + ["import", str(source), "--assignment", "arena", "--roster", str(tmp_path / "ws.csv")]) == 0
    assert "upload times: from the Moodle grading worksheet ws.csv for 1 of 1" in capsys.readouterr().out
    meta = json.loads((tmp_path / "subs" / "501" / ".submission.json").read_text(encoding="utf-8"))
    assert meta["uploaded_at"] == "2026-11-20T14:03:00"
    (tmp_path / "bad.csv").write_text("a,b\n1,2\n")
    assert main(base + ["import", str(source), "--assignment", "arena", "--roster", str(tmp_path / "bad.csv")]) == 2
    assert "bad.csv is neither a Moodle grading worksheet" in capsys.readouterr().err


def test_check_single_file_takes_its_helper_modules(tmp_path: Path, capsys):
    folder = tmp_path / "my_agent"
    shutil.copytree(ROOT / "submissions" / "colosseum" / "baseline_student", folder)
    assert main(["check", str(folder / "student_agent.py"), "--assignment", "colosseum"]) == 0
    out = capsys.readouterr().out
    assert f"Checking the folder {folder}: student_agent.py imports board_tools from beside it." in out
    # alone, the failure names the fix
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(folder / "student_agent.py", alone)
    assert main(["check", str(alone / "student_agent.py"), "--assignment", "colosseum"]) == 1
    out = capsys.readouterr().out
    assert "checked alone, without agents.board_tools" in out and "put board_tools.py beside student_agent.py" in out
