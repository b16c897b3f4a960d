"""grader.lms.import_submissions: each download format, metadata, lifting, refusals, idempotence, replacement."""
from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from lms_builders import listing, make_zip, zip_bytes

from grader.lms import ImportRefused, import_submissions
from grader.submissions import content_hash

T1 = datetime(2026, 11, 22, 8, 0, 0, tzinfo=UTC)
T2 = datetime(2026, 11, 23, 9, 30, 0, tzinfo=UTC)


def meta(folder: Path) -> dict:
    return json.loads((folder / ".submission.json").read_text(encoding="utf-8"))


def moodle_zip(path: Path, date_time=(2026, 11, 20, 14, 3, 0), alice_code="x = 1") -> Path:
    return make_zip(path, {
        "Alice Smith_101_assignsubmission_file_/player.py": alice_code,
        "Alice Smith_101_assignsubmission_file_/notes.txt": "my notes",
        "Alice Smith_101_assignsubmission_onlinetext_/onlinetext.html": "<p>hi</p>",
        "Bob Jones_102_assignsubmission_file_/player.zip": zip_bytes({"quoridor/player.py": "y = 2",
                                                                        "quoridor/util.py": "z = 3"}),
        "Carl Evil_103_assignsubmission_file_/player.zip": zip_bytes({"../../../escape.py": "bad"}),
        "Dana Flat_104_assignsubmission_file_player.py": "w = 4",
    }, date_time=date_time)


def test_moodle_zip(tmp_path: Path):
    source = moodle_zip(tmp_path / "class.zip")
    report = import_submissions(source, tmp_path / "submissions", "quoridor", entry="player.py", now=T1)
    assert report.format == "moodle"
    assert report.imported == ["101", "102", "104"]
    assert [sid for sid, _ in report.refused] == ["103"]
    assert "escape.py inside player.zip points outside the archive" in report.refused[0][1]
    assert any(sid == "101" and "onlinetext" in note for sid, note in report.notes)
    root = tmp_path / "submissions" / "quoridor"
    assert listing(root) == [
        "101", "101/.submission.json", "101/notes.txt", "101/player.py",
        "102", "102/.submission.json", "102/player.py", "102/util.py",
        "104", "104/.submission.json", "104/player.py"]
    m = meta(root / "102")
    assert m["student_id"] == "102" and m["name"] == "Bob Jones"
    assert m["original_files"] == ["Bob Jones_102_assignsubmission_file_"]
    assert m["files"] == ["player.py", "util.py"]
    assert m["uploaded_at"] is None          # the zip's dates are the download's, never the upload's
    assert any("no upload time for 4 submission(s)" in r and "no late penalty" in r for r in report.remarks)
    assert m["late"] is None and m["format"] == "moodle" and m["source"] == "class.zip"
    assert m["imported_at"] == "2026-11-22T08:00:00+00:00"
    assert m["content_hash"] == content_hash(root / "102")
    assert not (tmp_path / "escape.py").exists() and not (tmp_path / "submissions" / "escape.py").exists()
    assert "2 new" not in str(report) and "3 new" in str(report) and "refused 103" in str(report)


def test_moodle_folder_refuses_links(tmp_path: Path):
    download = tmp_path / "download"
    alice = download / "Alice Smith_101_assignsubmission_file_"
    alice.mkdir(parents=True)
    (alice / "player.py").write_text("x = 1")
    bob = download / "Bob Jones_102_assignsubmission_file_"
    bob.mkdir()
    (bob / "player.py").symlink_to("/etc/passwd")
    (download / "Eve Link_103_assignsubmission_file_").symlink_to(tmp_path)
    report = import_submissions(download, tmp_path / "subs", "q", entry="player.py")
    assert report.imported == ["101"]
    refused = dict(report.refused)
    assert "player.py is a symbolic link" in refused["102"]
    assert "103" in refused
    assert listing(tmp_path / "subs" / "q") == ["101", "101/.submission.json", "101/player.py"]


