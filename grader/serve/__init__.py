"""`grader serve`: the upload service (BRUTE's experience on the grader's own code path).

Students upload and see the same verdict `grader check` prints within seconds; instructors see
everyone, rejudge, run the league and export grades. Modules: `db` (records and the job queue),
`accounts` (roster, set-password links, Argon2), `uploads` (durable storage, penalties, rate limit),
`worker` (evaluation processes), `app` (the Starlette pages). `serve()` starts the web server and
keeps the workers alive.
"""
from __future__ import annotations

import os
import secrets
import subprocess
import sys
import threading
import time
from pathlib import Path


def data_dir(config, base: Path) -> Path:
    """The service's folder, made (or kept) readable by the service's user only: it holds the
    uploaded code, the database of password hashes and the session key."""
    folder = (base / config.serve.data_dir).resolve()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    return folder


def database_url(config, base: Path) -> str:
    return config.serve.database_url or f"sqlite:///{data_dir(config, base) / 'grader.sqlite'}"


class ServeContext:
    """What the web app and every worker read from the config: the serve settings, the data folder,
    the assignments and the database."""

    def __init__(self, config_path: str | Path) -> None:
        from ..assignment import load_assignments
        from ..config import load_config
        from .db import Database

        self.config_path = Path(config_path)
        config, base = load_config(self.config_path)
        self.settings = config.serve
        self.data_dir = data_dir(config, base)
        self.assignments = load_assignments(self.config_path)
        self.db = Database(database_url(config, base))


def secret_key(folder: Path) -> str:
    """The session-signing key, made once and kept readable by this user only."""
    path = folder / "secret.key"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(48))
    return path.read_text().strip()


def die_with_parent() -> None:
    """A worker ends when the server that started it ends (kill -9 included); Linux only."""
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)    # PR_SET_PDEATHSIG
        if os.getppid() == 1:
            os._exit(1)


class Supervisor:
    """Keeps `count` worker processes running and queues the scheduled league runs."""

    def __init__(self, config_path: Path, count: int, db, every_hours: float | None, assignments) -> None:
        self.config_path, self.count, self.db = config_path, count, db
        self.every_hours, self.assignments = every_hours, assignments
        self.procs: list[subprocess.Popen] = []
        self._stop = threading.Event()

    def start(self) -> None:
        self.procs = [self._spawn() for _ in range(self.count)]
        threading.Thread(target=self._watch, daemon=True).start()

    def _spawn(self) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "grader.serve.worker", str(self.config_path)])

    def _watch(self) -> None:
        while not self._stop.wait(1.0):
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
        self._stop.set()
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()


def serve(config_path: Path, host: str | None = None, port: int | None = None, workers: int | None = None,
          echo=print) -> None:
    """Start the web server and the workers; on first start, make the demo instructor account."""
    import uvicorn

    from ..assignment import load_assignments
    from ..config import load_config
    from . import accounts
    from .app import create_app
    from .db import Database

    config, base = load_config(config_path)
    settings = config.serve
    db = Database(database_url(config, base))
    if not db.one("SELECT id FROM users WHERE role = 'instructor'"):
        password = secrets.token_urlsafe(12)
        accounts.create(db, "instructor", "Demo instructor", role="instructor", password=password)
        echo(f"Made the instructor account: login 'instructor', password '{password}' (shown once; "
             f"change it or add instructors through a roster).")
    count = workers or ((os.cpu_count() or 1) if settings.workers == "auto" else settings.workers)
    supervisor = Supervisor(Path(config_path).resolve(), count, db, settings.league_every_hours,
                            load_assignments(config_path))
    supervisor.start()
    echo(f"grader serve: http://{host or settings.host}:{port or settings.port}/ with {count} worker(s); "
         f"data in {data_dir(config, base)}")
    try:
        uvicorn.run(create_app(Path(config_path)), host=host or settings.host, port=port or settings.port,
                    log_level="warning", proxy_headers=False)
    finally:
        supervisor.stop()
