"""What a student can learn about classmates, and what other local accounts can read: the public
league site only, private files, names kept from real rosters, logins never shown to others; and what
a student sees: non-code uploads refused with a sentence, deadlines with their zone, links that work."""
from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOOD = ROOT / "submissions" / "quoridor" / "alice" / "player.py"


def league_output(service, tmp_path) -> Path:
    """A finished league's folders as `write_outputs` leaves them: the instructor's site (real names,
    logins, captured output) and the public one (pseudonyms)."""
    reports = tmp_path / "data" / "league" / "quoridor" / "reports"
    (reports / "public").mkdir(parents=True)
    (reports / "index.html").write_text('<html><body class="page-index">Alice Nováková alice@example.edu '
                                        'print: my secret debug</body></html>')
    (reports / "public" / "index.html").write_text('<html><body class="page-index">Quiet Fox, Brave Owl</body></html>')
    (reports / "results.json").write_text(json.dumps({
        "assignment": {"name": "quoridor"},
        "submissions": [{"id": "alice", "display_name": "Alice Nováková", "public_name": "Quiet Fox"},
                        {"id": "bob", "display_name": "Bob Svoboda", "public_name": "Brave Owl"}],
        "games": [{"seat0": "alice", "seat1": "bob", "seat0_name": "Alice Nováková", "seat1_name": "Bob Svoboda",
                   "points": [1, 0], "detail": "reached the goal"}]}))
    return reports


def test_a_student_gets_the_public_league_site_and_the_instructor_the_private_one(service, tmp_path):
    league_output(service, tmp_path)
    bob = service.site("bob", "bob-password")
    page = bob.client.get("/league/quoridor/index.html")
    assert page.status_code == 200 and "Quiet Fox" in page.text
    assert "Nováková" not in page.text and "alice@example.edu" not in page.text and "debug" not in page.text
    assert 'href="/a/quoridor"' in page.text                                 # a way back to the service
    assert bob.client.get("/teach/quoridor/site/index.html").status_code == 403
    games = bob.client.get("/a/quoridor").text
    assert "Quiet Fox" in games and "Nováková" not in games                  # the opponent by pseudonym
    teacher = service.site("teacher", "teacher-password")
    private = teacher.client.get("/teach/quoridor/site/index.html")
    assert private.status_code == 200 and "alice@example.edu" in private.text
    assert 'href="/teach/quoridor/site/index.html"' in teacher.client.get("/teach/quoridor").text


def test_the_data_folder_database_and_uploads_are_readable_by_the_service_only(service, tmp_path):
    alice = service.site("alice", "alice-password")
    r = alice.upload(GOOD)
    assert r.status_code == 303
    data = tmp_path / "data"
    row = service.database.one("SELECT path FROM uploads")
    paths = [data, data / "secret.key", Path(row["path"]), Path(row["path"]).parent, data / "uploads"]
    if not service.database.postgres:
        paths.append(Path(service.database.path))
    for path in paths:
        mode = stat.S_IMODE(os.stat(path).st_mode)
        assert mode & 0o077 == 0, f"{path} is {oct(mode)}"


def test_moodle_and_canvas_rosters_keep_names_and_e_mail_logins_are_never_shown_to_others(service, tmp_path):
    from grader.serve import accounts
    from grader.serve.worker import gather_league_submissions

    moodle = "First name,Last name,Email address\nCyril,Černý,cyril@example.edu\nDana,Dvořák,dana@example.edu\n"
    people = accounts.read_roster(moodle)
    assert [(p["login"], p["name"]) for p in people] == [("cyril@example.edu", "Cyril Černý"),
                                                         ("dana@example.edu", "Dana Dvořák")]
    surname = "First name;Surname;ID number;Email address;Roles\nEva;Malá;123;eva@example.edu;Non-editing teacher\n"
    assert accounts.read_roster(surname) == [{"login": "eva@example.edu", "name": "Eva Malá",
                                              "email": "eva@example.edu", "role": "instructor"}]
    canvas = ("Student,ID,SIS User ID,SIS Login ID,Section\n"
              "    Points Possible,,,,\nČerný, Cyril,17,S17,cerny,Class A\n").replace("Černý, Cyril", '"Černý, Cyril"')
    assert [(p["login"], p["name"]) for p in accounts.read_roster(canvas)] == [("cerny", "Černý, Cyril")]
    # An account whose login is an e-mail address and whose roster gave no name enters the league
    # under a name that is not the address.
    accounts.create(service.database, "nameless@example.edu", "", password="nameless-password")
    s = service.site("nameless@example.edu", "nameless-password")
    assert s.upload(GOOD).status_code == 303
    service.database.execute("UPDATE uploads SET status = 'done', passed = 1")
    a = service.app_.service.assignments["quoridor"]
    folder = tmp_path / "league-subs"
    gather_league_submissions(service.database, a, folder)
    meta = json.loads(next(folder.glob("*/.submission.json")).read_text())
    assert "@" not in meta["name"]


