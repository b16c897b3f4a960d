"""What the LMS recorded about each student, from the file the instructor downloads beside the zip.

The submissions zip says who uploaded which files, but not reliably when (Moodle and Canvas
write the download time into every zip entry) nor, for Canvas, the student's display name (the
zip has the sortable login, `novakovaalice`). These files do:

- a Moodle grading worksheet ("Download grading worksheet", any language): display name, team,
  "Last modified (submission)";
- a Canvas gradebook export (`,` or `;` separated; "Student" or "LastName","FirstName"):
  display names only (Canvas keeps no submission time in it);
- a Canvas API export of the assignment's submissions (JSON, `include[]=user`): display name,
  `submitted_at`, `late`, and each attachment's original file name;
- a plain CSV with `student_id` and any of `name`, `uploaded_at`, `late` (BRUTE's upload record,
  or anything an instructor writes by hand).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from . import moodle
from .csvtext import CsvProblem, CsvText


@dataclass
class Recorded:
    """One student as the LMS recorded them; None: the file does not say."""

    student_id: str
    name: str | None = None
    uploaded_at: datetime | None = None
    late: bool | None = None
    team: str | None = None
    original_names: dict[str, str] = field(default_factory=dict)   # Canvas attachment id -> uploaded name


@dataclass
class Roster:
    kind: str                       # what the file is, as the import report says it
    source: str
    students: dict[str, Recorded] = field(default_factory=dict)
    has_times: bool = False

    def get(self, student_id: str) -> Recorded | None:
        return self.students.get(student_id)

    def team(self, name: str | None) -> list[Recorded]:
        """The members of a team, by the team's name (Moodle's team submissions)."""
        return [r for r in self.students.values() if name and r.team and r.team.strip() == name.strip()]


def _display_name(sortable: str) -> str:
    """Canvas's "Last, First" as "First Last"."""
    last, sep, first = sortable.partition(",")
    return f"{first.strip()} {last.strip()}" if sep and first.strip() else sortable.strip()


def _iso(value) -> datetime | None:
    if not value:
        return None
    if isinstance(value, datetime):
        return value
    try:
        return datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
    except ValueError:
        return None


def read_roster(path: Path) -> Roster:
    """Read any of the files above; `CsvProblem` (one sentence) when it is none of them."""
    path = Path(path)
    if path.suffix.lower() == ".json":
        return _canvas_api(path)
    sheet = CsvText.read(path, delimiter=None)
    header = [h.strip() for h in sheet.header]
    if "ID" in header and ("Student" in header or {"LastName", "FirstName"} <= {h.replace(" ", "") for h in header}):
        return _canvas_gradebook(sheet, header)
    if "student_id" in header:
        return _plain(sheet, header)
    cols = moodle.columns(sheet)
    if cols is not None:
        return _moodle_worksheet(sheet, cols)
    raise CsvProblem(f"{path.name} is neither a Moodle grading worksheet, a Canvas gradebook or submissions "
                     "export, nor a CSV with a student_id column.")


def _moodle_worksheet(sheet: CsvText, cols: moodle.Columns) -> Roster:
    roster = Roster("Moodle grading worksheet", sheet.name, has_times=cols.submitted is not None)
    for record in sheet.records[1:]:
        values = record.values()

        def cell(i: int | None, values: list[str] = values) -> str:
            return values[i].strip() if i is not None and i < len(values) else ""
        sid = moodle.participant_id(cell(cols.identifier))
        if sid is None:
            continue
        roster.students[sid] = Recorded(sid, name=cell(cols.fullname) or None,
                                        uploaded_at=moodle.parse_date(cell(cols.submitted)),
                                        team=cell(cols.team) or None)
    return roster


def _canvas_gradebook(sheet: CsvText, header: list[str]) -> Roster:
    roster = Roster("Canvas gradebook", sheet.name)
    header = [h.replace(" ", "") if h.replace(" ", "") in ("LastName", "FirstName") else h for h in header]
    ident = header.index("ID")
    for record in sheet.records[1:]:
        values = [v.strip() for v in record.values()]
        if len(values) <= ident or not values[ident].isdigit():
            continue                               # "Points Possible" and other non-student rows
        if "Student" in header:
            name = _display_name(values[header.index("Student")])
        else:
            name = f"{values[header.index('FirstName')]} {values[header.index('LastName')]}".strip()
        roster.students[values[ident]] = Recorded(values[ident], name=name or None)
    return roster


def _canvas_api(path: Path) -> Roster:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise CsvProblem(f"{path.name} cannot be read as JSON ({exc}).") from None
    if not isinstance(data, list) or not all(isinstance(s, dict) for s in data):
        raise CsvProblem(f"{path.name} is not a Canvas submissions export (a JSON list of submissions).")
    roster = Roster("Canvas submissions export", path.name, has_times=True)
    for sub in data:
        anon = sub.get("anonymous_id")
        sid = f"anon_{anon}" if anon and not sub.get("user_id") else str(sub.get("user_id") or "")
        if not sid:
            continue
        user = sub.get("user") if isinstance(sub.get("user"), dict) else {}
        names = {str(a.get("id")): str(a.get("filename") or a.get("display_name"))
                 for a in sub.get("attachments") or [] if isinstance(a, dict) and a.get("id")}
        roster.students[sid] = Recorded(sid, name=user.get("name") or None, uploaded_at=_iso(sub.get("submitted_at")),
                                        late=sub.get("late") if isinstance(sub.get("late"), bool) else None,
                                        original_names=names)
    return roster


def _plain(sheet: CsvText, header: list[str]) -> Roster:
    roster = Roster("upload record", sheet.name, has_times="uploaded_at" in header)
    for record in sheet.records[1:]:
        row = dict(zip(header, (v.strip() for v in record.values())))
        sid = row.get("student_id")
        if not sid:
            continue
        late = row.get("late", "").casefold()
        roster.students[sid] = Recorded(sid, name=row.get("name") or None, uploaded_at=_iso(row.get("uploaded_at")),
                                        late=True if late in ("1", "true", "yes") else False if late in ("0", "false", "no") else None)
    return roster
