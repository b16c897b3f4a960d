"""Downloads as Moodle 4.1+, Canvas and Gradescope write them today, and the files beside them.

The fixtures follow the formats' sources: Moodle's mod/assign/classes/downloader.php (folder per
student and plugin, `Full Name_<participant id>_assignsubmission_file/`, online text as
`…_onlinetext/onlinetext.html`, teams as `Group_<id>_…` and `Default group_…`) and gradingtable.php
(the worksheet's column order, dates as userdate()); Canvas's lib/content_zipper.rb (`lastfirst_
[LATE_]<userid>_<attachment id>_<name>`, `_text.html`, `anon_<id>_…`) and gradebook_exporter.rb
(`Student` or `LastName`,`FirstName`; a `;` separator when the user asks for it); Gradescope's
"Export Submissions" (`submission_metadata.yml`, `submission_<id>/`).
"""
from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from lms_builders import make_zip

from grader.lms import (
    CsvProblem,
    Unmatched,
    fill_canvas_gradebook,
    fill_moodle_worksheet,
    import_submissions,
    read_roster,
)
from grader.lms.formats import canvas_match
from grader.lms.moodle import parse_date
from grader.penalties import apply_penalties

DOWNLOADED = (2026, 11, 23, 10, 15, 0)        # what Moodle and Canvas write into every zip entry


def meta(folder: Path) -> dict:
    return json.loads((folder / ".submission.json").read_text(encoding="utf-8"))


def moodle41_zip(path: Path) -> Path:
    return make_zip(path, {
        "Alice Nováková_101_assignsubmission_file/player.py": "x = 1",
        "Alice Nováková_101_assignsubmission_file/lib/tools.py": "t = 1",
        "Alice Nováková_101_assignsubmission_onlinetext/onlinetext.html": "<p>Hotovo</p>",
        "Bořek Dvořák_102_assignsubmission_file/player.py": "y = 2",
        "Cyril Černý_103_assignsubmission_onlinetext/onlinetext.html": "<p>jen text</p>",
    }, date_time=DOWNLOADED)


# A Czech worksheet as Moodle writes it: localised headers, "Účastník " prefix, decimal comma,
# dates as userdate() in Czech. Alice uploaded before the deadline, Bořek two days after it.
CZECH_WORKSHEET = (
    "Identifikátor,Celé jméno,E-mailová adresa,Stav,Známka,Maximální známka,Známku lze změnit,"
    "Poslední změna (odevzdání),Poslední změna (známka),Komentáře k hodnocení\r\n"
    "Účastník 101,Alice Nováková,alice@fel.cvut.cz,Odesláno k hodnocení,,\"3,00\",Ano,"
    "\"pátek, 20. listopadu 2026, 14:03\",-,\r\n"
    "Účastník 102,Bořek Dvořák,borek@fel.cvut.cz,Odesláno k hodnocení,,\"3,00\",Ano,"
    "\"neděle, 22. listopadu 2026, 09:30\",-,\r\n"
    "Účastník 103,Cyril Černý,cyril@fel.cvut.cz,Odesláno k hodnocení,,\"3,00\",Ne,-,-,\r\n"
)
DEADLINE = {"deadline": "2026-11-20T23:59:00", "late_period_hours": 24, "late_penalty": 0.2}


def test_moodle41_zip_with_online_text_and_a_czech_worksheet(tmp_path: Path):
    sheet = tmp_path / "Známky.csv"
    sheet.write_bytes(CZECH_WORKSHEET.encode("utf-8"))
    report = import_submissions(moodle41_zip(tmp_path / "ALP-Quoridor-123.zip"), tmp_path / "subs", "q",
                                entry="player.py", roster=sheet)
    assert report.format == "moodle"
    assert report.imported == ["101", "102"] and report.refused == []     # no phantom online-text student
    assert any(sid == "103" and "onlinetext" in note for sid, note in report.notes)
    root = tmp_path / "subs" / "q"
    alice, borek = meta(root / "101"), meta(root / "102")
    assert alice["name"] == "Alice Nováková" and sorted(alice["files"]) == ["lib/tools.py", "player.py"]
    assert alice["uploaded_at"] == "2026-11-20T14:03:00" and borek["uploaded_at"] == "2026-11-22T09:30:00"
    assert any("Moodle grading worksheet" in r and "2 of 2" in r for r in report.remarks)
    # the zip was downloaded after the deadline; only the recorded times count
    assert apply_penalties(3.0, uploaded_at=alice["uploaded_at"], config=DEADLINE).points == 3.0
    assert apply_penalties(3.0, uploaded_at=borek["uploaded_at"], config=DEADLINE).points == pytest.approx(1.8)


