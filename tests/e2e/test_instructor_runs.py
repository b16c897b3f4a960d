"""The instructor's commands in the order people use them: before any run, a league with hostile
players, re-runs (unchanged, a submission deleted, one added, --fresh), and the README's LMS
walk-through from a Moodle download to a filled grading worksheet."""
from __future__ import annotations

import csv
import io
import json
import shutil
import zipfile
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "submissions" / "colosseum"


def summary(result) -> str:
    return next(line for line in result.out.splitlines() if "games reused" in line)


def test_every_reading_command_before_a_run_says_to_run_first(tmp_path, cli, arena):
    config = arena(examples=("baseline_student",))
    for command in ("standings", "report", "export"):
        result = cli("--config", config, command, "a")
        assert result.status == 2
        assert result.err.strip() == "grader: no results yet for a: run 'grader run a' first."


def test_hostile_players_do_not_stop_the_league_and_reruns_replay_only_what_changed(tmp_path, cli, arena, student):
    config = arena(examples=("baseline_student",))
    subs = tmp_path / "subs"
    student(subs / "exits", "import os\nos._exit(0)")
    student(subs / "interrupts", "raise KeyboardInterrupt")
    (subs / "corrupt.zip").write_bytes(b"not a zip")
    first = cli("--config", config, "run", "a", "--quiet", "--no-report")
    assert first.status == 0
    doc = json.loads((tmp_path / "out" / "results.json").read_text())
    rows = {s["id"]: s for s in doc["submissions"]}
    assert rows["baseline_student"]["rank"] == 1 and rows["baseline_student"]["games"] == 6
    assert rows["exits"]["games"] == 6 and rows["interrupts"]["games"] == 6      # played, and lost
    assert rows["corrupt"]["status"] == "failed"
    assert rows["corrupt"]["status_detail"] == ("at the interface stage of validation: "
                                                "corrupt.zip was refused: it is not a readable zip archive.")
    assert "0 games reused, 12 played" in summary(first)

    assert "12 games reused, 0 played." in summary(cli("--config", config, "run", "a", "--quiet", "--no-report"))
    shutil.rmtree(subs / "exits")
    after_delete = cli("--config", config, "run", "a", "--quiet", "--no-report")
    assert ("6 games reused, 0 played; left out: 1 earlier submission(s) no longer in the folder (exits)."
            in summary(after_delete))
    assert "exits" not in {s["id"] for s in json.loads((tmp_path / "out" / "results.json").read_text())["submissions"]}
    shutil.copytree(EXAMPLES / "raises", subs / "raises")
    assert "6 games reused, 6 played: 1 submission(s) new or changed; left out: 1" in summary(
        cli("--config", config, "run", "a", "--quiet", "--no-report"))
    assert "0 games reused, 12 played" in summary(cli("--config", config, "run", "a", "--quiet", "--no-report", "--fresh"))

    standings = cli("--config", config, "standings", "a")
    assert standings.status == 0 and standings.out.startswith("Standings — ")
    corrupt_row = next(line for line in standings.out.splitlines() if line.split()[:1] == ["corrupt"])
    assert corrupt_row.split()[-2:] == ["failed", "[1]"]                   # the reason follows the table
    assert ("[1] corrupt: at the interface stage of validation: corrupt.zip was refused: "
            "it is not a readable zip archive.") in standings.out
    (tmp_path / "out" / "results.json").write_text("{")
    damaged = cli("--config", config, "standings", "a")
    assert damaged.status == 2 and "results.json is damaged or not a results file" in damaged.err


def test_grade_files_that_cannot_be_written_are_one_sentence(tmp_path, cli, arena):
    config = arena(examples=("baseline_student",), validation={"smoke_games": 0},
                   grading={"kind": "validation", "max": 10})
    assert cli("--config", config, "run", "a", "--quiet", "--no-report").status == 0
    result = cli("--config", config, "export", "a", "--out", tmp_path / "missing" / "dir" / "grades.csv")
    assert result.status == 2 and "cannot read or write a grade file" in result.err
    result = cli("--config", config, "export", "a", "--moodle", tmp_path / "no-worksheet.csv")
    assert result.status == 2 and "no-worksheet.csv cannot be read" in result.err


