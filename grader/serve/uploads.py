"""Uploads: stored durably before they are acknowledged, counted for BRUTE's penalties, rate-limited.

An upload is written to `<data_dir>/uploads/<id>/<file name>` and fsynced (file and folder), then
its row is committed; only then does the student get a link. Its id is 128 random bits, so one
student cannot guess another's. Times come from the server's clock only.
"""
from __future__ import annotations

import hashlib
import os
import re
import secrets
import shutil
import time
from datetime import datetime
from pathlib import Path

from ..penalties import apply_penalties
from .db import Database

SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")
NOT_SOURCE = (b"%PDF", b"\x89PNG", b"\xff\xd8\xff", b"\x7fELF", b"PK\x03\x04", b"\xd0\xcf\x11\xe0", b"\xca\xfe\xba\xbe",
              b"{\\rtf")      # PDF, PNG, JPEG, ELF, zip (docx), old Office, Java class, RTF; other binaries hold NULs


class UploadRefused(ValueError):
    """Why an upload was not taken (one sentence, shown to the student)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def accepted_suffixes(entry: str) -> list[str]:
    return [Path(entry).suffix.lower(), ".zip"]


def accepted_filename(name: str, entry: str, data: bytes) -> str:
    """The uploaded file's own name, reduced to harmless characters, if it is code: the entry file's
    kind of source (text) or a zip; anything else (a PDF, a picture, a binary) is refused with a sentence."""
    original = Path(name or "").name
    base = SAFE_NAME.sub("_", original).strip("._") or entry
    suffix = Path(base).suffix.lower()
    if suffix not in accepted_suffixes(entry):
        raise UploadRefused(f"{original or 'The file'} is not a {Path(entry).suffix} file or a .zip; upload your "
                            f"player's source code ({entry}, or a .zip of its folder).", status=415)
    if suffix == ".zip":
        if not data.startswith(b"PK"):
            raise UploadRefused(f"{original} is named .zip but is not a zip archive.", status=415)
    elif b"\0" in data or data.startswith(NOT_SOURCE):
        raise UploadRefused(f"{original} is not source code (it is not text); upload your player's "
                            f"{Path(entry).suffix} source, not a document, a picture or a compiled file.", status=415)
    return base[:100]


def check_rate(db: Database, user_id: int, limit: int, window_s: float) -> None:
    """UploadRefused (429) when the student used up the window's uploads: an early answer that spares
    reading the file; `store` decides for good, under the student's lock."""
    _within_rate(db, user_id, limit, window_s, time.time())


