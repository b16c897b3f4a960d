"""An instructor's first hour, as the README walks it (issue 32): `grader init` makes a course folder
of one's own, each LMS format the README lists is imported into it (downloads built here in the
LMSs' own layouts by lms_builders.py), `grader run` grades the league and says how, every export
writes its file, and the two sites are there. Exports never grade silently: without a grading
policy they refuse, naming the results they read and the file they did not write.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from lms_builders import (
    brute_folder,
    canvas_download,
    canvas_gradebook,
    gradescope_export,
    moodle_download,
    moodle_worksheet,
)

import rulesets
from grader.report import read_shard
from tests.checking import grader_cli as grader

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = {n: (ROOT / "submissions" / "quoridor" / n / "player.py").read_text() for n in ("alice", "bob", "cyril")}


def student(name: str, player: str, note: str = "") -> tuple[str, dict[str, str]]:
    return name, {"player.py": f"# {note or name}\n" + PLAYERS[player]}


MOODLE = {"101": student("Alice Nováková", "alice"), "102": student("Bořek Dvořák", "bob")}
CANVAS = {"2001": student("Cyril Černý", "cyril")}
GRADESCOPE = {"3001": student("Dana Veselá", "alice", "Dana's own notes")}
BRUTE = {"evaeva": student("Eva Malá", "bob", "Eva's version")}


def make_course(tmp_path: Path, capsys, monkeypatch) -> Path:
    course = tmp_path / "b3b33alp"
    status, out, _ = grader(capsys, "init", course, "--assignment", "quoridor")
    assert status == 0, out
    monkeypatch.chdir(course)                                   # the README: run the commands from the folder
    config = (course / "config.yaml").read_text()
    # the instructor keeps the course's rules; this test only enters one built-in, to play fewer games
    (course / "config.yaml").write_text(config.replace("builtins: [random, baseline]", "builtins: [random]"))
    return course


@pytest.mark.slow
@pytest.mark.timeout(1200)     # a whole course's first day: about 210 s alone, beyond 300 s at load 30
def test_from_grader_init_through_every_lms_to_exports_and_sites(tmp_path, capsys, monkeypatch):
    course = make_course(tmp_path, capsys, monkeypatch)
    config = (course / "config.yaml").read_text()
    for key in ("grading: {kind: bands", "limits:", "policy:", "league:", "validation:", "public_names:",
                "penalties:", "report_url:"):
        assert key in config, key                               # every setting a course decides, stated
    assert "# how grades are given" in config
    assert list((course / "submissions" / "quoridor").iterdir()) == []       # empty: no demo players in it
    readme = (course / "README.md").read_text()
    for command in ("grader import", "grader check", "grader run", "grader export", "grader serve",
                    "grader gradescope", "nightly"):
        assert command in readme, command

    downloads = tmp_path / "downloads"
    downloads.mkdir()
    imports = [
        (moodle_download(downloads / "moodle.zip", MOODLE), moodle_worksheet(downloads / "worksheet.csv", MOODLE)),
        (canvas_download(downloads / "canvas.zip", CANVAS),
         canvas_gradebook(downloads / "gradebook.csv", CANVAS, "Quoridor (77)")),
        (gradescope_export(downloads / "gradescope.zip", GRADESCOPE), None),
        (brute_folder(downloads / "brute", BRUTE), None),
    ]
    for source, roster in imports:
        status, out, err = grader(capsys, "import", source, "--assignment", "quoridor",
                                  *(["--roster", roster] if roster else []))
        assert status == 0, out + err
        assert "into assignment quoridor (" in out, out        # the assignment, not its folder's name
    ids = sorted(p.name for p in (course / "submissions" / "quoridor").iterdir())
    assert ids == ["101", "102", "2001", "3001", "evaeva"]

    status, out, err = grader(capsys, "run", "quoridor", "--quiet")
    assert status == 0, out + err
    assert out.strip().splitlines()[-1].startswith("grades: bands, top 10/20/40 % → 3/2/1"), out

    status, out, err = grader(capsys, "export", "quoridor")
    assert status == 0, out + err
    plain = {r["student_id"]: r for r in csv.DictReader((course / "reports" / "quoridor" / "grades.csv").open())}
    assert set(plain) == set(ids) and plain["101"]["name"] == "Alice Nováková"
    assert len({r["grade"] for r in plain.values()}) > 1

    status, out, err = grader(capsys, "export", "quoridor", "--moodle", downloads / "worksheet.csv",
                              "--allow-partial", "--out", tmp_path / "moodle-back.csv")
    assert status == 0, out + err
    back = {r["Identifier"]: r for r in csv.DictReader((tmp_path / "moodle-back.csv").open(encoding="utf-8"))}
    assert back["Participant 101"]["Grade"] == plain["101"]["grade"].rstrip("0").rstrip(".") or \
        float(back["Participant 101"]["Grade"]) == float(plain["101"]["grade"])
    assert "Quoridor" in back["Participant 102"]["Feedback comments"]

    status, out, err = grader(capsys, "export", "quoridor", "--canvas", downloads / "gradebook.csv",
                              "--canvas-assignment", "Quoridor (77)", "--allow-partial", "--out", tmp_path / "c.csv")
    assert status == 0, out + err
    rows = list(csv.reader((tmp_path / "c.csv").open(encoding="utf-8")))
    assert rows[2][2] == "2001" and float(rows[2][6]) == float(plain["2001"]["grade"])

    site, public = course / "reports" / "quoridor" / "index.html", course / "reports" / "quoridor" / "public"
    assert site.is_file() and (public / "index.html").is_file()
    assert "Alice Nováková" in site.read_text()
    published = {p: (json.dumps(read_shard(p.read_text()), ensure_ascii=False) if p.parent.name == "games" else p.read_text())
                 for p in public.rglob("*") if p.is_file()}          # game records are packed: read them unpacked
    assert any(p.parent.name == "games" for p in published)
    assert not [p for p, text in published.items() if "Nováková" in text or "Dvořák" in text]
    doc = json.loads((course / "reports" / "quoridor" / "results.json").read_text())
    assert {s["id"] for s in doc["submissions"]} >= set(ids)


def test_without_a_grading_policy_run_says_so_and_every_export_refuses(tmp_path, capsys, monkeypatch):
    course = make_course(tmp_path, capsys, monkeypatch)
    config = course / "config.yaml"
    text = config.read_text()
    start = text.index("    grading: ")
    config.write_text(text[:start] + "    grading: {kind: none}\n" + text[text.index("\n", start) + 1:])
    brute_folder(tmp_path / "download", MOODLE)
    assert grader(capsys, "import", tmp_path / "download", "--assignment", "quoridor")[0] == 0
    status, out, err = grader(capsys, "run", "quoridor", "--quiet")
    assert status == 0, out + err
    last = out.strip().splitlines()[-1]
    assert last.startswith("grades: none (assignments.quoridor has no grading: section in ") and "config.yaml" in last
    results = course / "reports" / "quoridor" / "results.json"
    moodle_worksheet(tmp_path / "ws.csv", MOODLE)
    for extra, written in (([], course / "reports" / "quoridor" / "grades.csv"),
                           (["--moodle", tmp_path / "ws.csv"], tmp_path / "ws-graded.csv"),
                           (["--canvas", tmp_path / "ws.csv", "--canvas-assignment", "Q"], tmp_path / "ws-graded.csv")):
        written.unlink(missing_ok=True)
        status, out, err = grader(capsys, "export", "quoridor", *extra)
        assert status == 1, out + err
        sentence = " ".join(err.split())
        assert str(results) in sentence and str(written) in sentence and "nothing was written" in sentence, sentence
        assert not written.exists()


def test_init_refuses_to_overwrite_a_course_and_import_refuses_the_demo_config(tmp_path, capsys, monkeypatch):
    course = make_course(tmp_path, capsys, monkeypatch)
    before = (course / "config.yaml").read_text()
    status, _, err = grader(capsys, "init", course, "--assignment", "colosseum")
    assert status == 2 and "already exists" in err and (course / "config.yaml").read_text() == before
    status, _, err = grader(capsys, "init", tmp_path / "other", "--assignment", "chess")
    assert status == 2 and "quoridor" in err and not (tmp_path / "other" / "config.yaml").exists()
    brute_folder(tmp_path / "download", BRUTE)
    demo = ROOT / "config.yaml"
    status, _, err = grader(capsys, "--config", demo, "import", tmp_path / "download", "--assignment", "quoridor")
    assert status == 2 and "grader init" in err and "demo" in err
    assert not (ROOT / "submissions" / "quoridor" / "evaeva").exists()


@pytest.mark.parametrize("name", rulesets.names())
def test_every_game_gets_a_config_that_loads_with_the_courses_grading(tmp_path, capsys, name):
    from grader.assignment import load_assignments

    assert grader(capsys, "init", tmp_path / name, "--assignment", name)[0] == 0
    bundled = load_assignments(ROOT / "config.yaml")[name].config
    made = load_assignments(tmp_path / name / "config.yaml")[name].config
    assert made.grading == bundled.grading and made.grading.kind != "none"
    assert made.league == bundled.league and made.validation == bundled.validation