def test_canvas_zip_late_marker_and_copy_suffixes(tmp_path: Path):
    source = make_zip(tmp_path / "submissions.zip", {
        "smithalice_2001_9001_player.py": "x = 1",
        "smithalice_2001_9002_helper-1.py": "h = 1",
        "jonesbob_LATE_2002_9003_player-2.py": "y = 2",
        "evanscarl_late_2003_9004_player-1.py": "new",
        "evanscarl_late_2003_9005_player.py": "old",
    })
    report = import_submissions(source, tmp_path / "subs", "q", entry="player.py")
    assert report.format == "canvas" and report.imported == ["2001", "2002", "2003"]
    root = tmp_path / "subs" / "q"
    assert sorted(meta(root / "2001")["files"]) == ["helper-1.py", "player.py"]    # Canvas did not say
    assert any(sid == "2001" and "kept helper-1.py" in note for sid, note in report.notes)
    assert any(sid == "2002" and "player-2.py renamed player.py" in note for sid, note in report.notes)
    assert meta(root / "2001")["late"] is False and meta(root / "2001")["name"] == "smithalice"
    assert meta(root / "2002")["late"] is True
    assert (root / "2002" / "player.py").read_text() == "y = 2"
    assert meta(root / "2002")["original_files"] == ["jonesbob_LATE_2002_9003_player-2.py"]
    assert sorted(meta(root / "2003")["files"]) == ["player-1.py", "player.py"]   # restoring would clash


def test_brute_folder(tmp_path: Path):
    download = tmp_path / "brute"
    (download / "novakj").mkdir(parents=True)
    (download / "novakj" / "player.py").write_text("a = 1")
    make_zip(download / "svobodp.zip", {"player.py": "b = 2", "lib/x.py": "c"})
    (download / "dvorakm.py").write_text("d = 4")
    for n, code in ((1, "old"), (2, "older?"), (10, "newest")):
        (download / "kralt" / str(n)).mkdir(parents=True)
        (download / "kralt" / str(n) / "player.py").write_text(code)
    report = import_submissions(download, tmp_path / "subs", "q", entry="player.py")
    assert report.format == "brute"
    assert report.imported == ["dvorakm", "kralt", "novakj", "svobodp"]
    root = tmp_path / "subs" / "q"
    assert (root / "dvorakm" / "player.py").read_text() == "d = 4"
    assert (root / "kralt" / "player.py").read_text() == "newest"
    assert meta(root / "kralt")["uploads"] == 3
    assert meta(root / "kralt")["original_files"] == ["kralt/10"]
    assert listing(root / "svobodp") == [".submission.json", "lib", "lib/x.py", "player.py"]


def test_plain_folder_with_lifting_and_bad_ids(tmp_path: Path):
    download = tmp_path / "class"
    (download / "alice" / "my project").mkdir(parents=True)
    (download / "alice" / "my project" / "player.py").write_text("x = 1")
    make_zip(download / "bob.zip", {"bob/": "", "bob/player.py": "y = 2"})
    (download / "_weird").mkdir()
    report = import_submissions(download, tmp_path / "subs", "q", entry="player.py")
    assert report.format == "folder" and report.imported == ["alice", "bob"]
    assert "cannot be used as a student id" in dict(report.refused)["_weird"]
    root = tmp_path / "subs" / "q"
    assert listing(root / "alice") == [".submission.json", "player.py"]
    assert listing(root / "bob") == [".submission.json", "player.py"]


def test_missing_entry_is_noted_not_refused(tmp_path: Path):
    download = tmp_path / "class"
    (download / "alice").mkdir(parents=True)
    (download / "alice" / "agent.py").write_text("x = 1")
    report = import_submissions(download, tmp_path / "subs", "q", entry="player.py")
    assert report.imported == ["alice"]
    assert report.notes == [("alice", "no player.py at the top of the submission or one folder down.")]


def test_undecidable_and_empty_downloads_are_refused_with_a_sentence(tmp_path: Path):
    mixed = tmp_path / "mixed"
    (mixed / "alice").mkdir(parents=True)
    (mixed / "notes.txt").write_text("?")
    with pytest.raises(ImportRefused, match=r"could not tell the format of mixed: notes.txt fits none .* pass --format\."):
        import_submissions(mixed, tmp_path / "subs", "q")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ImportRefused, match="empty holds no submissions"):
        import_submissions(tmp_path / "empty", tmp_path / "subs", "q")
    with pytest.raises(ImportRefused, match="unknown format 'blackboard'"):
        import_submissions(mixed, tmp_path / "subs", "q", fmt="blackboard")
    assert not (tmp_path / "subs").exists()