def _within_rate(db, user_id: int, limit: int, window_s: float, now: float) -> None:
    recent = db.query("SELECT uploaded_at FROM uploads WHERE user_id = ? AND uploaded_at > ? ORDER BY uploaded_at",
                      (user_id, now - window_s))
    if len(recent) >= limit:
        wait = max(1, int(recent[0]["uploaded_at"] + window_s - now) // 60 + 1)
        raise UploadRefused(f"You uploaded {len(recent)} times in the last {window_s / 60:g} minutes, the most "
                            f"allowed; try again in {wait} minute(s).", status=429)


def store(db: Database, data_dir: Path, user_id: int, assignment: str, filename: str, data: bytes,
          rate: tuple[int, float] | None = None) -> dict:
    """Write the upload durably and queue it; the row as stored. `rate` (most uploads, window in
    seconds): UploadRefused past it, the file removed. The number (`seq`) and the rate are decided in
    one transaction holding the student's lock (PostgreSQL: their users row FOR UPDATE; SQLite:
    BEGIN IMMEDIATE, one writer at a time), so simultaneous uploads get distinct numbers and never
    more than the limit is stored. Its `turn` (how many of the student's uploads are waiting) places
    it in the queue's fair order (db.claim)."""
    upload_id = secrets.token_urlsafe(16)
    folder = data_dir / "uploads" / upload_id
    folder.parent.mkdir(mode=0o700, exist_ok=True)
    folder.mkdir(mode=0o700)
    path = folder / filename
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    for d in (folder, folder.parent):
        fd = os.open(d, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    try:
        with db.transaction() as tx:
            if db.postgres:
                tx.query("SELECT id FROM users WHERE id = ? FOR UPDATE", (user_id,))
            now = time.time()
            if rate is not None:
                _within_rate(tx, user_id, *rate, now)
            seq = tx.query("SELECT COUNT(*) AS n FROM uploads WHERE user_id = ? AND assignment = ?",
                           (user_id, assignment))[0]["n"] + 1
            turn = tx.query("SELECT COUNT(*) AS n FROM uploads WHERE user_id = ? AND status IN ('queued', 'running')",
                            (user_id,))[0]["n"]
            tx.execute("INSERT INTO uploads (id, user_id, assignment, filename, path, sha256, size, uploaded_at, seq, "
                       "turn, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued')",
                       (upload_id, user_id, assignment, filename, str(path), hashlib.sha256(data).hexdigest(),
                        len(data), now, seq, turn))
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    row = by_id(db, upload_id)
    assert row is not None
    return row


def by_id(db: Database, upload_id: str) -> dict | None:
    return db.one("SELECT * FROM uploads WHERE id = ?", (upload_id,))


def grader_failed_count(db: Database, assignment: str) -> int:
    return db.query("SELECT COUNT(*) AS n FROM uploads WHERE assignment = ? AND status = 'grader_failed'",
                    (assignment,))[0]["n"]


def league_runs(db: Database, assignment: str, last: int = 5) -> list[dict]:
    return db.query("SELECT * FROM league_runs WHERE assignment = ? ORDER BY requested_at DESC LIMIT ?",
                    (assignment, last))


def queue_league_run(db: Database, assignment: str, user_id: int | None) -> bool:
    """Queue a league run unless one is queued or running; whether one was queued."""
    with db.transaction() as tx:
        if tx.query("SELECT id FROM league_runs WHERE assignment = ? AND status IN ('queued', 'running')",
                    (assignment,)):
            return False
        tx.insert("INSERT INTO league_runs (assignment, requested_by, status, requested_at) VALUES (?, ?, 'queued', ?)",
                  (assignment, user_id, time.time()))
    return True


def of_user(db: Database, user_id: int, assignment: str) -> list[dict]:
    return db.query("SELECT * FROM uploads WHERE user_id = ? AND assignment = ? ORDER BY uploaded_at DESC",
                    (user_id, assignment))


def queue_position(db: Database, upload: dict) -> int:
    """How many uploads are ahead of this one (0: it is being evaluated or next), in the queue's
    fair order (db.claim): by turn, then age."""
    if upload["status"] != "queued":
        return 0
    turn, at = upload["turn"], upload["uploaded_at"]
    return db.query("SELECT COUNT(*) AS n FROM uploads WHERE status = 'running' OR (status = 'queued' AND "
                    "(turn < ? OR (turn = ? AND uploaded_at < ?)))", (turn, turn, at))[0]["n"]


def penalised(upload: dict, penalties: dict) -> dict:
    """The upload's points after BRUTE's upload-count and lateness penalties, from stored facts only."""
    if upload.get("points") is None:
        return {"points": None, "factor": 1.0, "lines": []}
    uploaded_at = datetime.fromtimestamp(upload["uploaded_at"])
    deadline = penalties.get("deadline")
    if (isinstance(deadline, datetime) and deadline.tzinfo) or (isinstance(deadline, str) and _zoned(deadline)):
        uploaded_at = uploaded_at.astimezone()           # a deadline with a zone is compared as a moment
    result = apply_penalties(upload["points"], uploads=upload["seq"], uploaded_at=uploaded_at, config=penalties)
    return {"points": result.points, "factor": result.factor, "lines": result.lines}


def _zoned(text: str) -> bool:
    try:
        return datetime.fromisoformat(text).tzinfo is not None
    except ValueError:
        return False


def rejudge(db: Database, assignment: str, upload_id: str | None = None) -> int:
    """Queue one upload (or every upload of an assignment) for evaluation again."""
    where, args = ("id = ?", (upload_id,)) if upload_id else ("assignment = ?", (assignment,))
    return db.execute(f"UPDATE uploads SET status = 'queued', attempts = 0, not_before = 0, lease_owner = NULL, "
                      f"lease_until = NULL WHERE {where} AND status IN ('done', 'grader_failed')", args)
