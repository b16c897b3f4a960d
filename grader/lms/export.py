"""Grades and feedback back to the LMS: Moodle worksheet, Canvas gradebook, plain CSV.

Input rows are dicts `{"student_id", "name", "grade", "max_grade", "feedback", "report_url"}`, and
`"flags"`: the similarity report's sentences about the student, for the instructor only. A flag
is named in the export's summary and in the instructor's review copy of the feedback
(`review_rows`); it is never written into the feedback a student reads, and never changes a grade.
The LMS files are round-tripped through `CsvText`: only the grade (and feedback) cells of
matched students change; every other byte, the BOM and the line endings stay as downloaded.
When the LMS's maximum differs from the row's `max_grade`, the grade is scaled to the LMS's
maximum (`grade / max_grade * lms_max`) and a note says so.
"""
from __future__ import annotations

import csv
import html
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..safetext import csv_cell
from . import moodle
from .csvtext import CsvProblem, CsvText

PLAIN_COLUMNS = ("student_id", "name", "grade", "max_grade", "feedback")


class Unmatched(ValueError):
    """The LMS file matched nobody, or fewer students than were graded; nothing was written."""

    def __init__(self, read: Path, written: Path, unmatched: list[str], filled: int):
        self.unmatched = unmatched
        shown = ", ".join(unmatched[:20]) + (f" and {len(unmatched) - 20} more" if len(unmatched) > 20 else "")
        what = "matched no graded student" if not filled else f"matched {filled} graded students but not {len(unmatched)}"
        super().__init__(f"{read} {what} ({shown}); {written} was not written. Is {read.name} the file the LMS "
                         "gave for this assignment? Pass --allow-partial to write the matched ones anyway.")


@dataclass
class FillResult:
    """What filling an LMS file did: who got a grade, who could not be placed."""

    path: Path
    filled: list[str] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)     # rows with no line in the LMS file
    locked: list[str] = field(default_factory=list)        # Moodle: "Grade can be changed" is No
    notes: list[str] = field(default_factory=list)
    flagged: list[tuple[str, str]] = field(default_factory=list)   # (student id, flag): instructor only

    def __str__(self) -> str:
        lines = [(f"Wrote {self.path.name}: {len(self.filled)} grades filled, {len(self.unmatched)} students "
                  f"not in the file, {len(self.locked)} locked{flag_count(self.flagged)}.")]
        if self.unmatched:
            lines.append(f"  not in the file: {', '.join(self.unmatched)}")
        if self.locked:
            lines.append(f"  grade locked in Moodle: {', '.join(self.locked)}")
        lines += [f"  note: {n}" for n in self.notes]
        lines += flagged_lines(self.flagged)
        return "\n".join(lines)