def test_a_worksheet_saved_among_the_submissions_is_used_as_the_record(tmp_path: Path):
    make_zip(tmp_path / "class.zip", {f"ALP/{k}": v for k, v in {
        "Alice Nováková_101_assignsubmission_file/player.py": "x = 1",
        "Bořek Dvořák_102_assignsubmission_file/player.py": "y = 2",
        "Známky-ALP.csv": CZECH_WORKSHEET}.items()}, date_time=DOWNLOADED)
    report = import_submissions(tmp_path / "class.zip", tmp_path / "subs", "q", entry="player.py")
    assert report.format == "moodle" and report.imported == ["101", "102"] and report.refused == []
    assert any("used Známky-ALP.csv, found in the download, as the Moodle grading worksheet" in r
               for r in report.remarks)
    assert meta(tmp_path / "subs" / "q" / "101")["uploaded_at"] == "2026-11-20T14:03:00"


def test_without_a_record_there_is_no_upload_time_and_no_penalty(tmp_path: Path):
    report = import_submissions(moodle41_zip(tmp_path / "class.zip"), tmp_path / "subs", "q", entry="player.py")
    alice = meta(tmp_path / "subs" / "q" / "101")
    assert alice["uploaded_at"] is None
    assert apply_penalties(3.0, uploaded_at=alice["uploaded_at"], config=DEADLINE).points == 3.0
    assert any("no upload time for 2 submission(s)" in r and "--roster" in r for r in report.remarks)


def test_moodle_team_download_with_default_group(tmp_path: Path):
    source = make_zip(tmp_path / "teams.zip", {
        "Tým Červení_7_assignsubmission_file/player.py": "red = 1",
        "Default group_assignsubmission_file/player.py": "nobody = 1",
    }, date_time=DOWNLOADED)
    sheet = tmp_path / "worksheet.csv"
    sheet.write_text(
        "Identifier,Full name,Email address,Status,Group,Grade,Maximum grade,Grade can be changed,"
        "Last modified (submission),Last modified (grade),Feedback comments\n"
        "Participant 201,Ema Malá,ema@x.cz,Submitted for grading,Tým Červení,,10.00,Yes,"
        "\"Thursday, 19 November 2026, 11:05 PM\",-,\n"
        "Participant 202,Jan Velký,jan@x.cz,Submitted for grading,Tým Červení,,10.00,Yes,"
        "\"Thursday, 19 November 2026, 11:05 PM\",-,\n"
        "Participant 203,Olga Sama,olga@x.cz,Submitted for grading,Default group,,10.00,Yes,-,-,\n",
        encoding="utf-8")
    report = import_submissions(source, tmp_path / "subs", "q", entry="player.py", roster=sheet)
    assert sorted(report.imported) == ["7", "Default group"]
    team = meta(tmp_path / "subs" / "q" / "7")
    assert team["team"] is True and team["name"] == "Tým Červení"
    assert team["uploaded_at"] == "2026-11-19T23:05:00"
    assert any(sid == "7" and "Ema Malá (201)" in n and "Jan Velký (202)" in n for sid, n in report.notes)
    # grades go back to every member of the team
    out = tmp_path / "graded.csv"
    result = fill_moodle_worksheet(sheet, [{"student_id": "7", "name": "Tým Červení", "grade": 8, "max_grade": 10,
                                           "feedback": "ok"}], out, allow_partial=False)
    assert result.filled == ["201", "202"]


def test_czech_worksheet_is_filled_with_a_decimal_comma(tmp_path: Path):
    sheet = tmp_path / "Známky.csv"
    sheet.write_bytes(CZECH_WORKSHEET.encode("utf-8"))
    rows = [{"student_id": "101", "name": "Alice", "grade": 2.5, "max_grade": 3, "feedback": "Hra: 2."},
            {"student_id": "102", "name": "Bořek", "grade": 3, "max_grade": 3, "feedback": "Výborně"}]
    result = fill_moodle_worksheet(sheet, rows, tmp_path / "out.csv", allow_partial=False)
    assert result.filled == ["101", "102"]
    lines = (tmp_path / "out.csv").read_bytes().decode("utf-8").split("\r\n")
    assert lines[0] == CZECH_WORKSHEET.split("\r\n")[0]
    assert lines[1].startswith('Účastník 101,Alice Nováková,alice@fel.cvut.cz,Odesláno k hodnocení,"2,50","3,00",Ano,')
    assert lines[1].endswith(",-,Hra: 2.")
    assert lines[3] == CZECH_WORKSHEET.split("\r\n")[3]


