"""Evaluation workers: take uploads (then league runs, then practice matches: practice.py) from the
queue, run exactly what `grader check` runs, store the verdict. `python -m grader.serve.worker CONFIG` runs one; `grader serve` keeps one
per core alive.

A failure of the grader itself (anything the validation code raises) is never the student's verdict:
the job goes back to the queue with a growing pause, and after MAX_ATTEMPTS it is marked
`grader_failed` for the instructor to rejudge, shown to the student as the grader's fault.
"""
from __future__ import annotations

import io
import json
import os
import shutil
import sys
import time
import traceback
import uuid
from pathlib import Path
from typing import IO, cast

from rich.console import Console

from .. import usecases
from ..check_report import verdict_text
from . import practice
from .context import ServeContext
from .db import Database
from .league_folder import folder_name as _folder_name
from .league_folder import league_assignment
from .lease import Lease
from .parent_death import die_with_parent

MAX_ATTEMPTS = 3
IDLE_S = 0.2




def evaluate(assignment, upload: dict) -> dict:
    """Check one upload as `grader check` does; the fields of its verdict."""
    outcome = usecases.check(assignment, Path(upload["path"]), sub_id=f"upload-{upload['id'][:8]}",
                             name=upload["filename"])
    sub, report = outcome.submission, outcome.report
    sub.source = Path(upload["filename"])          # the page names the student's file, not the server's path
    doc = report.to_json()
    return {"passed": int(bool(report.passed)), "points": report.points, "max_points": report.max_points,
            "verdict_text": verdict_text(assignment, sub, report), "verdict_json": json.dumps(doc),
            "grader_error": None}


class Worker(ServeContext):
    """One evaluation process: takes jobs from the queue until it is stopped."""

    def __init__(self, config_path: str | Path) -> None:
        super().__init__(config_path)
        self.swept = 0.0
        self.owner = f"{os.uname().nodename if hasattr(os, 'uname') else 'host'}:{os.getpid()}:{uuid.uuid4().hex[:8]}"

    def run_once(self) -> bool:
        """Do one job if there is one; True if one was done (or dropped)."""
        job = self.db.claim("uploads", self.owner, self.settings.lease_s)
        if job is not None:
            self._upload(job)
            return True
        job = self.db.claim("league_runs", self.owner, self.settings.lease_s)
        if job is not None:
            self._league(job)
            return True
        if time.time() - self.swept > practice.SWEEP_EVERY_S:
            practice.sweep(self.db, self.data_dir, self.settings)
            self.swept = time.time()
        job = practice.claim(self.db, self.owner, self.settings, self.settings.lease_s)   # only when no upload waits
        if job is not None:
            practice.play(self, job, self.owner)
            return True
        return False

    def run_forever(self) -> None:
        while True:
            if not self.run_once():
                time.sleep(IDLE_S)

    def _upload(self, job: dict) -> None:
        assignment = self.assignments.get(job["assignment"])
        with Lease(self.db, "uploads", job["id"], self.owner, self.settings.lease_s) as lease:
            if lease.lost:                 # taken over before the heartbeat started: the new owner does it
                return
            try:
                if assignment is None:
                    raise RuntimeError(f"the assignment {job['assignment']!r} is no longer in the config")
                fields = evaluate(assignment, job)
            except Exception as exc:       # the grader's own failure, never the student's verdict
                self._grader_failed("uploads", job, exc)
                return
        if not lease.lost:
            self.db.finish("uploads", job["id"], self.owner, status="done", finished_at=time.time(), **fields)

    def _grader_failed(self, table: str, job: dict, exc: Exception) -> None:
        why = f"{type(exc).__name__}: {exc}"
        print(f"grader serve: {table} job {job['id']} failed in the grader (attempt {job['attempts']}): {why}\n"
              f"{traceback.format_exc()}", file=sys.stderr)
        if job["attempts"] < MAX_ATTEMPTS:
            extra = {"not_before": time.time() + 2 ** job["attempts"]} if table == "uploads" else {}
            self.db.finish(table, job["id"], self.owner, status="queued", **extra,
                           **({"grader_error": why} if table == "uploads" else {"message": why}))
        else:
            self.db.finish(table, job["id"], self.owner, status="grader_failed", finished_at=time.time(),
                           **({"grader_error": why} if table == "uploads" else {"message": why}))

    # ------------------------------------------------------------------ league runs
    def _league(self, job: dict) -> None:
        assignment = self.assignments.get(job["assignment"])
        with Lease(self.db, "league_runs", job["id"], self.owner, self.settings.lease_s) as lease:
            if lease.lost:
                return
            try:
                if assignment is None:
                    raise RuntimeError(f"the assignment {job['assignment']!r} is no longer in the config")
                self.db.execute("UPDATE league_runs SET started_at = ? WHERE id = ?", (time.time(), job["id"]))
                summary = self._play_league(assignment, job)
            except Exception as exc:
                self._grader_failed("league_runs", job, exc)
                return
        if not lease.lost:
            self.db.finish("league_runs", job["id"], self.owner, status="done", finished_at=time.time(),
                           progress="done", message=summary)

    def _play_league(self, assignment, job: dict) -> str:
        league = league_assignment(assignment, self.data_dir)
        entered = gather_league_submissions(self.db, assignment, league.submissions_dir)
        progress = Console(file=cast(IO[str], _ProgressFile(self.db, job["id"])), width=100, color_system=None)
        progress.print(f"{entered} student(s) with a passing upload")
        return usecases.grade_league(league, console=progress).run.summary_line()


class _ProgressFile(io.TextIOBase):
    """A file whose last written line becomes the league run's progress."""

    def __init__(self, db: Database, run_id) -> None:
        self.db, self.run_id = db, run_id

    def write(self, text: str) -> int:
        line = text.strip().splitlines()[-1] if text.strip() else ""
        if line:
            self.db.execute("UPDATE league_runs SET progress = ? WHERE id = ?", (line[:300], self.run_id))
        return len(text)


def gather_league_submissions(db: Database, assignment, folder: Path) -> int:
    """Every student's latest passing upload, staged into `folder/<login>/` with its metadata."""
    rows = db.query("SELECT u.*, s.login, s.name AS student_name FROM uploads u JOIN users s ON s.id = u.user_id "
                    "WHERE u.assignment = ? AND u.status = 'done' AND u.passed = 1 ORDER BY u.uploaded_at",
                    (assignment.name,))
    latest = {row["login"]: row for row in rows}
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for login, row in sorted(latest.items()):
        sub = usecases.stage(assignment, Path(row["path"]))
        if sub.staged is None:
            continue
        target = folder / _folder_name(login)
        for path in sorted(sub.staged.rglob("*")):
            dest = target / path.relative_to(sub.staged)
            if path.is_dir():
                dest.mkdir(parents=True, exist_ok=True)
            else:
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, dest)
        target.mkdir(parents=True, exist_ok=True)
        (target / ".submission.json").write_text(json.dumps({        # a login may be an e-mail: never a name
            "name": row["student_name"] or f"student {row['user_id']}", "login": login, "uploads": row["seq"],
            "uploaded_at": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(row["uploaded_at"]))}))
    return len(latest)


def main(argv: list[str]) -> int:
    die_with_parent()
    Worker(argv[0]).run_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
