"""The upload service under contention, on SQLite and PostgreSQL: simultaneous uploads of one
student get distinct numbers (the late penalty counts them) and never more than the rate limit is
stored, whatever the interleaving. Threads meet at a barrier; nothing here measures time."""
from __future__ import annotations

import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOOD = ROOT / "submissions" / "quoridor" / "alice" / "player.py"


def _together(n: int, fn) -> list:
    """Run fn(i) in n threads released at once; their results (or the exceptions they raised)."""
    start = threading.Barrier(n)
    out: list = [None] * n

    def run(i: int) -> None:
        start.wait()
        try:
            out[i] = fn(i)
        except Exception as exc:       # kept and returned: the test decides what each outcome means
            out[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def test_fifty_simultaneous_uploads_of_one_student_get_fifty_distinct_numbers(tmp_path, db_url):
    from grader.serve import accounts, uploads
    from grader.serve.db import Database

    url = db_url or f"sqlite:///{tmp_path / 'serve.sqlite'}"
    db = Database(url)
    accounts.create(db, "alice", "Alice", password="alice-password")
    alice = db.query("SELECT id FROM users WHERE login = 'alice'")[0]["id"]
    data = GOOD.read_bytes()
    rows = _together(50, lambda i: uploads.store(Database(url, create=False), tmp_path, alice, "quoridor",
                                                 "player.py", data))
    assert all(isinstance(r, dict) for r in rows), [r for r in rows if not isinstance(r, dict)][:1]
    assert sorted(r["seq"] for r in rows) == list(range(1, 51))
    assert sorted(r["seq"] for r in db.query("SELECT seq FROM uploads")) == list(range(1, 51))


def test_simultaneous_uploads_never_store_more_than_the_rate_limit(service):
    """rate_limit 5: twelve uploads at once from each of three students store exactly five each;
    every other one is refused with the rate sentence and leaves no file behind."""
    students = {"alice": "alice-password", "bob": "bob-password", "teacher": "teacher-password"}
    sites, tokens = [], []
    for login, password in students.items():
        signed_in = service.site(login, password)
        token = signed_in.csrf("/a/quoridor")
        for _ in range(12):                      # twelve browsers of one session (one password hash)
            site = service.site()
            site.client.cookies = signed_in.client.cookies
            sites.append((login, site))
            tokens.append(token)
    data = GOOD.read_bytes()

    def upload(i: int):
        return sites[i][1].client.post("/a/quoridor/upload", data={"csrf": tokens[i]},
                                       files={"file": ("player.py", data)}, follow_redirects=False)

    answers = _together(len(sites), upload)
    for login in students:
        mine = [answers[i] for i, (who, _) in enumerate(sites) if who == login]
        assert sorted(r.status_code for r in mine) == [303] * 5 + [429] * 7, login
        assert all("try again in" in r.text for r in mine if r.status_code == 429)
        stored = service.database.query("SELECT u.seq, u.path FROM uploads u JOIN users s ON s.id = u.user_id "
                                        "WHERE s.login = ?", (login,))
        assert sorted(r["seq"] for r in stored) == [1, 2, 3, 4, 5], login
    kept = {Path(r["path"]).parent.name for r in service.database.query("SELECT path FROM uploads")}
    on_disk = {p.name for p in (Path(service.config).parent / "data" / "uploads").iterdir()}
    assert on_disk == kept