@pytest.mark.parametrize("header, prefix, date", [
    (("Identifier,Full name,Status,Grade,Maximum grade,Grade can be changed,Last modified (submission),"
     "Last modified (grade),Feedback comments"), "Participant ", "Friday, 20 November 2026, 2:03 PM"),
    (("ID,Vollständiger Name,Status,Bewertung,Bestwertung,Bewertung kann geändert werden,"
     "Zuletzt geändert (Abgabe),Zuletzt geändert (Bewertung),Feedback als Kommentar"), "Teilnehmer/in",
     "Freitag, 20. November 2026, 14:03"),
    (("Identifiant,Nom complet,Statut,Note,Note maximale,La note peut être modifiée,"
     "Dernière modification (travail remis),Dernière modification (note),Feedback par commentaires"),
     "Participant ", "vendredi 20 novembre 2026, 14:03"),
    (("Identificador,Nombre completo,Estado,Calificación,Calificación máxima,La calificación puede cambiarse,"
     "Última modificación (entrega),Última modificación (calificación),Comentarios de retroalimentación"),
     "Participante ", "viernes, 20 de noviembre de 2026, 14:03"),
    # titles in no table (another language, another Moodle version): recognised by Moodle's column order
    ("Ident,Jméno,Stav,Body,Maximum,Lze měnit,Odevzdáno,Hodnoceno,Komentář", "Student ", "20.11.2026 14:03"),
])
def test_worksheets_in_other_languages(tmp_path: Path, header: str, prefix: str, date: str):
    yes = {"Teilnehmer/in": "Ja", "Participante ": "Sí"}.get(prefix, "Yes")
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(f"{header}\n{prefix}101,Alice Nováková,x,,\"3,00\",{yes},\"{date}\",-,\n", encoding="utf-8")
    roster = read_roster(sheet)
    assert roster.get("101").name == "Alice Nováková"
    assert roster.get("101").uploaded_at == datetime(2026, 11, 20, 14, 3)
    fill_moodle_worksheet(sheet, [{"student_id": "101", "grade": 1.5, "max_grade": 3, "feedback": "fb"}],
                          tmp_path / "out.csv", allow_partial=False)
    row = (tmp_path / "out.csv").read_text(encoding="utf-8").splitlines()[1]
    assert row == f"{prefix}101,Alice Nováková,x,\"1,50\",\"3,00\",{yes},\"{date}\",-,fb"


def test_moodle_dates_in_every_language():
    assert parse_date("Friday, 20 November 2026, 2:03 PM") == datetime(2026, 11, 20, 14, 3)
    assert parse_date("Friday, 20 November 2026, 12:10 AM") == datetime(2026, 11, 20, 0, 10)
    assert parse_date("pátek, 20. listopadu 2026, 14:03") == datetime(2026, 11, 20, 14, 3)
    assert parse_date("středa, 3. června 2026, 8:05") == datetime(2026, 6, 3, 8, 5)
    assert parse_date("-") is None and parse_date("") is None


def test_export_that_matches_nobody_writes_nothing(tmp_path: Path):
    sheet = tmp_path / "Známky.csv"
    sheet.write_bytes(CZECH_WORKSHEET.encode("utf-8"))
    rows = [{"student_id": sid, "grade": 1, "max_grade": 3} for sid in ("novak", "dvorak")]
    with pytest.raises(Unmatched, match=r"matched no graded student .*novak, dvorak.*--allow-partial"):
        fill_moodle_worksheet(sheet, rows, tmp_path / "out.csv", allow_partial=False)
    assert not (tmp_path / "out.csv").exists()
    with pytest.raises(Unmatched, match="matched 1 graded students but not 1"):
        fill_moodle_worksheet(sheet, rows[:1] + [{"student_id": "101", "grade": 1, "max_grade": 3}],
                              tmp_path / "out.csv", allow_partial=False)
    result = fill_moodle_worksheet(sheet, rows[:1] + [{"student_id": "101", "grade": 1, "max_grade": 3}],
                                   tmp_path / "out.csv", allow_partial=True)
    assert result.unmatched == ["novak"] and (tmp_path / "out.csv").exists()


