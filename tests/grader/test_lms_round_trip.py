"""From an LMS download to grades back in the LMS, through the `grader` command as an instructor types it.

A Moodle "Download all submissions" zip with three students (one good agent, one that raises, one
hostile archive) is imported, graded by a short Colosseum league, and the grades go back into the
Moodle worksheet the instructor downloaded, the plain CSV and Gradescope results.
"""
from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path

import yaml

from grader.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "submissions" / "colosseum"


def moodle_download(path: Path) -> Path:
    def folder(name: str, sid: str) -> str:
        return f"{name}_{sid}_assignsubmission_file_"

    with zipfile.ZipFile(path, "w") as z:
        for f in ("student_agent.py", "board_tools.py"):
            z.writestr(f"{folder('Alice Novak', '501')}/{f}", (EXAMPLES / "baseline_student" / f).read_bytes())
        z.writestr(f"{folder('Bob Dvorak', '502')}/student_agent.py",
                   (EXAMPLES / "raises" / "student_agent.py").read_bytes())
        inner = io.BytesIO()
        with zipfile.ZipFile(inner, "w") as bad:
            bad.writestr("../../escape.py", "print('out')")
        z.writestr(f"{folder('Eve Mallory', '503')}/agent.zip", inner.getvalue())
    return path


WORKSHEET = (
    "Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,"
    "Last modified (grade),Feedback comments\n"
    "Participant 501,Alice Novak,alice@example.edu,Submitted for grading,,100.00,Yes,-,\n"
    "Participant 502,Bob Dvorak,bob@example.edu,Submitted for grading,,100.00,Yes,-,\n"
    "Participant 503,Eve Mallory,eve@example.edu,Submitted for grading,,100.00,Yes,-,\n"
    "Participant 504,Carl Absent,carl@example.edu,No submission,,100.00,Yes,-,\n"
)


def test_import_run_export_round_trip(tmp_path, capsys):
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"assignments": {"arena": {
        "ruleset": "colosseum", "submissions": "submissions/arena", "game": {"board_size": 6},
        "validation": {"smoke_games": 0},
        "league": {"format": "round_robin", "games_per_pair": 2, "seed": 5, "builtins": ["random"],
                   "concurrency": 2},
        "grading": {"kind": "interpolate", "max": 100, "pass_min": 50, "must_beat": "random"},
        "report_url": "https://course.example.edu/arena",
    }}}), encoding="utf-8")
    base = ["--config", str(config)]

    assert main(base + ["import", str(moodle_download(tmp_path / "download.zip")), "--assignment", "arena"]) == 0
    out = capsys.readouterr().out
    assert "2 new" in out and "refused 503" in out
    imported = tmp_path / "submissions" / "arena"
    assert sorted(p.name for p in imported.iterdir() if not p.name.startswith(".")) == ["501", "502"]
    assert not (tmp_path / "escape.py").exists()
    assert json.loads((imported / "501" / ".submission.json").read_text())["name"] == "Alice Novak"

    # importing the same download again changes nothing
    assert main(base + ["import", str(tmp_path / "download.zip"), "--assignment", "arena"]) == 0
    assert "2 unchanged" in capsys.readouterr().out

    assert main(base + ["run", "arena", "--quiet", "--no-report"]) == 0
    capsys.readouterr()

    sheet = tmp_path / "worksheet.csv"
    sheet.write_text(WORKSHEET, encoding="utf-8")
    filled = tmp_path / "filled.csv"
    assert main(base + ["export", "arena", "--moodle", str(sheet), "--out", str(filled)]) == 0
    rows = {r["Identifier"]: r for r in csv.DictReader(filled.open(encoding="utf-8"))}
    assert float(rows["Participant 501"]["Grade"]) == 100.0            # beat random, top of the league
    assert float(rows["Participant 502"]["Grade"]) == 0.0               # failed validation
    assert "did not pass: " in rows["Participant 502"]["Feedback comments"].lower()
    assert "League: 1st" in rows["Participant 501"]["Feedback comments"]
    assert "https://course.example.edu/arena/submissions/" in rows["Participant 501"]["Feedback comments"]
    assert rows["Participant 503"]["Grade"] == "" and rows["Participant 504"]["Grade"] == ""
    # every other column and row exactly as the instructor downloaded it
    original = WORKSHEET.splitlines()
    written = filled.read_text(encoding="utf-8").splitlines()
    assert written[0] == original[0] and written[4] == original[4] and written[3] == original[3]
    capsys.readouterr()

    assert main(base + ["export", "arena", "--gradescope", str(tmp_path / "gs")]) == 2   # gone, with a sentence
    assert "grader gradescope arena" in capsys.readouterr().err and not (tmp_path / "gs").exists()

    assert main(base + ["export", "arena", "--out", str(tmp_path / "plain.csv")]) == 0
    plain = {r["student_id"]: r for r in csv.DictReader((tmp_path / "plain.csv").open(encoding="utf-8"))}
    assert plain["501"]["name"] == "Alice Novak" and float(plain["501"]["grade"]) == 100.0
    assert set(plain) == {"501", "502"}


def test_export_before_any_run_is_one_sentence(tmp_path, capsys):
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"assignments": {"arena": {
        "ruleset": "colosseum", "submissions": "subs"}}}), encoding="utf-8")
    assert main(["--config", str(config), "export", "arena"]) == 2
    assert "no results yet for arena" in capsys.readouterr().err
