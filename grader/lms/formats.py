"""Reading a class download (Moodle, Canvas, Gradescope, BRUTE-style or a plain folder) into one `Upload` per student.

Nothing is copied here: this module only looks at names and decides which files belong to whom.
Upload times are never taken from the files: Moodle and Canvas write the download time into every
zip entry. Only what the LMS recorded counts (Gradescope's metadata here, a worksheet or export
through `roster.py`). The shapes understood (the sources are Moodle's
mod/assign/classes/downloader.php and Canvas's lib/content_zipper.rb):

- moodle: one folder per student and plugin `Full Name_<id>_assignsubmission_file/` (Moodle 4.1+;
  before 4.1 with a trailing `_`), or flat files `Full Name_<id>_assignsubmission_file_<filename>`.
  The id is Moodle's participant id (the worksheet's `Participant <id>`). Team submissions use the
  group instead: `Group name_<group id>_…`, and `Default group_…` (no id) for students in no group.
  Online-text entries (`…_assignsubmission_onlinetext/onlinetext.html`) are skipped with a note.
- canvas: flat files `lastfirst_<userid>_<attachment id>_<filename>`, `lastfirst_LATE_<userid>_…`
  for late ones, `anon_<anonymous id>_…` (and `LATE_anon_…`) when grading is anonymous, and
  `lastfirst_<userid>_text.html` / `_link.html` for text and URL entries (skipped with a note).
  Canvas numbers a file the student uploaded again (`player-1.py`); the suffix is removed only
  where Canvas said so (a submissions export giving the attachment's original name), where the
  name is the assignment's entry file, or where the student's code uses the unnumbered name; the
  import says so each time.
- gradescope: Gradescope's "Export Submissions": `submission_metadata.yml` (submitters' names,
  student ids, emails, upload times) and a folder `submission_<id>/` per submission.
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
from datetime import datetime
from pathlib import Path

import yaml

from ..archive import is_junk

FORMATS = ("moodle", "canvas", "gradescope", "brute", "folder")
MOODLE = re.compile(r"^(?P<name>.+?)(?:_(?P<id>\d+))?_assignsubmission_(?P<plugin>[a-z]+)(?:_(?P<rest>.*))?$")
_CANVAS_TAIL = r"_(?:(?P<entry>text|link)\.html|(?P<att>\d+)_(?P<file>.+))$"
CANVAS_ANON = re.compile(r"^(?:(?P<late>LATE|late)_)?(?P<id>anon_[A-Za-z0-9]+)" + _CANVAS_TAIL)
CANVAS_NAMED = re.compile(r"^(?P<name>.+?)_(?:(?P<late>LATE|late)_)?(?P<id>\d+)" + _CANVAS_TAIL)
CANVAS_COPY = re.compile(r"^(?P<stem>.+)-\d+(?P<ext>\.[^.]+)?$")
GRADESCOPE_METADATA = "submission_metadata.yml"
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
    uploaded_at: datetime | None = None         # only from the LMS's own record
    team: bool = False                          # a Moodle team submission (the id is the group's)
    attachments: dict[str, str] = field(default_factory=dict)    # Canvas: name given -> attachment id
    problem: str | None = None                  # refused before anything is copied

    def sources(self) -> list[Path]:
        return [p for p in (self.folder, self.archive) if p is not None] + [src for src, _ in self.files]


def entries(root: Path, skip: frozenset[str] = frozenset()) -> list[os.DirEntry]:
    """The download's top-level entries, junk, hidden files and `skip` (a record found beside them) left out."""
    return sorted((e for e in os.scandir(root) if not is_junk(e.name) and not e.name.startswith(".")
                   and e.name not in skip), key=lambda e: e.name)


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


def record_candidates(root: Path) -> list[Path]:
    """Top-level .csv/.json files that are no student's file by their name: maybe the LMS's record
    (a worksheet or gradebook the instructor saved beside the submissions)."""
    return [Path(e.path) for e in entries(root) if not _is_dir(e) and e.name.lower().endswith((".csv", ".json"))
            and not MOODLE.match(e.name) and not canvas_match(e.name)]


def canvas_match(name: str) -> re.Match | None:
    """A Canvas download name: anonymous (`[LATE_]anon_<id>_…`, tried first) or `lastfirst_[LATE_]<userid>_…`."""
    return CANVAS_ANON.match(name) or CANVAS_NAMED.match(name)