def test_not_a_worksheet_is_one_sentence(tmp_path: Path):
    (tmp_path / "x.csv").write_text("a,b\n1,2\n")
    with pytest.raises(CsvProblem, match=r"x\.csv is not a Moodle grading worksheet"):
        fill_moodle_worksheet(tmp_path / "x.csv", [])


# --- Canvas ------------------------------------------------------------------------------------------

def canvas_zip(path: Path) -> Path:
    return make_zip(path, {
        "novákováalice_2001_9001_player.py": "a = 1",
        "novákováalice_2001_9002_weights-2.json": "{}",
        "novákováalice_2001_text.html": "<p>see files</p>",
        "dvořákbořek_LATE_2002_9003_player-1.py": "W = open('weights.json').read()",
        "dvořákbořek_LATE_2002_9004_weights-1.json": "[1]",
        "dvořákbořek_LATE_2002_9005_notes-3.txt": "v3",
        "černýcyril_2003_text.html": "<p>only text</p>",
    }, date_time=DOWNLOADED)


def test_canvas_text_entries_and_names_from_a_semicolon_gradebook(tmp_path: Path):
    gradebook = tmp_path / "gradebook.csv"
    gradebook.write_bytes(
        "\ufeffLastName;FirstName;ID;SIS User ID;SIS Login ID;Section;Quoridor (77)\r\n"
        "    Points Possible;;;;;;3,00\r\n"
        "Nováková;Alice;2001;A1;novakal;ALP;\r\n"
        "Dvořák;Bořek;2002;B2;dvorabo;ALP;\r\n".encode("utf-8"))
    report = import_submissions(canvas_zip(tmp_path / "subs.zip"), tmp_path / "subs", "q", entry="player.py",
                                roster=gradebook)
    assert report.format == "canvas" and report.imported == ["2001", "2002"]
    root = tmp_path / "subs" / "q"
    assert meta(root / "2001")["name"] == "Alice Nováková" and meta(root / "2002")["name"] == "Bořek Dvořák"
    assert sorted(meta(root / "2001")["files"]) == ["player.py", "weights-2.json"]   # Canvas did not say
    assert any(sid == "2001" and "kept weights-2.json" in n for sid, n in report.notes)
    assert any(sid == "2002" and "player-1.py renamed player.py" in n for sid, n in report.notes)
    assert sorted(meta(root / "2002")["files"]) == ["notes-3.txt", "player.py", "weights.json"]
    assert any(sid == "2002" and "weights-1.json renamed weights.json (the code refers to weights.json"
               in n for sid, n in report.notes)
    assert any(sid == "2003" and "text entry" in n for sid, n in report.notes)
    assert meta(root / "2002")["late"] is True and meta(root / "2002")["uploaded_at"] is None
    assert any(sid == "2002" and "marked late" in n and "no late penalty" in n for sid, n in report.notes)
    assert any("Canvas gradebook does not record them" in r for r in report.remarks)
    # grades back into the ;-separated gradebook, decimal comma, every other byte kept
    result = fill_canvas_gradebook(gradebook, [{"student_id": "2001", "grade": 2.5, "max_grade": 3},
                                               {"student_id": "2002", "grade": 1, "max_grade": 3}],
                                   "Quoridor", tmp_path / "out.csv", allow_partial=False)
    assert result.filled == ["2001", "2002"]
    assert (tmp_path / "out.csv").read_bytes() == gradebook.read_bytes().replace(
        b"novakal;ALP;\r", b"novakal;ALP;2,5\r").replace(b"dvorabo;ALP;\r", b"dvorabo;ALP;1\r")


def test_canvas_submissions_export_gives_times_and_original_names(tmp_path: Path):
    export = tmp_path / "submissions.json"
    export.write_text(json.dumps([
        {"user_id": 2001, "submitted_at": "2026-11-20T13:03:00Z", "late": False,
         "user": {"name": "Alice Nováková", "sortable_name": "Nováková, Alice"},
         "attachments": [{"id": 9001, "display_name": "player.py", "filename": "player.py"},
                         {"id": 9002, "display_name": "weights-2.json", "filename": "weights.json"}]},
        {"user_id": 2002, "submitted_at": "2026-11-22T08:30:00Z", "late": True,
         "user": {"name": "Bořek Dvořák"}, "attachments": []},
    ]), encoding="utf-8")
    report = import_submissions(canvas_zip(tmp_path / "subs.zip"), tmp_path / "subs", "q", entry="player.py",
                                roster=export)
    root = tmp_path / "subs" / "q"
    assert sorted(meta(root / "2001")["files"]) == ["player.py", "weights.json"]
    assert any(sid == "2001" and "weights-2.json renamed weights.json" in n and "export" in n
               for sid, n in report.notes)
    assert datetime.fromisoformat(meta(root / "2001")["uploaded_at"]) == datetime.fromisoformat("2026-11-20T13:03:00+00:00")
    assert meta(root / "2002")["late"] is True


