"""Practice matches in the upload service (grader/serve/practice.py), on SQLite and PostgreSQL: never
graded, never stuck, always behind uploads, as the course allows, rate-limited.

Queue order is tested through the claims themselves (which job a worker takes next), never by timing."""
from __future__ import annotations

import json
import re

from tests.serve.conftest import BROKEN, GOOD


def _form(site, path: str, data: dict, page: str):
    token = site.csrf(page)
    return site.client.post(path, data={"csrf": token, **data}, follow_redirects=False)


def _offer(site, on: bool = True):
    return _form(site, "/a/quoridor/practice/offer", {"on": "1" if on else "0"}, "/a/quoridor/practice")


def _ask(site, opponent: str):
    return _form(site, "/a/quoridor/practice/match", {"opponent": opponent}, "/a/quoridor/practice")


def _svc(service):
    return service.app_.service


def _uid(service, login: str) -> int:
    row = service.database.one("SELECT id FROM users WHERE login = ?", (login,))
    assert row is not None
    return row["id"]


def _pseudonym(service, login: str) -> str:
    from grader.serve import practice

    svc = _svc(service)
    return practice.public_names(svc.db, svc.assignments["quoridor"], svc.data_dir)[_uid(service, login)]


def _passing(service, login: str) -> dict:
    """A passing upload stored without evaluating it (the queue's tests need the row, not the check)."""
    from grader.serve import uploads

    svc = _svc(service)
    row = uploads.store(svc.db, svc.data_dir, _uid(service, login), "quoridor", "player.py", GOOD.read_bytes())
    svc.db.execute("UPDATE uploads SET status = 'done', passed = 1, points = 1, max_points = 1 WHERE id = ?",
                   (row["id"],))
    return row


def _match_id(response) -> str:
    assert response.status_code == 303, response.text
    found = re.fullmatch(r"/practice/([\w-]+)", response.headers["location"])
    assert found, response.headers["location"]
    return found.group(1)


def test_practice_never_changes_a_grade_or_the_standings(service):
    alice, bob = service.site("alice", "alice-password"), service.site("bob", "bob-password")
    teacher = service.site("teacher", "teacher-password")
    assert alice.upload(GOOD).status_code == 303 and bob.upload(GOOD).status_code == 303
    assert service.work() == 2
    assert _offer(bob).status_code == 303
    assert _form(teacher, "/teach/quoridor/league", {}, "/teach/quoridor").status_code == 303
    service.work()
    grades = teacher.client.get("/teach/quoridor/grades.csv").text
    standings = json.loads((_svc(service).league_folder("quoridor") / "results.json").read_text())
    verdicts = service.database.query("SELECT id, points, passed, status FROM uploads ORDER BY id")

    played = [_match_id(_ask(alice, _pseudonym(service, "bob"))), _match_id(_ask(alice, "builtin:random"))]
    assert service.work() == 2
    for match_id in played:
        page = alice.client.get(f"/practice/{match_id}").text
        assert 'id="result"' in page and "Game 2" in page, page
    assert f'value="{_pseudonym(service, "bob")}"' in alice.client.get("/a/quoridor/practice").text
    assert "Bob" not in alice.client.get(f"/practice/{played[0]}").text       # a pseudonym, never the name

    assert service.database.query("SELECT id, points, passed, status FROM uploads ORDER BY id") == verdicts
    assert _form(teacher, "/teach/quoridor/league", {}, "/teach/quoridor").status_code == 303
    service.work()
    again = json.loads((_svc(service).league_folder("quoridor") / "results.json").read_text())
    assert teacher.client.get("/teach/quoridor/grades.csv").text == grades
    assert len(again["games"]) == len(standings["games"])
    assert [(s["id"], s.get("rank"), s.get("score")) for s in again["submissions"]] == \
           [(s["id"], s.get("rank"), s.get("score")) for s in standings["submissions"]]


def test_a_withdrawn_or_never_passing_opponent_gives_a_sentence_not_a_hang(service):
    from grader.serve import practice

    alice, bob = service.site("alice", "alice-password"), service.site("bob", "bob-password")
    r = _ask(alice, "builtin:random")
    assert r.status_code == 409 and "no passing upload" in r.text
    assert alice.upload(GOOD).status_code == 303 and bob.upload(BROKEN).status_code == 303
    assert service.work() == 2
    assert _offer(bob).status_code == 303
    name = _pseudonym(service, "bob")
    assert f'value="{name}"' not in alice.client.get("/a/quoridor/practice").text   # never passed: not offered
    r = _ask(alice, name)
    assert r.status_code == 409 and "withdrew, or have no passing upload" in r.text

    _passing(service, "bob")
    match_id = _match_id(_ask(alice, name))
    assert _offer(bob, on=False).status_code == 303                             # withdrawn while it waits
    assert service.work() == 1
    row = practice.by_id(service.database, match_id)
    assert row is not None and row["status"] == "failed"
    assert f"{name} withdrew from practice" in alice.client.get(f"/practice/{match_id}").text

    # a match no worker took for too long, and one whose worker died every time, end with a sentence
    stale = _match_id(_ask(alice, "builtin:random"))
    dead = _match_id(_ask(alice, "builtin:random"))
    service.database.execute("UPDATE practice_matches SET requested_at = requested_at - 86000 WHERE id = ?", (stale,))
    service.database.execute("UPDATE practice_matches SET status = 'running', attempts = 3, lease_owner = 'gone', "
                             "lease_until = 1 WHERE id = ?", (dead,))
    assert "No worker was free for 30 minutes" in alice.client.get(f"/practice/{stale}").text
    status = alice.client.get(f"/practice/{dead}/status").json()
    assert status["status"] == "failed" and "failed to play this match 3 times" in status["reason"]
    assert service.work() == 0


