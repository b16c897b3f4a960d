"""Reading a class download (Moodle, Canvas, BRUTE-style or a plain folder) into one `Upload` per student.

Nothing is copied here: this module only looks at names and decides which files belong to whom.
The shapes understood:

- moodle: one folder per student `Full Name_<id>_assignsubmission_file_/` holding the files, or
  (downloads without folders) flat files `Full Name_<id>_assignsubmission_file_<filename>`.
  The id is Moodle's participant id (the worksheet's `Participant <id>`). Online-text entries
  (`_assignsubmission_onlinetext_`) are skipped with a note.
- canvas: flat files `lastfirst_<userid>_<subid>_<filename>`, `lastfirst_LATE_<userid>_...` or
  `lastfirst_late_...` for late ones. Canvas renames a re-uploaded file `player-1.py`; the suffix
  is removed again unless that would clash with another file of the same student.
- brute: per login either a folder `<login>/`, a zip `<login>.zip` or a single file `<login>.py`
  (stored under the assignment's entry name). A login folder made only of numbered folders
  (`1/`, `2/`, ...) is an upload history: the highest number is the submission, and the count is
  kept for the upload-limit penalty.
- folder: one sub-folder or zip per student, named by the student id.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..archive import is_junk

FORMATS = ("moodle", "canvas", "brute", "folder")
MOODLE = re.compile(r"^(?P<name>.+?)_(?P<id>\d+)_assignsubmission_(?P<plugin>[a-z]+)_(?P<rest>.*)$")
CANVAS = re.compile(r"^(?P<name>[^_]+?)(?:_(?P<late>late|LATE))?_(?P<id>\d+)_(?P<sub>\d+)_(?P<file>.+)$")
CANVAS_COPY = re.compile(r"^(?P<stem>.+)-\d+(?P<ext>\.[^.]+)?$")
STUDENT_ID = re.compile(r"^[^\W_][\w.@+ -]{0,99}$")


class FormatUnknown(ValueError):
    """The download's shape could not be recognised (one sentence)."""


@dataclass
class Upload:
    """One student's part of the download: where the files are and what the LMS said about them."""

    student_id: str
    name: str | None = None
    folder: Path | None = None                  # a whole folder is the submission
    archive: Path | None = None                 # a whole zip is the submission
    files: list[tuple[Path, str]] = field(default_factory=list)   # single files: (source, name to give it)
    original_names: list[str] = field(default_factory=list)      # as they appear in the download
    late: bool | None = None
    uploads: int | None = None
    problem: str | None = None                  # refused before anything is copied

    def sources(self) -> list[Path]:
        return [p for p in (self.folder, self.archive) if p is not None] + [src for src, _ in self.files]


def entries(root: Path) -> list[os.DirEntry]:
    """The download's top-level entries, junk and hidden files left out."""
    return sorted((e for e in os.scandir(root) if not is_junk(e.name) and not e.name.startswith(".")),
                  key=lambda e: e.name)


def _is_dir(e: os.DirEntry) -> bool:
    return e.is_dir(follow_symlinks=False)


def _history(folder: Path) -> list[Path] | None:
    """Numbered upload folders inside a login folder, oldest first; None if it is not a history."""
    try:
        subs = [e for e in os.scandir(folder) if not is_junk(e.name) and not e.name.startswith(".")]
    except OSError:
        return None
    if not subs or not all(_is_dir(e) and e.name.isdigit() for e in subs):
        return None
    return [Path(e.path) for e in sorted(subs, key=lambda e: int(e.name))]


def detect(root: Path) -> str:
    """The format of a download folder, or `FormatUnknown` with a sentence saying what did not fit."""
    found = entries(root)
    if not found:
        raise FormatUnknown(f"{root.name or root} holds no submissions.")
    if all(MOODLE.match(e.name) for e in found):
        return "moodle"
    if all(not _is_dir(e) and CANVAS.match(e.name) for e in found):
        return "canvas"
    odd = [e.name for e in found if not (_is_dir(e) or e.name.lower().endswith((".zip", ".py")))]
    if odd or any(MOODLE.match(e.name) for e in found):
        example = odd[0] if odd else next(e.name for e in found if not MOODLE.match(e.name))
        raise FormatUnknown(
            f"could not tell the format of {root.name or root}: {example} fits none of Moodle "
            "(Name_<id>_assignsubmission_file_), Canvas (name_<userid>_<subid>_file), BRUTE "
            "(<login>/, <login>.zip, <login>.py) or a plain folder; pass --format.")
    if any(e.name.lower().endswith(".py") for e in found) or any(
            _is_dir(e) and _history(Path(e.path)) for e in found):
        return "brute"
    return "folder"


def _check_id(up: Upload) -> Upload:
    if up.problem is None and not STUDENT_ID.match(up.student_id):
        up.problem = f"{up.student_id!r} cannot be used as a student id (letters, digits, . @ + - and spaces only)."
    return up


