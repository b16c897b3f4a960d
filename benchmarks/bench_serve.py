"""The upload service under a class's deadline rush: 200 uploads from 200 accounts sent within 60 s
to a local `grader serve` (one worker per core), correct, broken and hostile players mixed.

Reports the time from upload to verdict (median, p95, max), the service's throughput against the same
validations run by `grader check` one after another (the ratio is the service's overhead, or its gain
from running one evaluation per core), and that no upload was lost or judged twice.
BENCH_SERVE_UPLOADS changes the count (default 200).
"""
from __future__ import annotations

import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = {
    "correct": (ROOT / "submissions" / "quoridor" / "alice" / "player.py").read_text(),
    "broken": (ROOT / "submissions" / "quoridor" / "no_crossing" / "player.py").read_text(),
}
# Hostile: the correct player that first tries to delete files, fork and reach the network (the sandbox
# refuses each; a player that loops forever would only measure the 30 s first-move allowance).
PLAYERS["hostile"] = textwrap.dedent("""
    import os, socket
    for attempt in (lambda: os.system("true"), lambda: os.fork() == 0 and os._exit(0), lambda: open("/tmp/owned", "w"),
                    lambda: socket.create_connection(("127.0.0.1", 22), 1)):
        try:
            attempt()
        except Exception:
            pass
    """) + PLAYERS["correct"]
UPLOADS = int(os.environ.get("BENCH_SERVE_UPLOADS", "200"))
SEND_WITHIN_S = 60.0


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def quoridor_course(folder: Path, serve: str) -> Path:
    """A course folder in `folder` with the quoridor assignment and the `serve:` section given (YAML
    flow mapping); its config's path."""
    (folder / "subs").mkdir()
    cfg = folder / "config.yaml"
    cfg.write_text(textwrap.dedent(f"""
        assignments:
          quoridor: {{ruleset: quoridor, submissions: subs}}
        serve: {serve}
        """))
    return cfg


@contextmanager
def running_service(cfg: Path, *options: str) -> Iterator[int]:
    """`grader serve` for `cfg` on a free port, once its login page answers; its port. Stopped at the end."""
    import httpx2

    port = _port()
    server = subprocess.Popen([sys.executable, "-m", "grader.cli", "--config", str(cfg), "serve", "--port",
                               str(port), *options], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                httpx2.get(f"http://127.0.0.1:{port}/login", timeout=1)
                break
            except httpx2.HTTPError:
                time.sleep(0.2)
        yield port
    finally:
        server.terminate()
        server.wait(10)


def _csrf(page: str) -> str:
    """The form's CSRF token; every page the benchmark posts from has one."""
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found is not None, "no CSRF token in the page"
    return found.group(1)


def _count(db, sql: str) -> int:
    """A COUNT(*) AS n query's number (such a query always returns one row)."""
    row = db.one(sql)
    assert row is not None
    return int(row["n"])


def _client(port: int, login: str, password: str):
    import httpx2

    c = httpx2.Client(base_url=f"http://127.0.0.1:{port}", timeout=60)
    token = _csrf(c.get("/login").text)
    c.post("/login", data={"login": login, "password": password, "csrf": token})
    return c


def _sequential_check_s(folder: Path, cfg: Path) -> float:
    """Seconds per upload for `grader check` run one after another on the same mix."""
    t0 = time.perf_counter()
    kinds = list(PLAYERS)
    for n in range(6):
        path = folder / f"check-{n}" / "player.py"
        path.parent.mkdir()
        path.write_text(PLAYERS[kinds[n % 3]])
        subprocess.run([sys.executable, "-m", "grader.cli", "--config", str(cfg), "check", str(path),
                        "--assignment", "quoridor"], capture_output=True)
    return (time.perf_counter() - t0) / 6


def run() -> tuple[str, list[dict]]:
    from grader.serve import accounts
    from grader.serve.db import Database

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        cfg = quoridor_course(tmp, "{data_dir: data, rate_limit: 5}")
        db = Database(f"sqlite:///{tmp / 'data' / 'grader.sqlite'}")
        for n in range(UPLOADS):
            accounts.create(db, f"s{n:03d}", f"Student {n}", password=f"password-{n:03d}")
        with running_service(cfg) as port:
            clients = [_client(port, f"s{n:03d}", f"password-{n:03d}") for n in range(UPLOADS)]
            sent: dict[str, tuple[float, str]] = {}
            refused = []
            kinds = list(PLAYERS)
            t_start = time.time()

            def send(n: int) -> None:
                time.sleep(max(0.0, t_start + SEND_WITHIN_S * n / UPLOADS - time.time()))
                c = clients[n]
                token = _csrf(c.get("/a/quoridor").text)
                r = c.post("/a/quoridor/upload", data={"csrf": token},
                           files={"file": ("player.py", PLAYERS[kinds[n % 3]].encode())})
                if r.status_code == 303:
                    sent[r.headers["location"].rsplit("/", 1)[1]] = (time.time(), kinds[n % 3])
                else:
                    refused.append(r.status_code)

            threads = [threading.Thread(target=send, args=(n,)) for n in range(UPLOADS)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            sending = time.time() - t_start
            while _count(db, "SELECT COUNT(*) AS n FROM uploads WHERE status IN ('queued', 'running')"):
                time.sleep(0.5)
            total = time.time() - t_start
            rows = db.query("SELECT * FROM uploads")
        latency = sorted(r["finished_at"] - r["uploaded_at"] for r in rows if r["finished_at"])
        per_check = _sequential_check_s(tmp, cfg)
    verdicts = {r["id"] for r in rows if r["status"] == "done"}
    lost = len(set(sent) - {r["id"] for r in rows})
    p95 = latency[int(0.95 * (len(latency) - 1))] if latency else float("nan")
    return "Upload service: a deadline rush", [{
        "uploads": f"{len(sent)} sent in {sending:.0f} s ({len(refused)} refused)",
        "verdicts": f"{len(verdicts)} (lost {lost}, evaluated again after a failure {sum(r['attempts'] > 1 for r in rows)})",
        "upload → verdict s (median / p95 / max)": f"{statistics.median(latency):.1f} / {p95:.1f} / {latency[-1]:.1f}",
        "service s per upload": f"{total / max(len(rows), 1):.2f}",
        "grader check s per upload, one after another": f"{per_check:.2f}",
        "ratio": f"{(total / max(len(rows), 1)) / per_check:.2f}",
    }]
