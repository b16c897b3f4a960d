"""The job queue under contention, on SQLite and PostgreSQL: several workers never get one job
twice, and a job whose evaluation hangs keeps its lease while its worker lives."""
from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOOD = ROOT / "submissions" / "quoridor" / "alice" / "player.py"
JOBS, WORKERS = 2000, 6


def test_several_workers_claiming_thousands_of_jobs_never_get_the_same_job_twice(tmp_path, db_url):
    from grader.serve.db import Database

    url = db_url or f"sqlite:///{tmp_path / 'queue.sqlite'}"
    db = Database(url)
    with db.transaction() as tx:
        for n in range(JOBS):
            tx.execute("INSERT INTO uploads (id, user_id, assignment, filename, path, sha256, size, uploaded_at, "
                       "seq, status) VALUES (?, 1, 'a', 'p.py', 'p', 'x', 1, ?, 1, 'queued')", (f"job{n}", n))
    claimed: list[list[str]] = [[] for _ in range(WORKERS)]
    start = threading.Barrier(WORKERS)

    def work(n: int) -> None:
        mine = Database(url)
        start.wait()
        while (job := mine.claim("uploads", f"worker-{n}", 3600)) is not None:
            claimed[n].append(job["id"])

    threads = [threading.Thread(target=work, args=(n,)) for n in range(WORKERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    every = [job for mine in claimed for job in mine]
    assert len(every) == len(set(every)) == JOBS, f"{len(every) - len(set(every))} job(s) claimed more than once"
    rows = db.query("SELECT lease_owner, attempts FROM uploads")
    assert all(r["attempts"] == 1 for r in rows)
    owners = {job: f"worker-{n}" for n, mine in enumerate(claimed) for job in mine}
    assert all(r["lease_owner"] for r in rows) and len({r["lease_owner"] for r in rows}) >= 1
    assert set(owners) == {f"job{n}" for n in range(JOBS)}


# A worker whose evaluation of an upload containing HANG never returns and never lets another
# thread of its process run: a regular expression that backtracks for ever holds the GIL.
HANGING_WORKER = """
import re, sys
from grader.serve import worker
real = worker.evaluate
def evaluate(assignment, upload, on_stage=None):
    if b"HANG" in open(upload["path"], "rb").read():
        re.match(r"(a+)+$", "a" * 64 + "b")
    return real(assignment, upload, on_stage)
worker.evaluate = evaluate
sys.exit(worker.main(sys.argv[1:]))
"""


def _wait(what, within: float = 300.0):
    deadline = time.time() + within
    while time.time() < deadline:
        value = what()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"waited {within:g} s in vain")


def test_a_hanging_evaluation_keeps_its_lease_and_a_later_upload_is_still_evaluated(make_config):
    from grader.serve import accounts
    from grader.serve.context import ServeContext
    from grader.serve.db import Database
    from grader.serve.uploads import store

    lease_s = 4.0
    cfg = make_config(**{"lease_s: 3": f"lease_s: {lease_s}"})
    context = ServeContext(cfg)
    db: Database = context.db
    alice = accounts.create(db, "alice", password="alice-password")
    bob = accounts.create(db, "bob", password="bob-password")
    assert alice and bob
    ids = {r["login"]: r["id"] for r in db.query("SELECT id, login FROM users")}
    hanging = store(db, context.data_dir, ids["alice"], "quoridor", "player.py",
                    GOOD.read_bytes() + b"\n# HANG\n")["id"]
    workers = []
    try:
        first = subprocess.Popen([sys.executable, "-c", HANGING_WORKER, str(cfg)], cwd=ROOT)
        workers.append(first)
        row = _wait(lambda: db.one("SELECT * FROM uploads WHERE id = ? AND status = 'running'", (hanging,)))
        owner = row["lease_owner"]
        workers.append(subprocess.Popen([sys.executable, "-c", HANGING_WORKER, str(cfg)], cwd=ROOT))
        later = store(db, context.data_dir, ids["bob"], "quoridor", "player.py", GOOD.read_bytes())["id"]
        done = _wait(lambda: db.one("SELECT * FROM uploads WHERE id = ? AND status = 'done'", (later,)))
        assert done["passed"] == 1
        # Several leases long, the first worker still holds the hanging job: nobody took it over.
        until = time.time() + 3 * lease_s
        while time.time() < until:
            row = db.one("SELECT * FROM uploads WHERE id = ?", (hanging,))
            assert row["status"] == "running" and row["lease_owner"] == owner and row["attempts"] == 1, row
            assert first.poll() is None
            time.sleep(0.5)
        # The first worker dies: its heartbeat dies with it, the lease runs out, the other worker takes over.
        first.kill()
        first.wait()
        row = _wait(lambda: db.one("SELECT * FROM uploads WHERE id = ? AND attempts = 2", (hanging,)))
        assert row["lease_owner"] != owner
    finally:
        for w in workers:
            w.kill()
            w.wait()


def test_a_students_second_upload_waits_behind_everyone_elses_first(tmp_path, db_url):
    """alice uploads three times, then bob and carol once each: the workers take alice's first,
    bob's, carol's, then alice's other two; each upload's queue position says so beforehand."""
    from grader.serve import accounts, uploads
    from grader.serve.db import Database

    url = db_url or f"sqlite:///{tmp_path / 'serve.sqlite'}"
    db = Database(url)
    ids = {}
    for login in ("alice", "bob", "carol"):
        accounts.create(db, login, login, password=f"{login}-password")
        ids[login] = db.query("SELECT id FROM users WHERE login = ?", (login,))[0]["id"]
    order = ["alice", "alice", "alice", "bob", "carol"]
    stored = [uploads.store(db, tmp_path, ids[login], "quoridor", "player.py", GOOD.read_bytes()) for login in order]
    positions = {row["id"]: uploads.queue_position(db, uploads.by_id(db, row["id"])) for row in stored}
    claimed = []
    while (job := db.claim("uploads", "worker", 3600)) is not None:
        claimed.append(job)
    by_user = {v: k for k, v in ids.items()}
    assert [by_user[job["user_id"]] for job in claimed] == ["alice", "bob", "carol", "alice", "alice"]
    assert [positions[job["id"]] for job in claimed] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("column, default", [("turn", 0), ("stage", "")])   # stage: an upload's page (issue 45.4)
def test_a_database_of_an_earlier_version_gets_the_new_columns(tmp_path, db_url, column, default):
    from grader.serve.db import Database

    url = db_url or f"sqlite:///{tmp_path / 'serve.sqlite'}"
    Database(url).execute(f"ALTER TABLE uploads DROP COLUMN {column}")
    db = Database(url)
    db.execute("INSERT INTO uploads (id, user_id, assignment, filename, path, sha256, size, uploaded_at, seq, status) "
               "VALUES ('x', 1, 'a', 'p.py', 'p', 'x', 1, 0, 1, 'queued')")
    assert db.claim("uploads", "worker", 60)[column] == default