def flags_of(rows: Iterable[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """(student id, flag) for every flag of these rows, for the instructor's summary."""
    return [(str(row["student_id"]), str(flag)) for row in rows for flag in row.get("flags") or ()]


def flagged_lines(flagged: list[tuple[str, str]]) -> list[str]:
    """The summary's line per flag, under its first line."""
    return [f"  flagged: {sid}: {flag}" for sid, flag in flagged]


def flag_count(flagged: list[tuple[str, str]]) -> str:
    """The summary line's part about flags: how many, and that the grades stand as computed."""
    students = len({sid for sid, _ in flagged})
    if not students:
        return ""
    return (f"; {students} student{'' if students == 1 else 's'} flagged by the similarity report, "
            f"grade{'' if students == 1 else 's'} unchanged: review before uploading")


REVIEW_HEAD = "Similarity flags (instructor only, not in the student's feedback; the grade is unchanged):"


def review_rows(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The rows with each flagged student's feedback followed by the flags: the copy of the
    feedback the instructor reviews, never the one uploaded to the LMS."""
    out = []
    for row in rows:
        flags = list(row.get("flags") or ())
        feedback = str(row.get("feedback") or "")
        if flags:
            feedback += "\n\n" + REVIEW_HEAD + "".join(f"\n- {f}" for f in flags)
        out.append(dict(row) | {"feedback": feedback})
    return out


def _number(value: float, decimals: int = 2) -> str:
    """A grade as the LMS reads it: plain decimal point, no trailing zeros."""
    text = f"{round(float(value), decimals):.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


_float = moodle.to_float


def _scaled(row: Mapping[str, Any], lms_max: float | None, notes: list[str]) -> float:
    """The row's grade on the LMS's scale."""
    grade = float(row["grade"])
    own_max = row.get("max_grade")
    if lms_max and own_max and abs(float(own_max) - lms_max) > 1e-9:
        notes.append(f"{row['student_id']}: {_number(grade)} / {_number(own_max)} scaled to "
                     f"{_number(grade / float(own_max) * lms_max)} / {_number(lms_max)}.")
        return grade / float(own_max) * lms_max
    return grade


def default_out(path: Path) -> Path:
    """Where a filled LMS file goes without --out: beside the one read, named <stem>-graded."""
    return path.with_name(f"{path.stem}-graded{path.suffix}")


def _moodle_id(value: Any) -> str:
    text = str(value).strip()
    return moodle.participant_id(text) or text


def _finish(read: Path, sheet: CsvText, result: FillResult, allow_partial: bool) -> FillResult:
    """Write the filled file, unless it matched nobody or not everyone and that was not allowed."""
    if not allow_partial and (result.unmatched or not (result.filled or result.locked)):
        raise Unmatched(Path(read), result.path, result.unmatched, len(result.filled))
    sheet.write(result.path)
    return result


def feedback_html(text: str) -> str:
    """Plain feedback as the HTML Moodle's feedback comments expect (lines kept)."""
    return html.escape(text).replace("\n", "<br>")


def fill_moodle_worksheet(worksheet: Path, rows: Iterable[Mapping[str, Any]], out: Path | None = None,
                          allow_partial: bool = True) -> FillResult:
    """Fill the grade and feedback comments of a Moodle offline grading worksheet; write it to `out`.

    The worksheet may be in any language Moodle writes (see moodle.py). Students are matched on
    the identifier ("Participant 12345", "Účastník 12345") against the row's student_id ("12345",
    the id the Moodle import gives); a team's row (a group id, named after the group) fills every
    member of that group. Grades are written with the decimal mark of the worksheet's maximum grade.
    Raises `CsvProblem` if the file is not a worksheet, `Unmatched` (nothing written) when rows
    are left unmatched and `allow_partial` is False.
    """
    sheet = CsvText.read(worksheet, delimiter=None)
    cols = moodle.columns(sheet)
    if cols is None:
        raise CsvProblem(f"{sheet.name} is not a Moodle grading worksheet (no column holds participant "
                         "identifiers such as 'Participant 12345' beside a grade column).")
    result = FillResult(out or default_out(Path(worksheet)))
    if cols.feedback is None:
        result.notes.append("the worksheet has no Feedback comments column; only grades were filled.")
    where: dict[str, tuple[int, list[str]]] = {}
    teams: dict[str, list[str]] = {}
    for i, record in enumerate(sheet.records[1:], start=1):
        values = record.values()
        if len(values) > cols.identifier and moodle.participant_id(values[cols.identifier]):
            sid = _moodle_id(values[cols.identifier])
            where[sid] = (i, values)
            if cols.team is not None and len(values) > cols.team and values[cols.team].strip():
                teams.setdefault(values[cols.team].strip(), []).append(sid)
    for row in rows:
        sid = _moodle_id(row["student_id"])
        members = [sid] if sid in where else teams.get(str(row.get("name") or "").strip(), [])
        if not members:
            result.unmatched.append(sid)
            continue
        for member in members:
            i, values = where[member]
            if cols.canchange is not None and len(values) > cols.canchange and moodle.is_no(values[cols.canchange]):
                result.locked.append(member)
                continue
            max_text = values[cols.maxgrade] if cols.maxgrade is not None and len(values) > cols.maxgrade else ""
            grade = f"{_scaled(row, _float(max_text), result.notes):.2f}"
            sheet.set(i, cols.grade, grade.replace(".", ",") if "," in max_text else grade)
            if cols.feedback is not None and row.get("feedback") is not None:
                sheet.set(i, cols.feedback, feedback_html(str(row["feedback"])))
            result.filled.append(member)
            result.flagged += [(member, flag) for _, flag in flags_of([row])]
    return _finish(worksheet, sheet, result, allow_partial)


def _canvas_column(sheet: CsvText, assignment: str) -> int:
    """The gradebook column of an assignment given by its title, `Title (id)` or its id."""
    header = [h.strip() for h in sheet.header]
    exact = [i for i, h in enumerate(header) if h == assignment]
    if exact:
        return exact[0]
    hits = [i for i, h in enumerate(header)
            if h.endswith(")") and (h.startswith(f"{assignment} (") or h.endswith(f"({assignment})"))]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise CsvProblem(f"{sheet.name} has no column for assignment {assignment!r}.")
    raise CsvProblem(f"{sheet.name} has several columns for assignment {assignment!r}: "
                     f"{', '.join(header[i] for i in hits)}; give the full column title.")


def fill_canvas_gradebook(gradebook: Path, rows: Iterable[Mapping[str, Any]], assignment: str,
                          out: Path | None = None, allow_partial: bool = True) -> FillResult:
    """Fill one assignment column of a Canvas gradebook export (`,` or `;` separated); write it to `out`.

    Students are matched on `ID` (the Canvas user id the Canvas import gives), then `SIS User ID`,
    then `SIS Login ID`. Canvas cannot import comments from CSV, so feedback is not written here.
    Grades are written with a decimal comma where the file is `;`-separated (Canvas's setting for
    decimal-comma locales). `Unmatched` as for Moodle.
    """
    sheet = CsvText.read(gradebook, delimiter=None)
    ids = [sheet.column(t) for t in ("ID", "SIS User ID", "SIS Login ID")]
    student_col = next((c for c in map(sheet.column, ("Student", "LastName", "Last Name")) if c is not None), None)
    if ids[0] is None or student_col is None:
        raise CsvProblem(f"{sheet.name} is not a Canvas gradebook export (it has no Student and ID columns).")
    col = _canvas_column(sheet, assignment)
    result = FillResult(out or default_out(Path(gradebook)))
    points_possible = None
    where: dict[str, int] = {}
    for i, record in enumerate(sheet.records[1:], start=1):
        values = record.values()
        if len(values) <= max(c for c in ids if c is not None):
            continue
        if values[student_col].strip() == "Points Possible":
            points_possible = _float(values[col]) if len(values) > col else None
            continue
        if not values[ids[0]].strip():
            continue                       # "Manual Posting" and other non-student rows
        for c in ids:
            if c is not None and values[c].strip():
                where.setdefault(values[c].strip(), i)
    for row in rows:
        sid = str(row["student_id"]).strip()
        if sid not in where:
            result.unmatched.append(sid)
            continue
        grade = _number(_scaled(row, points_possible, result.notes))
        sheet.set(where[sid], col, grade.replace(".", ",") if sheet.delimiter == ";" else grade)
        result.filled.append(sid)
        result.flagged += flags_of([row])
    return _finish(gradebook, sheet, result, allow_partial)


def write_grades_csv(rows: Iterable[Mapping[str, Any]], path: Path) -> Path:
    """A plain grades file: student_id, name, grade, max_grade, feedback (UTF-8, one row per student)."""
    path = Path(path)
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(PLAIN_COLUMNS)
        for row in rows:
            writer.writerow([csv_cell(row.get(c)) if row.get(c) is not None else "" for c in PLAIN_COLUMNS])
    return path
