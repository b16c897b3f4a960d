"""Builders for the archives and downloads the LMS and archive tests feed in (imported by name:
tests run with --import-mode=importlib, so conftest.py puts this folder on sys.path)."""
from __future__ import annotations

import io
import stat
import zipfile
from pathlib import Path


def make_zip(path: Path, entries: dict[str, bytes | str], *, compression=zipfile.ZIP_DEFLATED,
             date_time=(2026, 11, 20, 14, 3, 0)) -> Path:
    """A zip holding `entries` (name -> content; a name ending in / is a folder)."""
    with zipfile.ZipFile(path, "w", compression) as zf:
        for name, data in entries.items():
            info = zipfile.ZipInfo(name, date_time=date_time)
            info.compress_type = compression
            if name.endswith("/"):
                info.external_attr = (stat.S_IFDIR | 0o755) << 16
            zf.writestr(info, data)
    return path


def zip_bytes(entries: dict[str, bytes | str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            zf.writestr(zipfile.ZipInfo(name, date_time=(2026, 11, 20, 14, 3, 0)), data)
    return buf.getvalue()


def listing(folder: Path) -> list[str]:
    """Every path under `folder` (files and folders, hidden ones too), sorted."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))



# --- a class's download as each LMS writes it (names and layouts from the LMSs' own formats) -----------
# `students` maps an id to (display name, {file name: text}) everywhere below.

def moodle_download(path: Path, students: dict[str, tuple[str, dict[str, str]]]) -> Path:
    """Moodle 4.1 "Download all submissions": `<Full name>_<participant id>_assignsubmission_file/`."""
    return make_zip(path, {f"{name}_{sid}_assignsubmission_file/{f}": text
                           for sid, (name, files) in students.items() for f, text in files.items()})


def moodle_worksheet(path: Path, students: dict[str, tuple[str, dict[str, str]]], max_grade: float = 3) -> Path:
    """Moodle's offline grading worksheet in English, as "Download grading worksheet" writes it."""
    head = ("Identifier,Full name,Email address,Status,Grade,Maximum grade,Grade can be changed,"
            "Last modified (submission),Last modified (grade),Feedback comments\n")
    rows = "".join(f"Participant {sid},{name},{sid}@example.edu,Submitted for grading,,{max_grade:.2f},Yes,"
                   f"\"Friday, 20 November 2026, 2:03 PM\",-,\n" for sid, (name, _) in students.items())
    path.write_text(head + rows, encoding="utf-8")
    return path


def canvas_download(path: Path, students: dict[str, tuple[str, dict[str, str]]]) -> Path:
    """Canvas "Download Submissions": flat `<lastfirst>_<user id>_<attachment id>_<file name>`."""
    entries, attachment = {}, 9000
    for sid, (name, files) in students.items():
        first, _, last = name.partition(" ")
        for f, text in files.items():
            attachment += 1
            entries[f"{(last + first).lower()}_{sid}_{attachment}_{f}"] = text
    return make_zip(path, entries)


def canvas_gradebook(path: Path, students: dict[str, tuple[str, dict[str, str]]], column: str) -> Path:
    """Canvas's gradebook export (`,` separated) with one assignment column."""
    rows = "".join(f"{name.partition(' ')[2]},{name.partition(' ')[0]},{sid},,,Section 1,\n"
                   for sid, (name, _) in students.items())
    path.write_text(f"LastName,FirstName,ID,SIS User ID,SIS Login ID,Section,{column}\n"
                    f"    Points Possible,,,,,,3.00\n" + rows, encoding="utf-8")
    return path


def gradescope_export(path: Path, students: dict[str, tuple[str, dict[str, str]]]) -> Path:
    """Gradescope "Export Submissions": `submission_metadata.yml` beside `submission_<id>/` folders."""
    meta, entries = [], {}
    for n, (sid, (name, files)) in enumerate(students.items()):
        key = f"submission_{123456 + n}"
        meta.append(f"{key}:\n  :submitters:\n  - :name: {name}\n    :sid: '{sid}'\n    :email: {sid}@example.edu\n"
                    f"  :created_at: 2026-11-20 14:03:07.123456000 +01:00\n  :status: processed\n")
        entries |= {f"assignment_77_export/{key}/{f}": text for f, text in files.items()}
    return make_zip(path, {"assignment_77_export/submission_metadata.yml": "".join(meta)} | entries)


def brute_folder(path: Path, students: dict[str, tuple[str, dict[str, str]]]) -> Path:
    """A BRUTE (or any plain) download: one folder per login."""
    for sid, (_, files) in students.items():
        for f, text in files.items():
            (path / sid / f).parent.mkdir(parents=True, exist_ok=True)
            (path / sid / f).write_text(text, encoding="utf-8")
    return path
