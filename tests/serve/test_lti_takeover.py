"""Attacks on who an LMS user is here: a site that registers itself as an LMS, and a second platform
that names a course member's e-mail with a staff role. Each ends in one sentence, with no session
and no account or role changed. The fake LMS of test_lti.py plays the instructor's real LMS; the
rogue is the same fake at another https origin, registered through LTI Dynamic Registration."""
from __future__ import annotations

import html
import re
import urllib.parse

import httpx
from joserfc.jwk import KeySet

from .test_lti import ISS, LEARNER, TEACHER, C, FakeLms, client, launch, signed_in
from .test_lti_registration import RegisteringLms

ROGUE = "https://rogue.example"
OTHER = "https://other-lms.example.edu"
REAL = (f"      - {{issuer: '{ISS}', client_id: grader-tool, auth_url: '{ISS}/auth', token_url: '{ISS}/token', "
        f"jwks_url: '{ISS}/jwks', deployment_ids: [dep-1], name: Test LMS}}\n")
SECOND = (f"      - {{issuer: '{OTHER}', client_id: other-client, auth_url: '{OTHER}/auth', "
          f"token_url: '{OTHER}/token', jwks_url: '{OTHER}/jwks', deployment_ids: [dep-2], name: Other LMS}}\n")


class RogueLms(RegisteringLms):
    """A site anyone could run: it describes itself as an LMS at ROGUE and registers the tool."""

    def handle(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/.well-known/openid-configuration":
            return httpx.Response(200, json={
                "issuer": ROGUE, "authorization_endpoint": f"{ROGUE}/auth", "token_endpoint": f"{ROGUE}/token",
                "jwks_uri": f"{ROGUE}/jwks", "registration_endpoint": f"{ROGUE}/register"})
        return super().handle(request)


def app_with(make_config, platforms: str, lms: FakeLms, rogue: FakeLms | None = None, extra: str = ""):
    from starlette.testclient import TestClient

    from grader.serve.app import create_app

    app = create_app(make_config(f"  lti:\n{extra}    platforms:\n{platforms}"))
    app.service.lti.transport = httpx.MockTransport(
        lambda r: rogue.handle(r) if rogue and r.url.host == "rogue.example" else lms.handle(r))
    keys = KeySet.import_key_set(TestClient(app).get("/lti/jwks").json())
    for fake in (lms, rogue):
        if fake:
            fake.tool_keys = keys
    return app


def launch_from(browser, lms: FakeLms, issuer: str, client_id: str, deployment: str, sub: str, email: str, roles):
    """A whole launch from the platform `issuer`: its login, then its signed ID token. The last answer."""
    r = browser.get("/lti/login", params={"iss": issuer, "login_hint": sub, "client_id": client_id},
                    follow_redirects=False)
    if r.status_code != 302:
        return r
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(r.headers["location"]).query))
    token = lms.id_token(query["nonce"], sub, roles, iss=issuer, aud=client_id, email=email,
                         **{C + "deployment_id": deployment})
    return browser.post("/lti/launch", data={"id_token": token, "state": query["state"]}, follow_redirects=False)


def accounts_and_sessions(db) -> tuple[list[tuple], int]:
    users = [(u["id"], u["login"], u["name"], u["email"], u["role"]) for u in db.query("SELECT * FROM users ORDER BY id")]
    return users, db.one("SELECT COUNT(*) AS n FROM sessions")["n"]


def refused_in_one_sentence(r) -> str:
    """The refusal page's sentence (a 400 page whose message is one sentence)."""
    assert r.status_code == 400, r.text
    found = re.search(r"</h2>\s*<p>(.*?)</p>", r.text, re.S)
    assert found, r.text
    said = html.unescape(found.group(1))
    assert said.count(". ") == 0 and said.endswith("."), said
    return said


def test_a_site_that_registers_itself_cannot_sign_in_as_the_instructor(make_config):
    lms, rogue = FakeLms(), RogueLms()
    app = app_with(make_config, REAL, lms, rogue, extra="    dynamic_registration: true\n")
    db = app.service.db
    assert launch(client(app), lms, sub="lms-terry", roles=TEACHER).status_code == 303     # the real instructor
    assert db.one("SELECT role FROM users WHERE login = 'terry@uni.example.edu'")["role"] == "instructor"
    before = accounts_and_sessions(db)

    r = client(app).get("/lti/register", params={"openid_configuration": f"{ROGUE}/.well-known/openid-configuration",
                                                 "registration_token": "t"})
    assert r.status_code == 200, r.text                      # kept, but waiting for the instructor
    attacker = client(app)
    r = launch_from(attacker, rogue, ROGUE, "dyn-client", "dep-7", "rogue-1", "terry@uni.example.edu", TEACHER)
    said = refused_in_one_sentence(r)
    assert "waits for the instructor's approval" in said, said
    assert not signed_in(attacker)
    assert accounts_and_sessions(db) == before


