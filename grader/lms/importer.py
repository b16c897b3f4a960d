"""`grader import`: a class download in, one checked folder per student out, safely and repeatably.

Each student lands in `<dest_root>/<assignment>/<student-id>/` with a `.submission.json` beside the
files. Importing the same download twice changes nothing; a different upload of a student moves
the old folder to `<dest_root>/<assignment>/.previous/<student-id>/<timestamp>/` before the new one
takes its place. One student's hostile zip refuses that student only; a hostile class archive
refuses the whole import (`ImportRefused`) and writes nothing.
"""
from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from ..archive import ArchiveCaps, ArchiveRefused, copy_tree_safely, safe_extract
from ..submissions import METADATA, content_hash
from .csvtext import CsvProblem
from .formats import (
    FORMATS,
    FormatUnknown,
    Upload,
    detect,
    entries,
    read_uploads,
    record_candidates,
    restore_canvas_names,
)
from .roster import Roster, read_roster

PREVIOUS = ".previous"
# A whole class download: many students, each up to the per-student caps.
CLASS_CAPS = ArchiveCaps(max_total_mb=4096, max_file_mb=512, max_files=100_000, max_path_depth=24)


class ImportRefused(ValueError):
    """The whole download was refused or could not be read (one sentence)."""


@dataclass
class ImportReport:
    """What one import did, student by student."""

    source: str
    assignment: str
    format: str = ""
    imported: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)     # (student id or entry, sentence)
    notes: list[tuple[str, str]] = field(default_factory=list)       # imported, but worth a look
    remarks: list[str] = field(default_factory=list)                 # about the whole import

    def __str__(self) -> str:
        lines = [(f"Imported {self.source} ({self.format}) into assignment {self.assignment}: "
                 f"{len(self.imported)} new, {len(self.replaced)} replaced, {len(self.unchanged)} unchanged, "
                 f"{len(self.refused)} refused.")]
        for title, ids in (("new", self.imported), ("replaced", self.replaced), ("unchanged", self.unchanged)):
            if ids:
                lines.append(f"  {title}: {', '.join(ids)}")
        lines += [f"  refused {sid}: {why}" for sid, why in self.refused]
        lines += [f"  note {sid}: {what}" for sid, what in self.notes]
        lines += [f"  {what}" for what in self.remarks]
        return "\n".join(lines)


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y%m%dT%H%M%SZ")


def _stage(up: Upload, into: Path, work: Path, caps: ArchiveCaps) -> None:
    """Copy one student's files into `into` under the archive rules (raises ArchiveRefused)."""
    label = f"the submission of {up.student_id}"
    for src in up.sources():
        if src.is_symlink() or not (src.is_dir() or stat.S_ISREG(src.lstat().st_mode)):
            raise ArchiveRefused(label, f"{src.name} is a link or a special file, not a file or folder")
    if up.folder is not None:
        copy_tree_safely(up.folder, into, caps, unpack_zips=True, label=label)
    elif up.archive is not None:
        safe_extract(up.archive, into, caps, label=label)
    else:
        raw = work / "raw"
        raw.mkdir()
        for src, name in up.files:
            if name in ("", ".", "..") or "/" in name or "\\" in name:
                raise ArchiveRefused(label, f"the file name {name!r} is not usable")
            if (raw / name).exists():
                raise ArchiveRefused(label, f"it holds {name} twice")
            shutil.copy2(src, raw / name)
        copy_tree_safely(raw, into, caps, unpack_zips=True, label=label)


def _lift(tree: Path, entry: str | None, levels: int = 3) -> bool:
    """Bring the entry file to the top of the submission; False if it is not found.

    The contents of the one sub-folder holding the entry file (or, without an entry, of a lone
    folder) move up a level, repeatedly: a zip inside the student's folder adds a level of its own.
    """
    for _ in range(levels):
        top = [p for p in tree.iterdir() if p.name != METADATA]
        if entry:
            if (tree / entry).is_file():
                return True
            holders = [p for p in top if p.is_dir() and any(q.name == entry for q in p.rglob(entry))]
            if len(holders) != 1:
                return False
            inner = holders[0]
        elif len(top) == 1 and top[0].is_dir():
            inner = top[0]
        else:
            return True
        others = {p.name for p in top if p != inner}
        if others & {p.name for p in inner.iterdir()}:
            return False
        hold = Path(tempfile.mkdtemp(prefix=".lifting-", dir=tree))
        os.rename(inner, hold / "x")
        for child in (hold / "x").iterdir():
            os.rename(child, tree / child.name)
        (hold / "x").rmdir()
        hold.rmdir()
    return not entry or (tree / entry).is_file()