def test_a_full_queue_gives_a_sentence(tmp_path, make_config):
    from grader.serve import accounts
    from grader.serve.app import create_app
    from tests.serve.conftest import Site

    app = create_app(make_config("  practice: {queue_max: 2}\n"))
    db = app.service.db
    sites = []
    for login in ("ann", "ben", "cat"):
        accounts.create(db, login, login, password=f"{login}-password")
        sites.append(Site(app))
        assert sites[-1].login(login, f"{login}-password").status_code == 303

    class Service:
        database, app_ = db, app

    for login in ("ann", "ben", "cat"):
        _passing(Service, login)
    assert _ask(sites[0], "builtin:random").status_code == 303
    assert _ask(sites[1], "builtin:random").status_code == 303
    r = _ask(sites[2], "builtin:random")
    assert r.status_code == 503 and "The practice queue is full (2 matches waiting)" in r.text
    assert db.one("SELECT COUNT(*) AS n FROM practice_matches")["n"] == 2


def test_every_upload_verdict_is_taken_before_any_practice_match_under_a_burst(service, monkeypatch, tmp_path):
    from grader import usecases
    from grader.serve import practice, uploads, worker

    log = tmp_path / "order"                   # an upload is evaluated in a process of its own (upload_job.py)
    log.write_text("")

    def taken(kind: str) -> None:
        with log.open("a") as f:
            f.write(kind + "\n")

    def evaluate(assignment, upload, on_stage=None):
        taken("upload")
        return {"passed": 1, "points": 1.0, "max_points": 1.0, "verdict_text": "", "verdict_json": "{}",
                "grader_error": None}

    def match(assignment, a, b, *, games, seed, names=(None, None)):
        taken("practice")
        raise usecases.Refused("not played in this test")

    monkeypatch.setattr(worker, "evaluate", evaluate)
    monkeypatch.setattr(usecases, "match", match)
    svc = _svc(service)
    alice = service.site("alice", "alice-password")
    _passing(service, "alice")
    practice_ids = [_match_id(_ask(alice, "builtin:random")) for _ in range(3)]   # asked first: older
    for n in range(12):
        uploads.store(svc.db, svc.data_dir, _uid(service, "bob" if n % 2 else "alice"), "quoridor", "player.py",
                      GOOD.read_bytes())
    w = worker.Worker(service.config)
    assert w.run_once()                               # an upload is taken first, although the matches are older
    assert log.read_text().split() == ["upload"]
    late = uploads.store(svc.db, svc.data_dir, _uid(service, "bob"), "quoridor", "player.py", GOOD.read_bytes())
    while w.run_once():
        pass
    order = log.read_text().split()
    assert order == ["upload"] * 13 + ["practice"] * 3, order
    assert uploads.by_id(svc.db, late["id"])["status"] == "done"
    assert all(practice.by_id(svc.db, m)["status"] == "failed" for m in practice_ids)

    # a match being played keeps the others waiting (serve.practice.running_max: 1): the other workers
    # stay free for uploads
    queued = _match_id(_ask(alice, "builtin:random"))
    other = _match_id(_ask(alice, "builtin:random"))
    first = practice.claim(svc.db, "worker-a", svc.settings, 60)
    assert first is not None and first["id"] == queued
    assert practice.claim(svc.db, "worker-b", svc.settings, 60) is None
    assert practice.by_id(svc.db, other)["status"] == "queued"