def detect(root: Path, skip: frozenset[str] = frozenset()) -> str:
    """The format of a download folder, or `FormatUnknown` with a sentence saying what did not fit."""
    found = entries(root, skip)
    if not found:
        raise FormatUnknown(f"{root.name or root} holds no submissions.")
    if any(e.name == GRADESCOPE_METADATA for e in found):
        return "gradescope"
    if all(MOODLE.match(e.name) for e in found):
        return "moodle"
    if all(not _is_dir(e) and canvas_match(e.name) for e in found):
        return "canvas"
    odd = [e.name for e in found if not (_is_dir(e) or e.name.lower().endswith((".zip", ".py")))]
    lms = [e.name for e in found if MOODLE.match(e.name) or (not _is_dir(e) and canvas_match(e.name))]
    if odd or lms:
        looks = "Moodle" if any(MOODLE.match(n) for n in lms) else "Canvas"
        example = next((e.name for e in found if not MOODLE.match(e.name) and not canvas_match(e.name)), None)
        if lms and example:
            raise FormatUnknown(
                f"{root.name or root} looks like a {looks} download, but {example} fits none of its names "
                f"(Moodle: Full Name_<id>_assignsubmission_file/, Canvas: name_<userid>_<attachment id>_<file>); "
                "remove it or pass --format.")
        example = odd[0] if odd else lms[0]
        raise FormatUnknown(
            f"could not tell the format of {root.name or root}: {example} fits none of Moodle "
            "(Name_<id>_assignsubmission_file/), Canvas (name_<userid>_<attachment id>_file), Gradescope "
            f"({GRADESCOPE_METADATA}), BRUTE (<login>/, <login>.zip, <login>.py) or a plain folder; pass --format.")
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
    have.attachments.update(up.attachments)
    if up.late:
        have.late = True


def read_moodle(root: Path, notes: list[tuple[str, str]], skip: frozenset[str] = frozenset()) -> list[Upload]:
    uploads: dict[str, Upload] = {}
    for e in entries(root, skip):
        m = MOODLE.match(e.name)
        if not m:
            uploads[e.name] = Upload(e.name, problem=f"{e.name} does not look like a Moodle submission "
                                                     "(Full Name_<id>_assignsubmission_file/).")
            continue
        name, plugin, rest = m["name"], m["plugin"], m["rest"]
        sid = m["id"] or name                    # no id: Moodle's "Default group" of a team assignment
        if plugin != "file":
            notes.append((sid, f"skipped {e.name}: only file submissions are imported, not {plugin}."))
            continue
        team = m["id"] is None
        if _is_dir(e) and not rest:
            _merge(uploads, Upload(sid, name, folder=Path(e.path), original_names=[e.name], team=team), e.name)
        elif not _is_dir(e) and rest:
            _merge(uploads, Upload(sid, name, files=[(Path(e.path), rest)], original_names=[e.name], team=team),
                   e.name)
        else:
            uploads.setdefault(sid, Upload(sid, name)).problem = f"{e.name} does not look like a Moodle submission."
    return [_check_id(u) for u in uploads.values()]


def _code_mentions(up: Upload, limit: int = 1 << 20) -> str:
    """The text of the student's .py files (each read up to `limit` bytes), to see which names it uses."""
    texts = []
    for src, name in up.files:
        if name.endswith(".py"):
            try:
                with open(src, "rb") as fh:
                    texts.append(fh.read(limit).decode("utf-8", errors="replace"))
            except OSError:
                pass
    return "\n".join(texts)


def restore_canvas_names(up: Upload, entry: str | None, originals: dict[str, str],
                         notes: list[tuple[str, str]]) -> None:
    """Undo Canvas's `-1`, `-2` suffixes where Canvas added them, each with a note: where its
    submissions export gives the attachment's uploaded name (`originals`: attachment id -> name),
    for the entry file (its name is fixed by the assignment), or where the student's own code
    refers to the name without the suffix and never to the numbered one. Other numbered names are
    kept as they are, with a note."""
    taken = {name for _, name in up.files}
    code = _code_mentions(up) if any(CANVAS_COPY.match(n) for n in taken) else ""
    restored = []
    for src, name in up.files:
        m = CANVAS_COPY.match(name)
        said = originals.get(up.attachments.get(name, ""))
        original = said if said and said != name else (m["stem"] + (m["ext"] or "") if m else None)
        why = ("as the Canvas submissions export names it" if said else
               "the assignment's entry file" if original and original == entry else
               f"the code refers to {original}" if original and original in code and name not in code else None)
        if original and original not in taken and why:
            notes.append((up.student_id, f"{name} renamed {original} ({why}; Canvas numbers a file uploaded again)."))
            taken.discard(name)
            taken.add(original)
            name = original
        elif m and not said:
            notes.append((up.student_id, (f"kept {name} as named: Canvas may have numbered a re-upload of "
                                         f"{m['stem'] + (m['ext'] or '')}, but nothing says so (its submissions "
                                         "export would).")))
        restored.append((src, name))
    up.files = restored