def test_canvas_anonymous_download(tmp_path: Path):
    source = make_zip(tmp_path / "anon.zip", {
        "anon_Xk3Pq_9001_player.py": "a = 1",
        "LATE_anon_72814_9002_player.py": "b = 1",       # an anonymous id can be all digits
        "anon_Zt9Wm_text.html": "<p>x</p>",
    }, date_time=DOWNLOADED)
    report = import_submissions(source, tmp_path / "subs", "q", entry="player.py")
    assert report.format == "canvas"
    assert report.imported == ["anon_72814", "anon_Xk3Pq"]
    assert meta(tmp_path / "subs" / "q" / "anon_72814")["late"] is True


def test_canvas_names_with_underscores_and_numbers():
    m = canvas_match("o_brienpat_LATE_2004_9010_my_player_v2.py")
    assert (m["name"], m["late"], m["id"], m["att"], m["file"]) == ("o_brienpat", "LATE", "2004", "9010", "my_player_v2.py")
    m = canvas_match("anon_Xk3Pq_9001_12_notes.txt")
    assert (m["id"], m["att"], m["file"]) == ("anon_Xk3Pq", "9001", "12_notes.txt")


def test_canvas_gradebook_with_student_column(tmp_path: Path):
    gradebook = tmp_path / "g.csv"
    gradebook.write_text("Student,ID,SIS User ID,SIS Login ID,Section,Quoridor (77)\n"
                         "    Points Possible,,,,,3.00\n\"Nováková, Alice\",2001,,,ALP,\n", encoding="utf-8")
    assert read_roster(gradebook).get("2001").name == "Alice Nováková"
    spaced = tmp_path / "spaced.csv"
    spaced.write_text("Last Name,First Name,ID,SIS Login ID,Section,Quoridor (77)\n"
                      "Points Possible,,,,,3.00\nNováková,Alice,2001,novakal,ALP,\n", encoding="utf-8")
    assert read_roster(spaced).get("2001").name == "Alice Nováková"
    fill_canvas_gradebook(spaced, [{"student_id": "2001", "grade": 3, "max_grade": 3}], "Quoridor",
                          tmp_path / "out.csv", allow_partial=False)
    assert (tmp_path / "out.csv").read_text(encoding="utf-8").splitlines()[2] == "Nováková,Alice,2001,novakal,ALP,3"


# --- Gradescope ----------------------------------------------------------------------------------------

def test_gradescope_export_submissions(tmp_path: Path):
    metadata = """\
submission_123456:
  :submitters:
  - :name: Alice Nováková
    :sid: '2001'
    :email: alice@example.edu
  :created_at: 2026-11-20 14:03:07.123456000 +01:00
  :score: 3.0
  :status: processed
submission_123457:
  :submitters:
  - :name: Bořek Dvořák
    :sid: ''
    :email: borek@example.edu
  - :name: Cyril Černý
    :sid: '2003'
    :email: cyril@example.edu
  :created_at: 2026-11-22 09:30:00.000000000 Z
  :status: processed
"""
    source = make_zip(tmp_path / "assignment_77_export.zip", {
        "assignment_77_export/submission_metadata.yml": metadata,
        "assignment_77_export/submission_123456/player.py": "a = 1",
        "assignment_77_export/submission_123457/player.py": "b = 1",
    }, date_time=DOWNLOADED)
    report = import_submissions(source, tmp_path / "subs", "q", entry="player.py")
    assert report.format == "gradescope"
    assert report.imported == ["2001", "borek@example.edu"]
    root = tmp_path / "subs" / "q"
    alice = meta(root / "2001")
    assert alice["name"] == "Alice Nováková"
    assert datetime.fromisoformat(alice["uploaded_at"]) == datetime.fromisoformat("2026-11-20T14:03:07+01:00")
    assert any(sid == "borek@example.edu" and "2003" in n for sid, n in report.notes)
    assert any("submission_metadata.yml" in r for r in report.remarks)