def moodle_download(path: Path) -> None:
    """A Moodle "Download all submissions" zip: one folder per student, as Moodle names them."""
    agent = {p.name: p.read_bytes() for p in (EXAMPLES / "baseline_student").glob("*.py")}
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as z:
        for name, data in agent.items():
            z.writestr(f"my_agent/{name}", data)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("Jane Doe_12345_assignsubmission_file_/agent.zip", inner.getvalue())
        z.writestr("Bob Smith_23456_assignsubmission_file_/student_agent.py",
                   (EXAMPLES / "raises" / "student_agent.py").read_bytes())
        z.writestr("Zed Null_45678_assignsubmission_file_/readme.txt", b"forgot the agent")


WORKSHEET = ("Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,"
             "Last modified (submission),Last modified (grade),Feedback comments\n"
             'Participant 12345,Jane Doe,jane@example.org,Submitted,,100.00,Yes,"Monday, 1 March 2021, 10:00 AM",-,\n'
             'Participant 23456,Bob Smith,bob@example.org,Submitted,,100.00,Yes,"Monday, 1 March 2021, 10:00 AM",-,\n'
             'Participant 45678,Zed Null,zed@example.org,Submitted,,100.00,Yes,"Monday, 1 March 2021, 10:00 AM",-,\n')


def test_the_readme_lms_walk_through_from_a_moodle_zip_to_the_filled_worksheet(tmp_path, cli, arena):
    config = arena(submissions="submissions/a", grading={"kind": "interpolate", "must_beat": "random"})
    moodle_download(tmp_path / "download.zip")
    (tmp_path / "worksheet.csv").write_text(WORKSHEET, encoding="utf-8")

    imported = cli("--config", config, "import", tmp_path / "download.zip", "--assignment", "a")
    assert imported.status == 0 and "3 new" in imported.out and "Next: grader run a" in imported.out
    again = cli("--config", config, "import", tmp_path / "download.zip", "--assignment", "a")
    assert "0 new, 0 replaced, 3 unchanged" in again.out
    assert cli("--config", config, "run", "a", "--quiet", "--no-report").status == 0
    exported = cli("--config", config, "export", "a", "--moodle", tmp_path / "worksheet.csv",
                   "--out", tmp_path / "for-moodle.csv")
    assert exported.status == 0
    rows = {r["Identifier"]: r for r in csv.DictReader((tmp_path / "for-moodle.csv").open(encoding="utf-8"))}
    assert rows["Participant 12345"]["Grade"] == "100.00"
    assert rows["Participant 45678"]["Grade"] == "0.00"
    assert "the submission has no student_agent.py" in rows["Participant 45678"]["Feedback comments"]
    assert rows["Participant 23456"]["Email address"] == "bob@example.org"     # other columns kept


def test_a_folder_and_a_zip_with_the_same_name_are_both_graded_instead_of_crashing_the_run(tmp_path, cli, arena):
    config = arena(examples=("baseline_student",))
    subs = tmp_path / "subs"
    (subs / "baseline_student").rename(subs / "alice")
    with zipfile.ZipFile(subs / "alice.zip", "w") as z:
        z.write(EXAMPLES / "raises" / "student_agent.py", "student_agent.py")
    result = cli("--config", config, "run", "a", "--quiet", "--no-report")
    assert result.status == 0
    rows = {s["id"]: s for s in json.loads((tmp_path / "out" / "results.json").read_text())["submissions"]}
    assert rows["alice"]["rank"] == 1 and rows["alice.zip"]["games"] == 4


def test_an_import_that_refuses_everyone_is_not_reported_as_success(tmp_path, cli, arena):
    config = arena(submissions="submissions/a")
    moodle_download(tmp_path / "download.zip")
    result = cli("--config", config, "import", tmp_path / "download.zip", "--assignment", "a", "--format", "canvas")
    assert result.status == 1
    assert "nothing was imported from" in result.err and "Is --format canvas right for this download?" in result.err
    assert "Next: grader run" not in result.out