def _merge(uploads: dict[str, Upload], up: Upload, shown: str) -> None:
    """Add `up` to the per-student table; a second whole folder or zip for one student is a problem."""
    have = uploads.get(up.student_id)
    if have is None:
        uploads[up.student_id] = up
        return
    if have.folder or have.archive or up.folder or up.archive:
        have.problem = f"{shown} appears more than once in the download for student {up.student_id}."
    have.files += up.files
    have.original_names += up.original_names
    have.name = have.name or up.name
    if up.late:
        have.late = True


def read_moodle(root: Path, notes: list[tuple[str, str]]) -> list[Upload]:
    uploads: dict[str, Upload] = {}
    for e in entries(root):
        m = MOODLE.match(e.name)
        if not m:
            uploads[e.name] = Upload(e.name, problem=f"{e.name} does not look like a Moodle submission "
                                                     "(Full Name_<id>_assignsubmission_file_).")
            continue
        sid, name, plugin, rest = m["id"], m["name"], m["plugin"], m["rest"]
        if plugin != "file":
            notes.append((sid, f"skipped {e.name}: only file submissions are imported, not {plugin}."))
            continue
        if _is_dir(e) and not rest:
            _merge(uploads, Upload(sid, name, folder=Path(e.path), original_names=[e.name]), e.name)
        elif not _is_dir(e) and rest:
            _merge(uploads, Upload(sid, name, files=[(Path(e.path), rest)], original_names=[e.name]), e.name)
        else:
            uploads.setdefault(sid, Upload(sid, name)).problem = f"{e.name} does not look like a Moodle submission."
    return [_check_id(u) for u in uploads.values()]


def _restore_canvas_names(up: Upload) -> None:
    """Undo Canvas's `-1`, `-2` suffixes where the original name is free."""
    taken = {name for _, name in up.files}
    restored = []
    for src, name in up.files:
        m = CANVAS_COPY.match(name)
        if m:
            original = m["stem"] + (m["ext"] or "")
            if original not in taken:
                taken.discard(name)
                taken.add(original)
                name = original
        restored.append((src, name))
    up.files = restored


def read_canvas(root: Path, notes: list[tuple[str, str]]) -> list[Upload]:
    uploads: dict[str, Upload] = {}
    for e in entries(root):
        m = CANVAS.match(e.name)
        if not m or _is_dir(e):
            uploads[e.name] = Upload(e.name, problem=f"{e.name} does not look like a Canvas submission "
                                                     "(lastfirst_<userid>_<subid>_<file>).")
            continue
        up = Upload(m["id"], m["name"], files=[(Path(e.path), m["file"])], original_names=[e.name],
                    late=bool(m["late"]))
        _merge(uploads, up, e.name)
    for up in uploads.values():
        _restore_canvas_names(up)
    return [_check_id(u) for u in uploads.values()]


def read_brute(root: Path, notes: list[tuple[str, str]], entry: str | None) -> list[Upload]:
    uploads: dict[str, Upload] = {}
    for e in entries(root):
        path = Path(e.path)
        if _is_dir(e):
            history = _history(path)
            if history:
                up = Upload(e.name, folder=history[-1], uploads=len(history),
                            original_names=[f"{e.name}/{history[-1].name}"])
            else:
                up = Upload(e.name, folder=path, original_names=[e.name])
        elif e.name.lower().endswith(".zip"):
            up = Upload(path.stem, archive=path, original_names=[e.name])
        elif e.name.lower().endswith(".py"):
            up = Upload(path.stem, files=[(path, entry or e.name)], original_names=[e.name])
        else:
            up = Upload(e.name, problem=f"{e.name} is not a login folder, a .zip or a .py file.")
        _merge(uploads, up, e.name)
    return [_check_id(u) for u in uploads.values()]


def read_folder(root: Path, notes: list[tuple[str, str]]) -> list[Upload]:
    uploads: dict[str, Upload] = {}
    for e in entries(root):
        path = Path(e.path)
        if _is_dir(e):
            up = Upload(e.name, folder=path, original_names=[e.name])
        elif e.name.lower().endswith(".zip"):
            up = Upload(path.stem, archive=path, original_names=[e.name])
        else:
            up = Upload(e.name, problem=f"{e.name} is neither a student's folder nor a .zip.")
        _merge(uploads, up, e.name)
    return [_check_id(u) for u in uploads.values()]


def read_uploads(root: Path, fmt: str, entry: str | None, notes: list[tuple[str, str]]) -> list[Upload]:
    """Every student's upload in a download folder of the given (already decided) format."""
    if fmt == "moodle":
        return read_moodle(root, notes)
    if fmt == "canvas":
        return read_canvas(root, notes)
    if fmt == "brute":
        return read_brute(root, notes, entry)
    if fmt == "folder":
        return read_folder(root, notes)
    raise FormatUnknown(f"unknown format {fmt!r}; use one of auto, {', '.join(FORMATS)}.")
