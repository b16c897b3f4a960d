"""The upload service while four clients hammer the login: how long a static page and an upload's
acknowledgement take (median and 95th percentile), against the same requests on an idle service.

Why: a password hash costs tens of milliseconds of CPU; run on the event loop, four guessing clients
stalled every page for seconds. Now hashing runs in the thread pool and guesses past the limit are
refused without hashing, so pages and uploads should not notice. BENCH_SERVE_STORM_S sets how long
each phase lasts (default 20 s).
"""
from __future__ import annotations

import os
import re
import statistics
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.bench_serve import quoridor_course, running_service

ROOT = Path(__file__).resolve().parents[1]
PLAYER = (ROOT / "submissions" / "quoridor" / "alice" / "player.py").read_bytes()
PHASE_S = float(os.environ.get("BENCH_SERVE_STORM_S", "20"))
HAMMERS = 4


def _csrf(client, path: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get(path).text)
    if found is None:
        raise RuntimeError(f"no form on {path}: is the service up?")
    return found.group(1)


def _p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[int(q * (len(values) - 1))] * 1000 if values else float("nan")


def _measure(port: int, seconds: float) -> dict[str, list[float]]:
    """Static pages and upload acknowledgements, one client each, for `seconds`."""
    import httpx2

    times: dict[str, list[float]] = {"static": [], "upload": []}
    stop = time.time() + seconds

    def static() -> None:
        with httpx2.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as c:
            while time.time() < stop:
                t0 = time.perf_counter()
                c.get("/static/style.css").raise_for_status()
                times["static"].append(time.perf_counter() - t0)
                time.sleep(0.05)

    def upload() -> None:
        with httpx2.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as c:
            c.post("/login", data={"login": "uploader", "password": "uploader-password", "csrf": _csrf(c, "/login")})
            token = _csrf(c, "/a/quoridor")
            while time.time() < stop:
                t0 = time.perf_counter()
                r = c.post("/a/quoridor/upload", data={"csrf": token}, files={"file": ("player.py", PLAYER)})
                assert r.status_code == 303, r.text
                times["upload"].append(time.perf_counter() - t0)
                time.sleep(0.2)

    threads = [threading.Thread(target=static), threading.Thread(target=upload)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return times


def run():
    import httpx2

    from grader.serve import accounts
    from grader.serve.db import Database

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cfg = quoridor_course(folder, "{data_dir: data, rate_limit: 100000, workers: 1}")
        db = Database(f"sqlite:///{folder / 'data' / 'grader.sqlite'}")
        accounts.create(db, "uploader", password="uploader-password")
        for n in range(200):
            accounts.create(db, f"s{n:03d}", password=f"password-{n:03d}")
        attempts = {"sent": 0, "refused": 0}
        with running_service(cfg, "--workers", "1") as port:
            idle = _measure(port, PHASE_S)
            stop = threading.Event()

            def hammer(n: int) -> None:
                with httpx2.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as c:
                    k = 0
                    while not stop.is_set():
                        token = _csrf(c, "/login")
                        r = c.post("/login", data={"login": f"s{(n * 50 + k) % 200:03d}", "password": "wrong-guess",
                                                   "csrf": token})
                        attempts["sent"] += 1
                        attempts["refused"] += r.status_code == 429
                        k += 1

            hammers = [threading.Thread(target=hammer, args=(n,)) for n in range(HAMMERS)]
            for t in hammers:
                t.start()
            storm = _measure(port, PHASE_S)
            stop.set()
            for t in hammers:
                t.join()
    rows = []
    for name, phase in (("idle", idle), (f"{HAMMERS} clients hammering the login", storm)):
        rows.append({
            "service": name,
            "static page ms (median / p95)": f"{statistics.median(phase['static']) * 1000:.1f} / "
                                             f"{_p(phase['static'], 0.95):.1f}",
            "upload acknowledged ms (median / p95)": f"{statistics.median(phase['upload']) * 1000:.1f} / "
                                                     f"{_p(phase['upload'], 0.95):.1f}",
            "requests": f"{len(phase['static'])} static, {len(phase['upload'])} uploads",
            "wrong logins sent (refused by the limit)": "" if name == "idle" else
            f"{attempts['sent']} ({attempts['refused']})",
        })
    return "Upload service: pages and uploads while the login is hammered", rows