def test_practice_off_or_builtins_only_is_respected(service):
    from grader.serve import practice
    from grader.serve.app import create_app
    from grader.serve.worker import Worker
    from tests.serve.conftest import Site

    alice = service.site("alice", "alice-password")
    bob = service.site("bob", "bob-password")
    _passing(service, "alice")
    _passing(service, "bob")
    assert _offer(bob).status_code == 303
    name = _pseudonym(service, "bob")
    waiting = _match_id(_ask(alice, name))          # asked while classmates were allowed

    text = service.config.read_text()
    service.config.write_text(text.replace("  lease_s: 3\n", "  lease_s: 3\n  practice: {opponents: builtins}\n"))
    app = create_app(service.config)
    site = Site(app)
    assert site.login("alice", "alice-password").status_code == 303
    page = site.client.get("/a/quoridor/practice").text
    assert 'value="builtin:random"' in page and f'value="{name}"' not in page and "Offer my player" not in page
    r = _ask(site, name)
    assert r.status_code == 403 and "its own players only" in r.text
    assert _ask(site, "builtin:random").status_code == 303
    Worker(service.config).run_once()
    row = practice.by_id(service.database, waiting)
    assert row["status"] == "failed" and "its own players only" in row["reason"]

    service.config.write_text(text.replace("  lease_s: 3\n", "  lease_s: 3\n  practice: {opponents: 'off'}\n"))
    app = create_app(service.config)
    site = Site(app)
    assert site.login("alice", "alice-password").status_code == 303
    assert "turned practice off" in site.client.get("/a/quoridor/practice").text
    r = _ask(site, "builtin:random")
    assert r.status_code == 403 and "turned off" in r.text
    assert alice.client.get("/a/quoridor").status_code == 200


def test_practice_requests_are_rate_limited_per_student(service):
    from grader.serve.app import create_app
    from tests.serve.conftest import Site

    text = service.config.read_text()
    service.config.write_text(text.replace("  lease_s: 3\n", "  lease_s: 3\n  practice: {rate_limit: 2}\n"))

    app = create_app(service.config)
    sites = {}
    for login in ("alice", "bob"):
        _passing(service, login)
        sites[login] = Site(app)
        assert sites[login].login(login, f"{login}-password").status_code == 303
    assert _ask(sites["alice"], "builtin:random").status_code == 303
    assert _ask(sites["alice"], "builtin:random").status_code == 303
    r = _ask(sites["alice"], "builtin:random")
    assert r.status_code == 429 and "You asked for 2 practice matches in the last 60 minutes" in r.text
    assert _ask(sites["bob"], "builtin:random").status_code == 303          # per student, not per class


def test_a_match_replays_in_the_league_viewer_for_its_student_and_staff_only(service):
    from grader.report import read_shard
    from grader.serve import practice

    alice, bob = service.site("alice", "alice-password"), service.site("bob", "bob-password")
    teacher = service.site("teacher", "teacher-password")
    assert alice.upload(GOOD).status_code == 303 and service.work() == 1
    match_id = _match_id(_ask(alice, "builtin:random"))
    assert service.work() == 1
    played = practice.games(_svc(service).data_dir, match_id)
    page = alice.client.get(f"/practice/{match_id}").text
    links = re.findall(r'href="(/practice/[\w-]+/site/replay\.html)#([0-9a-f]{2})/([a-z0-9-]+)"', page)
    assert len(links) == len(played) == 2, page
    for (viewer, shard, key), game in zip(links, played):
        html = alice.client.get(viewer)
        assert html.status_code == 200 and 'src="static/viewer.js"' in html.text and 'src="static/board.js"' in html.text
        assert alice.client.get(f"/practice/{match_id}/site/static/board.js").status_code == 200
        records = read_shard(alice.client.get(f"/practice/{match_id}/site/games/{shard}.js").text)
        record = next(r for r in records if r["key"] == key)
        assert record["texts"] == game["moves"] and len(record["moves"]) == len(game["moves"]) > 0
        assert record["seats"][game["seat"]] == "you"
        assert teacher.client.get(viewer).status_code == 200
        for path in (viewer, f"/practice/{match_id}/site/games/{shard}.js"):     # another student: refused
            refused = bob.client.get(path)
            assert refused.status_code == 404 and "No such practice match" in refused.text


def test_a_courses_sparring_player_is_offered_and_played(service):
    """The config's `sparring` players are offered beside the built-ins and play like them; a name the
    course does not list is refused (issue 43: the course's public sparring players)."""
    from grader.serve import practice
    from grader.serve.app import create_app
    from grader.serve.worker import Worker
    from tests.serve.conftest import Site

    strong = service.config.parent / "sparring" / "strong"
    strong.mkdir(parents=True)
    (strong / "player.py").write_bytes(GOOD.read_bytes())
    text = service.config.read_text()
    service.config.write_text(text.replace("    penalties:", "    sparring: {strong: sparring/strong}\n    penalties:", 1))
    _passing(service, "alice")
    site = Site(create_app(service.config))
    assert site.login("alice", "alice-password").status_code == 303
    page = site.client.get("/a/quoridor/practice").text
    assert 'value="builtin:random"' in page and 'value="sparring:strong"' in page, page
    r = _ask(site, "sparring:nope")
    assert r.status_code == 404 and "no built-in or sparring player called nope" in r.text
    match_id = _match_id(_ask(site, "sparring:strong"))
    Worker(service.config).run_once()
    row = practice.by_id(service.database, match_id)
    assert row["status"] == "done", row
    assert "sparring player" in row["opponent_name"] and "Game 2" in site.client.get(f"/practice/{match_id}").text