def test_an_approved_second_platform_still_cannot_take_over_an_account_by_email(make_config):
    """Even a platform the instructor let in (a careless click) is its own users' authority, not others'."""
    lms, rogue = FakeLms(), RogueLms()
    app = app_with(make_config, REAL, lms, rogue, extra="    dynamic_registration: true\n")
    db = app.service.db
    teacher = client(app)
    assert launch(teacher, lms, sub="lms-terry", roles=TEACHER).status_code == 303
    client(app).get("/lti/register", params={"openid_configuration": f"{ROGUE}/.well-known/openid-configuration"})
    page = teacher.get("/lti").text
    token = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    r = teacher.post("/lti/platforms/approve", data={"csrf": token, "issuer": ROGUE, "client_id": "dyn-client"},
                     follow_redirects=False)
    assert r.status_code == 303, r.text
    before = accounts_and_sessions(db)

    attacker = client(app)
    r = launch_from(attacker, rogue, ROGUE, "dyn-client", "dep-7", "rogue-1", "terry@uni.example.edu", TEACHER)
    said = refused_in_one_sentence(r)
    assert "terry@uni.example.edu" in said and "another LMS user" in said, said
    assert not signed_in(attacker)
    assert accounts_and_sessions(db) == before
    newcomer = client(app)                                   # its own new users still arrive, as what it says
    assert launch_from(newcomer, rogue, ROGUE, "dyn-client", "dep-7", "rogue-2", "zed@rogue.example",
                       LEARNER).status_code == 303


def test_a_student_claiming_instructor_from_a_second_platform_changes_nothing(make_config):
    lms = FakeLms()
    app = app_with(make_config, REAL + SECOND, lms)
    db = app.service.db
    assert launch(client(app), lms).status_code == 303                                     # alice, a student
    before = accounts_and_sessions(db)

    browser = client(app)
    r = launch_from(browser, lms, OTHER, "other-client", "dep-2", "other-alice", "alice@uni.example.edu", TEACHER)
    said = refused_in_one_sentence(r)
    assert "alice@uni.example.edu" in said and "another LMS user" in said, said
    assert not signed_in(browser)
    assert accounts_and_sessions(db) == before
    assert db.one("SELECT role FROM users WHERE login = 'alice@uni.example.edu'")["role"] == "student"


def test_a_roster_student_is_never_made_staff_by_a_launch(make_config):
    """An account the CSV roster made is linked by e-mail only with the role the roster gave it."""
    from grader.serve import accounts

    lms = FakeLms()
    app = app_with(make_config, REAL, lms)
    db = app.service.db
    accounts.create(db, "xbob01", "Bob (CSV)", email="bob@uni.example.edu")
    before = accounts_and_sessions(db)
    browser = client(app)
    said = refused_in_one_sentence(launch(browser, lms, sub="lms-bob", roles=TEACHER))
    assert "bob@uni.example.edu" in said and "student" in said, said
    assert not signed_in(browser) and accounts_and_sessions(db) == before
    assert launch(client(app), lms, sub="lms-bob", roles=LEARNER).status_code == 303       # as a student: linked
    assert [u["login"] for u in db.query("SELECT * FROM users")] == ["xbob01"]


def test_a_roster_line_naming_anothers_email_is_refused_and_the_rest_read(make_config):
    from .test_lti import instructor, post

    lms = FakeLms()
    app = app_with(make_config, REAL, lms)
    db = app.service.db
    teacher = instructor(app, lms)
    lms.members = [{"user_id": "lms-mallory", "name": "Mallory", "email": "terry@uni.example.edu", "roles": TEACHER},
                   {"user_id": "lms-alice", "name": "Alice", "email": "alice@uni.example.edu", "roles": LEARNER}]
    text = html.unescape(post(teacher, "/teach/quoridor/lti/roster"))
    assert "1 refused (The account for terry@uni.example.edu belongs to another LMS user" in text, text
    assert sorted((u["login"], u["name"], u["role"]) for u in db.query("SELECT * FROM users")) == [
        ("alice@uni.example.edu", "Alice", "student"), ("terry@uni.example.edu", "Terry Teacher", "instructor")]


def test_two_lms_users_adopting_one_account_at_the_same_moment_is_a_sentence(make_config, monkeypatch):
    """The second of two launches that both found the account unbound (each checked before the other
    bound it) is refused in one sentence, not an error page, and leaves the first one's link alone."""
    from grader.serve import accounts, lti_roster, lti_store

    db = app_with(make_config, REAL + SECOND, FakeLms()).service.db
    accounts.create(db, "carol", "Carol", "carol@uni.example.edu", password="carol-password")
    first = lti_store.Identity(ISS, "grader-tool", "dep-1", "carol-1")
    second = lti_store.Identity(OTHER, "other-client", "dep-2", "carol-2")
    lti_roster.account(db, first, "Carol", "carol@uni.example.edu", "student")
    monkeypatch.setattr(lti_store, "bound_to", lambda db, user_id: None)     # it looked before the first bound it
    try:
        lti_roster.account(db, second, "Carol", "carol@uni.example.edu", "student")
    except lti_roster.IdentityRefused as refused:
        assert "at the same moment" in str(refused) and "nothing was changed" in str(refused)
    else:
        raise AssertionError("the second LMS user was linked to an account already linked")
    rows = db.query("SELECT issuer, sub FROM lti_identities")
    assert rows == [{"issuer": ISS, "sub": "carol-1"}]