def test_forced_format_reports_entries_that_do_not_fit(tmp_path: Path):
    source = moodle_zip(tmp_path / "class.zip")
    report = import_submissions(source, tmp_path / "subs", "q", fmt="canvas")
    assert report.imported == [] and len(report.refused) == 5
    assert all("does not look like a Canvas submission" in why for _, why in report.refused)


def test_wrapper_folder_inside_class_zip(tmp_path: Path):
    source = make_zip(tmp_path / "class.zip", {
        "Quoridor-download/Alice Smith_101_assignsubmission_file_/player.py": "x = 1"})
    report = import_submissions(source, tmp_path / "subs", "q")
    assert report.format == "moodle" and report.imported == ["101"]


def test_hostile_outer_archive_refused_whole(tmp_path: Path):
    source = make_zip(tmp_path / "class.zip", {
        "Alice Smith_101_assignsubmission_file_/player.py": "x = 1",
        "../../outside.py": "bad"})
    before = listing(tmp_path)
    with pytest.raises(ImportRefused, match=r"^class.zip was refused: the name \.\./\.\./outside.py points outside"):
        import_submissions(source, tmp_path / "subs", "q")
    assert listing(tmp_path) == before


def test_reimport_changes_nothing(tmp_path: Path):
    source = moodle_zip(tmp_path / "class.zip")
    import_submissions(source, tmp_path / "subs", "q", entry="player.py", now=T1)
    snapshot = {p: (tmp_path / "subs" / p).read_bytes() for p in listing(tmp_path / "subs")
                if (tmp_path / "subs" / p).is_file()}
    report = import_submissions(source, tmp_path / "subs", "q", entry="player.py", now=T2)
    assert report.imported == [] and report.replaced == []
    assert report.unchanged == ["101", "102", "104"]
    assert {p: (tmp_path / "subs" / p).read_bytes() for p in listing(tmp_path / "subs")
            if (tmp_path / "subs" / p).is_file()} == snapshot


def upload_record(path: Path, when: str) -> Path:
    """A plain upload record (what BRUTE or an instructor gives): every student uploaded at `when`."""
    path.write_text("student_id,uploaded_at\n" + "".join(f"{sid},{when}\n" for sid in ("101", "102", "104")))
    return path


def test_newer_upload_replaces_and_keeps_the_old_aside(tmp_path: Path):
    monday = upload_record(tmp_path / "monday.csv", "2026-11-20T14:03:00")
    import_submissions(moodle_zip(tmp_path / "monday.zip"), tmp_path / "subs", "q", entry="player.py", now=T1,
                       roster=monday)
    newer = moodle_zip(tmp_path / "tuesday.zip", date_time=(2026, 11, 21, 9, 0, 0), alice_code="x = 2")
    report = import_submissions(newer, tmp_path / "subs", "q", entry="player.py", now=T2,
                                roster=upload_record(tmp_path / "tuesday.csv", "2026-11-21T09:00:00"))
    assert report.replaced == ["101"] and report.unchanged == ["102", "104"]
    root = tmp_path / "subs" / "q"
    assert (root / "101" / "player.py").read_text() == "x = 2"
    assert meta(root / "101")["uploaded_at"] == "2026-11-21T09:00:00"
    aside = root / ".previous" / "101" / "20261122T080000Z"
    assert (aside / "player.py").read_text() == "x = 1"
    assert meta(aside)["imported_at"] == "2026-11-22T08:00:00+00:00"
    assert not [p for p in root.iterdir() if p.name.startswith(".importing")]
    # the older download imported again later does not win over the newer one
    report = import_submissions(tmp_path / "monday.zip", tmp_path / "subs", "q", entry="player.py", now=T2,
                                roster=monday)
    assert report.replaced == [] and "101" in report.unchanged
    assert any(sid == "101" and "is older" in note for sid, note in report.notes)
    assert (root / "101" / "player.py").read_text() == "x = 2"
