"""`grader serve` itself: the web server, and the supervisor that keeps the workers alive and
queues the scheduled league runs."""
from __future__ import annotations

import os
import secrets
import subprocess
import sys
import threading
import time
from pathlib import Path

import uvicorn

from .. import usecases
from ..assignment import load_assignments, load_checked_config
from . import accounts
from .app import create_app
from .context import data_dir, database_url
from .db import Database


class Supervisor:
    """Keeps `count` worker processes running and queues the scheduled league runs."""

    def __init__(self, config_path: Path, count: int, db, every_hours: float | None, assignments) -> None:
        self.config_path, self.count, self.db = config_path, count, db
        self.every_hours, self.assignments = every_hours, assignments
        self.procs: list[subprocess.Popen] = []
        self.stop_event = threading.Event()

    def start(self) -> None:
        self.procs = [self._spawn() for _ in range(self.count)]
        threading.Thread(target=self._watch, daemon=True).start()

    def _spawn(self) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "grader.serve.worker", str(self.config_path)])

    def _watch(self) -> None:
        while not self.stop_event.wait(1.0):
            for n, proc in enumerate(self.procs):
                if proc.poll() is not None:
                    print(f"grader serve: worker {proc.pid} ended ({proc.returncode}); starting another.",
                          file=sys.stderr)
                    self.procs[n] = self._spawn()
            if self.every_hours:
                self._schedule()

    def _schedule(self) -> None:
        every_s = (self.every_hours or 0) * 3600
        for name in self.assignments:
            last = self.db.one("SELECT requested_at FROM league_runs WHERE assignment = ? ORDER BY requested_at "
                               "DESC LIMIT 1", (name,))
            if last is None or time.time() - last["requested_at"] > every_s:
                self.db.execute("INSERT INTO league_runs (assignment, status, requested_at) VALUES (?, 'queued', ?)",
                                (name, time.time()))

    def stop(self) -> None:
        self.stop_event.set()
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()


def first_instructor(db: Database, config_path: Path, echo=print) -> None:
    """On first start, an instructor account named from the course folder, its password said once."""
    if db.one("SELECT id FROM users WHERE role = 'instructor'"):
        return
    password = secrets.token_urlsafe(12)
    accounts.create(db, "instructor", usecases.first_instructor_name(config_path), role="instructor",
                    password=password)
    echo(f"Made the instructor account: login 'instructor', password '{password}' (shown once; "
         f"change it or add instructors through a roster).")


def serve(config_path: Path, host: str | None = None, port: int | None = None, workers: int | None = None,
          echo=print) -> None:
    """Start the web server and the workers; on first start, make the demo instructor account."""
    config, base = load_checked_config(config_path)
    settings = config.serve
    db = Database(database_url(config, base))
    first_instructor(db, Path(config_path), echo)
    count = workers or ((os.cpu_count() or 1) if settings.workers == "auto" else settings.workers)
    supervisor = Supervisor(Path(config_path).resolve(), count, db, settings.league_every_hours,
                            load_assignments(config_path))
    supervisor.start()
    echo(f"grader serve: http://{host or settings.host}:{port or settings.port}/ with {count} worker(s); "
         f"data in {data_dir(config, base)}")
    try:
        app = create_app(Path(config_path))
        tool, every = app.service.lti, settings.lti.send_every_minutes if settings.lti else None
        if tool is not None and every:
            threading.Thread(target=tool.keep_sending, args=(supervisor.stop_event, every * 60), daemon=True).start()
        uvicorn.run(app, host=host or settings.host, port=port or settings.port,
                    log_level="warning", proxy_headers=False)
    finally:
        supervisor.stop()
