"""Evaluation workers: take uploads (then league runs, then practice matches: practice.py) from the
queue, run exactly what `grader check` runs, store the verdict. `python -m grader.serve.worker CONFIG` runs one; `grader serve` keeps one
per core alive.

An upload's check runs in a forked child (upload_job.py) bounded by its stages' limits
(grader/job_bound.py): past the players' processor-time bound the student's player is stopped and
blamed in one sentence; past the wall backstop the machine was too slow, which is the grader's failure.

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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, cast

from rich.console import Console

from .. import usecases
from ..check_report import verdict_text
from ..job_bound import JobBound, check_bound
from . import practice
from .context import ServeContext
from .db import Database
from .league_folder import folder_name as _folder_name
from .league_folder import league_assignment
from .lease import Lease
from .parent_death import die_with_parent
from .upload_job import run_bounded

MAX_ATTEMPTS = 3
IDLE_S = 0.2




def evaluate(assignment, upload: dict, on_stage: Callable[[str], None] | None = None) -> dict:
    """Check one upload as `grader check` does; the fields of its verdict. `on_stage(title)`: told as
    each of the check's stages starts."""
    outcome = usecases.check(assignment, Path(upload["path"]), sub_id=f"upload-{upload['id'][:8]}",
                             name=upload["filename"], on_stage=on_stage)
    sub, report = outcome.submission, outcome.report
    doc = outcome.document
    sub.source = Path(upload["filename"])          # the page names the student's file, not the server's path
    return {"passed": int(bool(report.passed)), "points": report.points, "max_points": report.max_points,
            "verdict_text": verdict_text(assignment, sub, report), "verdict_json": json.dumps(doc),
            "grader_error": None}


class Worker(ServeContext):
    """One evaluation process: takes jobs from the queue until it is stopped."""

    def __init__(self, config_path: str | Path) -> None:
        super().__init__(config_path)
        self.swept = 0.0
        self.bounds: dict[str, JobBound] = {}
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
            if assignment is None:
                self._grader_failed("uploads", job, f"the assignment {job['assignment']!r} is no longer in the config")
                return
            try:
                bound = self._bound(assignment)
                end = run_bounded(lambda: evaluate(assignment, job, self._stage_writer(job)), bound)
            except Exception as exc:       # the bound or the fork failed: the grader's own failure
                self._grader_failed("uploads", job, exc)
                return
        if lease.lost:
            return
        stopped = usecases.job_stopped(assignment, bound, end.charged_s, end.wall_s)
        if stopped is not None and stopped.students:       # the player's own time: its verdict
            self.db.finish("uploads", job["id"], self.owner, status="done", finished_at=time.time(),
                           **_stopped_fields(assignment, job, stopped))
        elif stopped is not None or end.stopped:           # the machine's: the grader's fault, tried again
            self._grader_failed("uploads", job, stopped.sentence if stopped else "stopped at its bound")
        elif end.error is not None:                        # the grader's own failure, never the student's verdict
            self._grader_failed("uploads", job, end.error, end.trace)
        else:
            self.db.finish("uploads", job["id"], self.owner, status="done", finished_at=time.time(), **end.result)

    def _bound(self, assignment) -> JobBound:
        """The assignment's check bound, worked out once per worker (it draws the probes' positions)."""
        if assignment.name not in self.bounds:
            self.bounds[assignment.name] = check_bound(assignment)
        return self.bounds[assignment.name]

    def _stage_writer(self, job: dict) -> Callable[[str], None]:
        """What the evaluation (in its own process, with its own connection) calls as each stage starts:
        the upload's `stage`, for its page."""
        url = self.db.url
        owner = self.owner

        opened: list[Database] = []

        def write(title: str) -> None:
            if not opened:
                opened.append(Database(url, create=False))
            opened[0].execute("UPDATE uploads SET stage = ? WHERE id = ? AND lease_owner = ?", (title[:200], job["id"], owner))

        return write

    def _grader_failed(self, table: str, job: dict, exc: Exception | str, trace: str = "") -> None:
        why = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
        trace = trace or ("" if isinstance(exc, str) else traceback.format_exc())
        print(f"grader serve: {table} job {job['id']} failed in the grader (attempt {job['attempts']}): {why}\n"
              f"{trace}", file=sys.stderr)
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
        gathered = gather_league_submissions(self.db, assignment, league.submissions_dir)
        progress = Console(file=cast(IO[str], _ProgressFile(self.db, job["id"])), width=100, color_system=None)
        progress.print(f"{gathered.passing} student(s) with a passing upload, {gathered.failing} whose uploads all "
                       f"failed (listed with the reason, and in the grades)")
        return usecases.grade_league(league, console=progress, checked=gathered.verdicts).run.summary_line()


def _stopped_fields(assignment, job: dict, stopped: usecases.JobStopped) -> dict:
    """The verdict fields of an upload whose check was stopped at its bound by its player's own time."""
    sub = usecases.stage(assignment, Path(job["path"]), f"upload-{job['id'][:8]}")
    doc = usecases.stopped_document(assignment, sub, stopped)
    return {"passed": 0, "points": 0.0, "max_points": doc["max_points"], "verdict_text": stopped.sentence,
            "verdict_json": json.dumps(doc), "grader_error": None}


class _ProgressFile(io.TextIOBase):
    """A file whose last written line becomes the league run's progress."""

    def __init__(self, db: Database, run_id) -> None:
        self.db, self.run_id = db, run_id

    def write(self, text: str) -> int:
        line = text.strip().splitlines()[-1] if text.strip() else ""
        if line:
            self.db.execute("UPDATE league_runs SET progress = ? WHERE id = ?", (line[:300], self.run_id))
        return len(text)


@dataclass
class Gathered:
    """The uploads a league plays: how many pass and fail, and each one's verdict by league id."""

    passing: int
    failing: int
    verdicts: dict[str, dict]       # the verdict the student was shown: the league keeps it


def gather_league_submissions(db: Database, assignment, folder: Path) -> Gathered:
    """Every student's latest passing upload, or their latest upload when none passed, staged into
    `folder/<login>/` with its metadata: a student whose uploads all failed is in the league's
    results as failed validation, with the reason and the grade the policy gives, rather than
    missing from the grades an instructor exports."""
    rows = db.query("SELECT u.*, s.login, s.name AS student_name FROM uploads u JOIN users s ON s.id = u.user_id "
                    "WHERE u.assignment = ? AND u.status = 'done' ORDER BY u.passed, u.uploaded_at",
                    (assignment.name,))
    latest = {row["login"]: row for row in rows}          # a passing upload, sorted last, wins
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    verdicts: dict[str, dict] = {}
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
        if row["verdict_json"]:
            verdicts[target.name] = json.loads(row["verdict_json"])
        (target / ".submission.json").write_text(json.dumps({        # a login may be an e-mail: never a name
            "name": row["student_name"] or f"student {row['user_id']}", "login": login, "uploads": row["seq"],
            "uploaded_at": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(row["uploaded_at"]))}))
    passing = sum(1 for row in latest.values() if row["passed"])
    return Gathered(passing, len(latest) - passing, verdicts)


def main(argv: list[str]) -> int:
    die_with_parent()
    Worker(argv[0]).run_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