def test_an_upload_that_is_not_code_is_refused_with_a_sentence_and_not_counted(service):
    alice = service.site("alice", "alice-password")
    pdf = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj <<>> endobj\n"
    for name in ("homework.pdf", "player.py"):
        token = alice.csrf("/a/quoridor")
        r = alice.client.post("/a/quoridor/upload", data={"csrf": token}, files={"file": (name, pdf)})
        assert r.status_code == 415 and "source code" in r.text, r.text
    token = alice.csrf("/a/quoridor")
    r = alice.client.post("/a/quoridor/upload", data={"csrf": token}, files={"file": ("player.zip", b"not a zip")})
    assert r.status_code == 415 and "not a zip archive" in r.text
    assert service.database.query("SELECT * FROM uploads") == []
    assert alice.upload(GOOD).status_code == 303
    assert service.database.one("SELECT seq FROM uploads")["seq"] == 1           # refused ones were not counted


def test_the_deadline_is_shown_with_its_time_zone(make_config):
    from starlette.testclient import TestClient

    from grader.serve import accounts
    from grader.serve.app import create_app

    cfg = make_config(**{"upload_limit: 2,": 'deadline: "2030-01-15T23:59:00+01:00", upload_limit: 2,'})
    app = create_app(cfg)
    accounts.create(app.service.db, "alice", password="alice-password")
    client = TestClient(app)
    page = client.get("/login").text
    token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    client.post("/login", data={"login": "alice", "password": "alice-password", "csrf": token})
    for path in ("/", "/a/quoridor"):
        assert "2030-01-15 23:59 UTC+01:00" in client.get(path).text


def test_links_use_the_configured_public_address_and_tls_brings_hsts(make_config):
    from starlette.testclient import TestClient

    from grader.serve import accounts
    from grader.serve.app import create_app

    app = create_app(make_config("  public_url: https://grader.example.edu/\n"))
    accounts.create(app.service.db, "teacher", role="instructor", password="teacher-password")
    client = TestClient(app, base_url="https://127.0.0.1")
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)
    r = client.post("/login", data={"login": "teacher", "password": "teacher-password", "csrf": token})
    assert "strict-transport-security" in r.headers
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/teach/quoridor").text).group(1)
    r = client.post("/teach/quoridor/roster", data={"csrf": token}, files={"roster": ("r.csv", b"login\ncyril\n")})
    assert re.search(r"https://grader\.example\.edu/setup/[\w-]{16,}", r.text) and "127.0.0.1/setup" not in r.text


def test_forwarded_headers_are_believed_only_from_the_configured_proxy(make_config):
    from starlette.testclient import TestClient

    from grader.serve import accounts, throttle
    from grader.serve.app import create_app

    app = create_app(make_config("  proxy_addresses: [10.0.0.5]\n"))
    accounts.create(app.service.db, "teacher", role="instructor", password="teacher-password")
    forwarded = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https", "Host": "grader.example.edu"}

    def roster_link(client: TestClient) -> str:
        token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)
        client.post("/login", data={"login": "teacher", "password": "teacher-password", "csrf": token})
        token = re.search(r'name="csrf" value="([^"]+)"', client.get("/teach/quoridor").text).group(1)
        r = client.post("/teach/quoridor/roster", data={"csrf": token},
                        files={"roster": ("r.csv", f"login\nu{len(client.cookies)}{id(client)}\n".encode())})
        return re.search(r"<code>(\S+?)/setup/", r.text).group(1)

    proxy = TestClient(app, client=("10.0.0.5", 4000), headers=forwarded)
    assert roster_link(proxy) == "https://grader.example.edu"
    assert "strict-transport-security" in proxy.get("/login").headers
    stranger = TestClient(app, client=("198.51.100.7", 4000), headers=forwarded)
    assert roster_link(stranger) == "http://grader.example.edu"            # its own Host, never its https claim
    assert "strict-transport-security" not in stranger.get("/login").headers
    # Wrong passwords through the proxy count against the forwarded address, not the proxy's.
    for n in range(throttle.FREE_FAILURES["address"] + 2):
        token = re.search(r'name="csrf" value="([^"]+)"', proxy.get("/login").text).group(1)
        proxy.post("/login", data={"login": f"nobody{n}", "password": "wrong-password", "csrf": token})
    fresh = TestClient(app, client=("10.0.0.5", 4002), headers=forwarded)   # not a browser teacher signed in from
    token = re.search(r'name="csrf" value="([^"]+)"', fresh.get("/login").text).group(1)
    assert fresh.post("/login", data={"login": "teacher", "password": "teacher-password", "csrf": token}).status_code == 429
    other = TestClient(app, client=("10.0.0.5", 4001), headers={**forwarded, "X-Forwarded-For": "203.0.113.10"})
    assert roster_link(other) == "https://grader.example.edu"             # another student's address: not blocked
