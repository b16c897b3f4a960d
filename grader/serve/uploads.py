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
import time
from datetime import datetime
from pathlib import Path

from .db import Database

SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


class UploadRefused(ValueError):
    """Why an upload was not taken (one sentence, shown to the student)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def safe_filename(name: str, entry: str) -> str:
    """The uploaded file's own name, reduced to harmless characters (a zip, or the entry file)."""
    base = SAFE_NAME.sub("_", Path(name or "").name).strip("._") or entry
    if not base.lower().endswith(".zip") and Path(base).suffix != Path(entry).suffix:
        base = entry
    return base[:100]


def check_rate(db: Database, user_id: int, limit: int, window_s: float) -> None:
    since = time.time() - window_s
    recent = db.query("SELECT uploaded_at FROM uploads WHERE user_id = ? AND uploaded_at > ? ORDER BY uploaded_at",
                      (user_id, since))
    if len(recent) >= limit:
        wait = max(1, int(recent[0]["uploaded_at"] + window_s - time.time()) // 60 + 1)
        raise UploadRefused(f"You uploaded {len(recent)} times in the last {window_s / 60:g} minutes, the most "
                            f"allowed; try again in {wait} minute(s).", status=429)


def store(db: Database, data_dir: Path, user_id: int, assignment: str, filename: str, data: bytes) -> dict:
    """Write the upload durably and queue it; the row as stored."""
    upload_id = secrets.token_urlsafe(16)
    folder = data_dir / "uploads" / upload_id
    folder.mkdir(parents=True)
    path = folder / filename
    with open(path, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    for d in (folder, folder.parent):
        fd = os.open(d, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    now = time.time()
    with db.transaction() as tx:
        seq = tx.query("SELECT COUNT(*) AS n FROM uploads WHERE user_id = ? AND assignment = ?",
                       (user_id, assignment))[0]["n"] + 1
        tx.execute("INSERT INTO uploads (id, user_id, assignment, filename, path, sha256, size, uploaded_at, seq, "
                   "status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued')",
                   (upload_id, user_id, assignment, filename, str(path), hashlib.sha256(data).hexdigest(),
                    len(data), now, seq))
    return db.one("SELECT * FROM uploads WHERE id = ?", (upload_id,))


def of_user(db: Database, user_id: int, assignment: str) -> list[dict]:
    return db.query("SELECT * FROM uploads WHERE user_id = ? AND assignment = ? ORDER BY uploaded_at DESC",
                    (user_id, assignment))


def queue_position(db: Database, upload: dict) -> int:
    """How many uploads are ahead of this one (0: it is being evaluated or next)."""
    if upload["status"] != "queued":
        return 0
    return db.one("SELECT COUNT(*) AS n FROM uploads WHERE status IN ('queued', 'running') AND uploaded_at < ?",
                  (upload["uploaded_at"],))["n"]


def penalised(upload: dict, penalties: dict) -> dict:
    """The upload's points after BRUTE's upload-count and lateness penalties, from stored facts only."""
    from ..lms.penalties import apply_penalties

    if upload.get("points") is None:
        return {"points": None, "factor": 1.0, "lines": []}
    result = apply_penalties(upload["points"], uploads=upload["seq"],
                             uploaded_at=datetime.fromtimestamp(upload["uploaded_at"]), config=penalties)
    return {"points": result.points, "factor": result.factor, "lines": result.lines}


def rejudge(db: Database, assignment: str, upload_id: str | None = None) -> int:
    """Queue one upload (or every upload of an assignment) for evaluation again."""
    where, args = ("id = ?", (upload_id,)) if upload_id else ("assignment = ?", (assignment,))
    return db.execute(f"UPDATE uploads SET status = 'queued', attempts = 0, not_before = 0, lease_owner = NULL, "
                      f"lease_until = NULL WHERE {where} AND status IN ('done', 'grader_failed')", args)