def read_canvas(root: Path, notes: list[tuple[str, str]], skip: frozenset[str] = frozenset()) -> list[Upload]:
    uploads: dict[str, Upload] = {}
    for e in entries(root, skip):
        m = canvas_match(e.name)
        if not m or _is_dir(e):
            uploads[e.name] = Upload(e.name, problem=f"{e.name} does not look like a Canvas submission "
                                                     "(lastfirst_<userid>_<attachment id>_<file>).")
            continue
        name, late, sid = m.groupdict().get("name"), bool(m["late"]), m["id"]
        if m["entry"]:
            notes.append((sid, f"skipped {e.name}: a {m['entry']} entry, not a file upload."))
            continue
        up = Upload(sid, name, files=[(Path(e.path), m["file"])], original_names=[e.name], late=late,
                    attachments={m["file"]: m["att"]})
        _merge(uploads, up, e.name)
    return [_check_id(u) for u in uploads.values()]


def read_gradescope(root: Path, notes: list[tuple[str, str]], skip: frozenset[str] = frozenset()) -> list[Upload]:
    """Gradescope's export: the submitters, ids and upload times come from submission_metadata.yml."""
    try:
        meta = yaml.safe_load((root / GRADESCOPE_METADATA).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise FormatUnknown(f"{GRADESCOPE_METADATA} cannot be read ({exc}).") from None
    if not isinstance(meta, dict):
        raise FormatUnknown(f"{GRADESCOPE_METADATA} does not list submissions.")
    uploads: dict[str, Upload] = {}
    for e in entries(root, skip):
        if e.name == GRADESCOPE_METADATA:
            continue
        info = meta.get(e.name)
        if not isinstance(info, dict) or not _is_dir(e):
            uploads[e.name] = Upload(e.name, problem=f"{e.name} is not a submission listed in {GRADESCOPE_METADATA}.")
            continue
        people = [p for p in info.get(":submitters") or info.get("submitters") or [] if isinstance(p, dict)]

        def who(p: dict) -> str:
            return str(p.get(":sid") or p.get("sid") or p.get(":email") or p.get("email") or "").strip()
        ids = [who(p) for p in people if who(p)]
        sid = ids[0] if ids else e.name
        created = info.get(":created_at") or info.get("created_at")
        up = Upload(sid, str(people[0].get(":name") or people[0].get("name") or "") or None if people else None,
                    folder=Path(e.path), original_names=[e.name], uploaded_at=_gradescope_time(created))
        if len(ids) > 1:
            notes.append((sid, f"a group submission; also submitted by {', '.join(ids[1:])} (graded under {sid})."))
        _merge(uploads, up, e.name)
    return [_check_id(u) for u in uploads.values()]


def _gradescope_time(value) -> datetime | None:
    """Gradescope writes `2026-11-20 14:03:00.123456000 +0100` (Ruby's Time)."""
    if isinstance(value, datetime):
        return value
    m = re.match(r"^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(?:\.\d+)?\s*(Z|UTC|[+-]\d\d:?\d\d)?$", str(value or "").strip())
    if not m:
        return None
    zone = m[3] or ""
    zone = "+00:00" if zone in ("Z", "UTC") else (zone[:3] + ":" + zone[-2:] if zone else "")
    return datetime.fromisoformat(f"{m[1]}T{m[2]}{zone}")


def read_brute(root: Path, notes: list[tuple[str, str]], entry: str | None, skip: frozenset[str] = frozenset()) -> list[Upload]:
    uploads: dict[str, Upload] = {}
    for e in entries(root, skip):
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


def read_folder(root: Path, notes: list[tuple[str, str]], skip: frozenset[str] = frozenset()) -> list[Upload]:
    uploads: dict[str, Upload] = {}
    for e in entries(root, skip):
        path = Path(e.path)
        if _is_dir(e):
            up = Upload(e.name, folder=path, original_names=[e.name])
        elif e.name.lower().endswith(".zip"):
            up = Upload(path.stem, archive=path, original_names=[e.name])
        else:
            up = Upload(e.name, problem=f"{e.name} is neither a student's folder nor a .zip.")
        _merge(uploads, up, e.name)
    return [_check_id(u) for u in uploads.values()]


def read_uploads(root: Path, fmt: str, entry: str | None, notes: list[tuple[str, str]],
                 skip: frozenset[str] = frozenset()) -> list[Upload]:
    """Every student's upload in a download folder of the given (already decided) format."""
    if fmt == "moodle":
        return read_moodle(root, notes, skip)
    if fmt == "canvas":
        return read_canvas(root, notes, skip)
    if fmt == "gradescope":
        return read_gradescope(root, notes, skip)
    if fmt == "brute":
        return read_brute(root, notes, entry, skip)
    if fmt == "folder":
        return read_folder(root, notes, skip)
    raise FormatUnknown(f"unknown format {fmt!r}; use one of auto, {', '.join(FORMATS)}.")