def _read_metadata(folder: Path) -> dict:
    try:
        return json.loads((folder / METADATA).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _set_aside(current: Path, previous_root: Path, when: str) -> Path:
    """Move an earlier import to `.previous/<id>/<timestamp>/` (never deleted)."""
    previous_root.mkdir(parents=True, exist_ok=True)
    aside = previous_root / when
    n = 1
    while aside.exists():
        n += 1
        aside = previous_root / f"{when}-{n}"
    os.rename(current, aside)
    return aside


def _open_source(source: Path, work: Path) -> Path:
    """The download as a folder: the folder itself, or the class zip unpacked (inner zips kept whole)."""
    if source.is_symlink():
        raise ImportRefused(f"{source.name} is a symbolic link; pass the real folder or archive.")
    if source.is_dir():
        return source
    if source.is_file() and source.suffix.lower() == ".zip":
        try:
            safe_extract(source, work / "download", CLASS_CAPS, unpack_nested=False)
        except ArchiveRefused as exc:
            raise ImportRefused(str(exc)) from None
        return work / "download"
    if not source.exists():
        raise ImportRefused(f"{source} does not exist.")
    raise ImportRefused(f"{source.name} is neither a folder nor a .zip archive.")


def _unwrap(root: Path) -> Path:
    """Step into a lone wrapper folder when the class download sits one folder down."""
    found = entries(root)
    if len(found) == 1 and found[0].is_dir(follow_symlinks=False):
        inner = Path(found[0].path)
        try:
            beside = frozenset(p.name for p in record_candidates(inner))
            if detect(inner, beside) in ("moodle", "canvas", "gradescope") and detect(root) not in ("moodle",):
                return inner
        except FormatUnknown:
            pass
    return root


DEFAULT_CAPS = ArchiveCaps()


def import_submissions(source: Path, dest_root: Path, assignment: str, fmt: str = "auto",
                       entry: str | None = None, *, caps: ArchiveCaps = DEFAULT_CAPS,
                       now: datetime | None = None, roster: Path | None = None) -> ImportReport:
    """Import a class download into `dest_root/<assignment>/<student-id>/`.

    `fmt` is auto, moodle, canvas, gradescope, brute or folder; `entry` (e.g. "player.py") lets a
    submission whose entry file sits one folder down be lifted up. `caps` apply to each student
    separately. `roster` is what the LMS recorded beside the zip (see roster.py): display names,
    teams and the upload times; without one (or Gradescope's metadata) no upload time is recorded.
    Raises `ImportRefused` (a sentence) when the whole download cannot be used.
    """
    source, dest_root = Path(source), Path(dest_root)
    if fmt != "auto" and fmt not in FORMATS:
        raise ImportRefused(f"unknown format {fmt!r}; use one of auto, {', '.join(FORMATS)}.")
    if not assignment or assignment.startswith(".") or "/" in assignment or "\\" in assignment:
        raise ImportRefused(f"{assignment!r} cannot be used as an assignment folder name.")
    now = now or datetime.now(UTC)
    report = ImportReport(source=source.name, assignment=assignment)
    try:
        recorded = read_roster(Path(roster)) if roster else None
    except CsvProblem as exc:
        raise ImportRefused(str(exc)) from None
    with tempfile.TemporaryDirectory(prefix="grader-import-") as tmp:
        root = _unwrap(_open_source(source, Path(tmp)))
        skip: frozenset[str] = frozenset()
        if recorded is None:
            recorded, skip = _record_beside(root, report)
        try:
            report.format = detect(root, skip) if fmt == "auto" else fmt
            uploads = read_uploads(root, report.format, entry, report.notes, skip)
        except FormatUnknown as exc:
            raise ImportRefused(str(exc)) from None
        _apply_record(uploads, recorded, report, entry)
        assignment_dir = dest_root / assignment
        incoming = None
        try:
            for up in sorted(uploads, key=lambda u: u.student_id):
                if up.problem:
                    report.refused.append((up.student_id, up.problem))
                    continue
                if incoming is None:
                    assignment_dir.mkdir(parents=True, exist_ok=True)
                    incoming = Path(tempfile.mkdtemp(prefix=".importing-", dir=assignment_dir))
                _import_one(up, report, assignment_dir, incoming, caps, entry, now, source.name)
        finally:
            if incoming is not None:
                shutil.rmtree(incoming, ignore_errors=True)
    return report


def _record_beside(root: Path, report: ImportReport) -> tuple[Roster | None, frozenset[str]]:
    """A worksheet or gradebook saved among the submissions is used as the record (and is no student)."""
    for path in record_candidates(root):
        try:
            found = read_roster(path)
        except CsvProblem:
            continue
        report.remarks.append(f"used {path.name}, found in the download, as the {found.kind}.")
        return found, frozenset({path.name})
    return None, frozenset()


def _apply_record(uploads: list[Upload], roster: Roster | None, report: ImportReport, entry: str | None) -> None:
    """Names, teams, lateness and upload times from what the LMS recorded; say where times came from."""
    timed = 0
    uploads = [up for up in uploads if not up.problem]
    for up in uploads:
        rec = roster.get(up.student_id) if roster else None
        members = roster.team(up.name) if roster and rec is None else []
        if rec is not None:
            up.name = rec.name or up.name
            up.late = rec.late if rec.late is not None else up.late
            if roster is not None and roster.has_times:
                up.uploaded_at = rec.uploaded_at
        elif members:
            up.team = True
            times = [m.uploaded_at for m in members if m.uploaded_at]
            up.uploaded_at = max(times) if times and roster is not None and roster.has_times else up.uploaded_at
        if up.team:
            shown = ", ".join(f"{m.name or m.student_id} ({m.student_id})" for m in members)
            report.notes.append((up.student_id, f"a team submission ({up.name})"
                                 + (f": {shown}." if shown else "; the worksheet would name its members.")))
        if report.format == "canvas":
            restore_canvas_names(up, entry, rec.original_names if rec else {}, report.notes)
        timed += up.uploaded_at is not None
        if up.late and up.uploaded_at is None:
            report.notes.append((up.student_id, ("marked late by the LMS, but with no upload time no late penalty "
                                                "can be computed; its submissions export has the time.")))
    source = ("Gradescope's submission_metadata.yml" if report.format == "gradescope"
              else f"the {roster.kind} {roster.source}" if roster and roster.has_times else None)
    if source:
        report.remarks.append(f"upload times: from {source} for {timed} of {len(uploads)} submissions.")
    untimed = len(uploads) - timed
    if untimed:
        why = (f"the {roster.kind} does not record them" if roster and not roster.has_times
               else "the download does not record them (the dates in a zip are when it was downloaded)")
        report.remarks.append(
            f"no upload time for {untimed} submission(s): {why}, so no late penalty is applied to them"
            + ("" if roster and roster.has_times else
               "; pass --roster with Moodle's grading worksheet or Canvas's submissions export for the times")
            + ".")


def _import_one(up: Upload, report: ImportReport, assignment_dir: Path, incoming: Path,
                caps: ArchiveCaps, entry: str | None, now: datetime, source_name: str) -> None:
    """Stage, check and place one student's submission, recording the outcome in `report`."""
    sid = up.student_id
    work = Path(tempfile.mkdtemp(prefix="student-", dir=incoming))
    staged = work / "tree"
    try:
        _stage(up, staged, work, caps)
    except ArchiveRefused as exc:
        report.refused.append((sid, str(exc)))
        return
    except OSError as exc:
        report.refused.append((sid, f"the submission of {sid} could not be read ({exc.strerror or exc})."))
        return
    if not _lift(staged, entry) or (entry and not (staged / entry).is_file()):
        report.notes.append((sid, f"no {entry} at the top of the submission or one folder down." if entry
                             else "the submission's layout was left as uploaded."))
    meta = {
        "student_id": sid,
        "name": up.name,
        "original_files": up.original_names,
        "files": sorted(p.relative_to(staged).as_posix() for p in staged.rglob("*") if p.is_file()),
        "uploaded_at": up.uploaded_at.isoformat(timespec="seconds") if up.uploaded_at else None,
        "late": up.late,
        "uploads": up.uploads,
        "team": up.team or None,
        "content_hash": content_hash(staged),
        "format": report.format,
        "source": source_name,
        "imported_at": now.isoformat(timespec="seconds"),
    }
    target = assignment_dir / sid
    old = _read_metadata(target) if target.exists() else None
    if old is not None and old.get("content_hash") == meta["content_hash"]:
        report.unchanged.append(sid)
        return
    if old and old.get("uploaded_at") and meta["uploaded_at"] and meta["uploaded_at"] < old["uploaded_at"]:
        report.unchanged.append(sid)
        report.notes.append((sid, (f"kept the upload of {old['uploaded_at']}; the one in {source_name} "
                                  f"({meta['uploaded_at']}) is older.")))
        return
    (staged / METADATA).write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if old is not None:
        when = str(old.get("imported_at") or "")
        try:
            stamp = _stamp(datetime.fromisoformat(when))
        except ValueError:
            stamp = _stamp(now)
        _set_aside(target, assignment_dir / PREVIOUS / sid, stamp)
        os.rename(staged, target)
        report.replaced.append(sid)
    else:
        os.rename(staged, target)
        report.imported.append(sid)
