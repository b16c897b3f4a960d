"""Practice matches during a deadline rush: BENCH_PRACTICE_UPLOADS uploads (default 50) from as many
accounts sent within 15 s to a local `grader serve` (one worker per core), while students ask for
practice matches (2 seat-swapped Quoridor games against the built-in `random`) every 2 s of the rush;
then the same matches on the idle server.

Reports each figure from the service's own stored times: request → result of a practice match
during the rush and on the idle server (and their ratio), of which the games themselves, and the
uploads' upload → verdict during the rush. Practice matches are claimed only when no upload waits
(grader/serve/practice.py), so during the rush a match waits for the queue to drain; the figure
that matters is how soon after that it is played.
"""
from __future__ import annotations

import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.bench_serve import PLAYERS, _client, _count, _csrf, quoridor_course, running_service

UPLOADS = int(os.environ.get("BENCH_PRACTICE_UPLOADS", "50"))
SEND_WITHIN_S = 15.0
ASK_EVERY_S = 2.0
PRACTISING = 4                 # students with a passing upload before the rush, each asking in turn


def _ask(client) -> int:
    token = _csrf(client.get("/a/quoridor/practice").text)
    r = client.post("/a/quoridor/practice/match", data={"csrf": token, "opponent": "builtin:random"})
    return r.status_code


def _wait_idle(db) -> None:
    while _count(db, "SELECT COUNT(*) AS n FROM uploads WHERE status IN ('queued', 'running')") or \
            _count(db, "SELECT COUNT(*) AS n FROM practice_matches WHERE status IN ('queued', 'running')"):
        time.sleep(0.5)


def _figures(rows: list[dict]) -> tuple[list[float], list[float]]:
    done = [r for r in rows if r["status"] == "done"]
    return (sorted(r["finished_at"] - r["requested_at"] for r in done),
            sorted(r["finished_at"] - r["started_at"] for r in done))


def run() -> tuple[str, list[dict]]:
    from grader.serve import accounts, practice, uploads
    from grader.serve.db import Database

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        cfg = quoridor_course(tmp, "{data_dir: data, rate_limit: 5, practice: {rate_limit: 100}}")
        db = Database(f"sqlite:///{tmp / 'data' / 'grader.sqlite'}")
        practice.create_tables(db)
        for n in range(UPLOADS):
            accounts.create(db, f"s{n:03d}", f"Student {n}", password=f"password-{n:03d}")
        for n in range(PRACTISING):             # a passing upload each, stored as the service stores one
            row = uploads.store(db, tmp / "data", n + 1, "quoridor", "player.py", PLAYERS["correct"].encode())
            db.execute("UPDATE uploads SET status = 'done', passed = 1, finished_at = ? WHERE id = ?",
                       (time.time(), row["id"]))
        with running_service(cfg) as port:
            clients = [_client(port, f"s{n:03d}", f"password-{n:03d}") for n in range(UPLOADS)]
            asked: list[int] = []
            kinds = list(PLAYERS)
            t_start = time.time()

            def send(n: int) -> None:
                time.sleep(max(0.0, t_start + SEND_WITHIN_S * n / UPLOADS - time.time()))
                c = clients[n]
                c.post("/a/quoridor/upload", data={"csrf": _csrf(c.get("/a/quoridor").text)},
                       files={"file": ("player.py", PLAYERS[kinds[n % 3]].encode())})

            def practise() -> None:
                for k in range(int(SEND_WITHIN_S / ASK_EVERY_S)):
                    time.sleep(max(0.0, t_start + k * ASK_EVERY_S - time.time()))
                    asked.append(_ask(clients[k % PRACTISING]))

            threads = [threading.Thread(target=send, args=(n,)) for n in range(UPLOADS)]
            threads.append(threading.Thread(target=practise))
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            _wait_idle(db)
            rush_end = time.time()
            rush = db.query("SELECT * FROM practice_matches")
            upload_rows = db.query("SELECT * FROM uploads WHERE finished_at > ?", (t_start,))
            for k in range(PRACTISING):         # the same matches, one at a time, on the idle server
                _ask(clients[k])
                _wait_idle(db)
            idle = db.query("SELECT * FROM practice_matches WHERE requested_at > ?", (rush_end,))
    rush_total, rush_play = _figures(rush)
    idle_total, _ = _figures(idle)
    last_verdict = max(r["finished_at"] for r in upload_rows)
    after_last = sorted(r["finished_at"] - last_verdict for r in rush if r["status"] == "done")
    latency = sorted(r["finished_at"] - r["uploaded_at"] for r in upload_rows)
    median = statistics.median
    return "Practice matches during a deadline rush", [{
        "uploads / matches asked": f"{len(upload_rows)} / {len(asked)} ({sum(s != 303 for s in asked)} refused)",
        "matches done (failed)": f"{len(rush_total)} ({sum(r['status'] == 'failed' for r in rush)})",
        "upload → verdict s (median / max)": f"{median(latency):.1f} / {latency[-1]:.1f}",
        "practice request → result s, rush (median / max)": f"{median(rush_total):.1f} / {rush_total[-1]:.1f}",
        "of which the games s (median)": f"{median(rush_play):.1f}",
        "result after the last upload verdict s (median / max)": f"{median(after_last):.1f} / {after_last[-1]:.1f}",
        "practice request → result s, idle (median)": f"{median(idle_total):.1f}",
        "ratio rush / idle": f"{median(rush_total) / median(idle_total):.1f}",
    }]
