"""kill -9 of a worker mid-evaluation, and of the whole server, loses no acknowledged upload and
gives each exactly one verdict: `grader serve` run for real, driven over HTTP."""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import httpx2 as httpx
import psutil
import pytest

ROOT = Path(__file__).resolve().parents[2]
GOOD = ROOT / "submissions" / "quoridor" / "alice" / "player.py"
SLOW = GOOD.read_text().replace("class Player:", "import time\ntime.sleep(4)\n\n\nclass Player:", 1)


def alive(pids: list[int], within: float) -> list[int]:
    """The pids still running (not zombies) after waiting up to `within` seconds."""
    deadline = time.time() + within
    while True:
        running = []
        for pid in pids:
            try:
                if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                    running.append(pid)
            except psutil.NoSuchProcess:
                pass
        if not running or time.time() > deadline:
            return running
        time.sleep(0.2)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, cfg: Path, port: int) -> None:
        self.cfg, self.port = cfg, port
        self.log = cfg.parent / "serve.log"
        self.proc = None

    def start(self) -> Server:
        # Its output goes to a file: an unread pipe fills up and blocks whoever writes next.
        with open(self.log, "a") as log:
            self.proc = subprocess.Popen([sys.executable, "-m", "grader.cli", "--config", str(self.cfg), "serve",
                                          "--port", str(self.port), "--workers", "1"],
                                         stdout=log, stderr=subprocess.STDOUT, cwd=self.cfg.parent)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                httpx.get(f"http://127.0.0.1:{self.port}/login", timeout=1)
                return self
            except httpx.HTTPError:
                time.sleep(0.2)
        raise AssertionError("the server did not start")

    def workers(self) -> list[int]:
        """The worker processes: the server's own children."""
        return [p.pid for p in psutil.Process(self.proc.pid).children()]

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


def login(port: int, user: str, password: str) -> httpx.Client:
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)
    assert client.post("/login", data={"login": user, "password": password, "csrf": token}).status_code == 303
    return client


def upload(client: httpx.Client, text: str) -> str:
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/a/quoridor").text).group(1)
    r = client.post("/a/quoridor/upload", data={"csrf": token}, files={"file": ("player.py", text.encode())})
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


def wait_status(client: httpx.Client, uid: str, wanted: str, timeout: float = 90) -> dict:
    deadline = time.time() + timeout
    while time.time() < deadline:
        s = client.get(f"/uploads/{uid}/status").json()
        if s["status"] == wanted:
            return s
        time.sleep(0.2)
    raise AssertionError(f"upload {uid} never reached {wanted}")


def told(db, uid: str, server: Server) -> str:
    """What the student was told and the end of the server's output, for a failure message."""
    text = db.one("SELECT verdict_text FROM uploads WHERE id = ?", (uid,))["verdict_text"]
    return f"{text}\n--- server output ---\n{server.log.read_text()[-3000:]}"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="kill -9 and parent-death signals are Linux's")
def test_kill_9_of_a_worker_and_of_the_server_loses_nothing(tmp_path, db_url):
    from grader.serve import accounts
    from grader.serve.db import Database

    port = free_port()
    cfg = tmp_path / "config.yaml"
    (tmp_path / "subs").mkdir()
    cfg.write_text(textwrap.dedent("""
        assignments:
          quoridor: {ruleset: quoridor, submissions: subs, validation: {smoke_games: 1}}
        serve: {data_dir: data, lease_s: 3}
        """).replace("lease_s: 3}", f"lease_s: 3, database_url: '{db_url}'}}" if db_url else "lease_s: 3}"))
    db = Database(db_url or f"sqlite:///{tmp_path / 'data' / 'grader.sqlite'}")
    accounts.create(db, "alice", "Alice", password="alice-password")
    accounts.create(db, "teacher", "Teacher", role="instructor", password="teacher-password")
    server = Server(cfg, port).start()
    try:
        alice = login(port, "alice", "alice-password")
        slow = upload(alice, SLOW)
        wait_status(alice, slow, "running")
        [worker] = server.workers()
        os.kill(worker, signal.SIGKILL)                       # mid-evaluation
        verdict = wait_status(alice, slow, "done")
        assert verdict["passed"] == 1, told(db, slow, server)
        row = db.one("SELECT * FROM uploads WHERE id = ?", (slow,))
        assert row["attempts"] == 2 and row["status"] == "done"

        queued = upload(alice, SLOW)                           # acknowledged, then the server dies
        wait_status(alice, queued, "running")
        family = [p.pid for p in psutil.Process(server.proc.pid).children(recursive=True)]
        server.kill()
        assert not alive(family, within=10)                   # the workers (and their players) died with it
        server.start()
        alice = login(port, "alice", "alice-password")
        assert wait_status(alice, queued, "done")["passed"] == 1, told(db, queued, server)
        assert len(db.query("SELECT * FROM uploads")) == 2
        assert db.one("SELECT attempts FROM uploads WHERE id = ?", (queued,))["attempts"] == 2
    finally:
        if server.proc and server.proc.poll() is None:
            server.proc.terminate()
            server.proc.wait(10)
