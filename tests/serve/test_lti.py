"""The service as an LTI 1.3 tool, against a fake LMS that lives in this test: its own RSA key, its
JWKS, token, roster (NRPS) and gradebook (AGS) endpoints served through an httpx MockTransport, and
the browser's side of the launch driven through the test client. No network.

A valid launch signs the student in; a wrong audience, a replayed launch, an expired token, a token
signed with another key and an unknown deployment each get one sentence and no session. The roster
comes in with roles; grades go back once per decision into one gradebook column; a failing LMS
loses no grade."""
from __future__ import annotations

import json
import os
import time
import urllib.parse
import uuid

import httpx
import pytest
from joserfc import jwt
from joserfc.jwk import KeySet, RSAKey

ISS = "https://lms.example.edu"
CLIENT = "grader-tool"
LEARNER = ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"]
TEACHER = ["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"]
C = "https://purl.imsglobal.org/spec/lti/claim/"


class FakeLms:
    """An LTI 1.3 platform: signs launches, and answers the tool's token, roster and gradebook calls."""

    def __init__(self) -> None:
        self.key = RSAKey.generate_key(2048, parameters={"kid": "lms-1"})
        self.signing_key = self.key
        self.members: list[dict] = []
        self.lineitems: list[dict] = []
        self.scores: list[dict] = []
        self.made_lineitems = 0
        self.down = False                      # the gradebook answers 503
        self.strangers: set[str] = set()       # users the gradebook does not know (it answers 422)
        self.tool_keys: KeySet | None = None   # the tool's JWKS, to check its client assertions
        self.tokens_given = 0
        self.jwks_fetched = 0

    def id_token(self, nonce: str, sub: str = "lms-alice", roles=LEARNER, **changes) -> str:
        now = int(time.time())
        claims = {"iss": ISS, "aud": CLIENT, "sub": sub, "iat": now, "exp": now + 300, "nonce": nonce,
                  "name": {"lms-alice": "Alice Nováková", "lms-terry": "Terry Teacher"}.get(sub, sub),
                  "email": f"{sub.removeprefix('lms-')}@uni.example.edu",
                  C + "message_type": "LtiResourceLinkRequest", C + "version": "1.3.0",
                  C + "deployment_id": "dep-1", C + "roles": roles,
                  C + "target_link_uri": "http://testserver/a/quoridor",
                  C + "resource_link": {"id": "rl-1"}, C + "context": {"id": "course-7", "title": "AI 2026"},
                  "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": {
                      "lineitems": f"{ISS}/courses/7/lineitems",
                      "scope": ["https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
                                "https://purl.imsglobal.org/spec/lti-ags/scope/score"]},
                  "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": {
                      "context_memberships_url": f"{ISS}/courses/7/members", "service_versions": ["2.0"]}}
        claims.update(changes)
        return jwt.encode({"alg": "RS256", "kid": self.signing_key.kid}, claims, self.signing_key)

    def handle(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        if url.path == "/jwks":
            self.jwks_fetched += 1
            return httpx.Response(200, json={"keys": [self.key.as_dict(private=False)]})
        if url.path == "/token":
            form = dict(urllib.parse.parse_qsl(request.content.decode()))
            assert self.tool_keys is not None
            claims = jwt.decode(form["client_assertion"], self.tool_keys, algorithms=["RS256"]).claims
            assert claims["iss"] == claims["sub"] == CLIENT and claims["aud"] == f"{ISS}/token"
            assert form["grant_type"] == "client_credentials"
            self.tokens_given += 1
            return httpx.Response(200, json={"access_token": "tok", "token_type": "Bearer", "expires_in": 3600})
        assert request.headers.get("authorization") == "Bearer tok"
        if url.path == "/courses/7/members":
            page = int(url.params.get("page", "1"))
            half = (len(self.members) + 1) // 2
            members = self.members[:half] if page == 1 else self.members[half:]
            headers = {"link": f'<{ISS}/courses/7/members?page=2>; rel="next"'} if page == 1 else {}
            return httpx.Response(200, json={"id": "m", "context": {"id": "course-7"}, "members": members},
                                  headers=headers)
        if url.path == "/courses/7/lineitems" and request.method == "GET":
            wanted = url.params.get("resource_id")
            return httpx.Response(200, json=[li for li in self.lineitems if li.get("resourceId") == wanted])
        if url.path == "/courses/7/lineitems" and request.method == "POST":
            item = {**json.loads(request.content), "id": f"{ISS}/courses/7/lineitems/{len(self.lineitems) + 1}"}
            self.lineitems.append(item)
            self.made_lineitems += 1
            return httpx.Response(201, json=item)
        if url.path.endswith("/scores") and request.method == "POST":
            if self.down:
                return httpx.Response(503, text="Service Unavailable")
            assert request.headers["content-type"] == "application/vnd.ims.lis.v1.score+json"
            if json.loads(request.content)["userId"] in self.strangers:
                return httpx.Response(422, json={"error": "User not found in course or is not a student"})
            self.scores.append({**json.loads(request.content), "lineitem": url.path.removesuffix("/scores")})
            return httpx.Response(200)
        return httpx.Response(404)


@pytest.fixture
def lms():
    return FakeLms()


@pytest.fixture
def tool(make_config, lms):
    """The service with the fake LMS registered, its LTI calls going to the fake."""
    from starlette.testclient import TestClient

    from grader.serve.app import create_app

    app = create_app(make_config(
        f"  lti:\n    platforms:\n      - {{issuer: '{ISS}', client_id: {CLIENT}, auth_url: '{ISS}/auth', "
        f"token_url: '{ISS}/token', jwks_url: '{ISS}/jwks', deployment_ids: [dep-1], name: Test LMS}}\n"))
    app.service.lti.transport = httpx.MockTransport(lms.handle)
    lms.tool_keys = KeySet.import_key_set(TestClient(app).get("/lti/jwks").json())
    return app


def client(app):
    from starlette.testclient import TestClient

    return TestClient(app, base_url="http://testserver")


def begin(browser) -> dict:
    """The LMS starts a login; the tool's redirect to the LMS, as its query."""
    r = browser.get("/lti/login", params={"iss": ISS, "login_hint": "x", "target_link_uri": "http://testserver/a/quoridor",
                                          "client_id": CLIENT, "lti_deployment_id": "dep-1"}, follow_redirects=False)
    assert r.status_code == 302, r.text
    assert r.headers["location"].startswith(f"{ISS}/auth?")
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(r.headers["location"]).query))
    assert query["redirect_uri"] == "http://testserver/lti/launch" and query["response_mode"] == "form_post"
    return query


def launch(browser, lms: FakeLms, sub: str = "lms-alice", roles=LEARNER, **changes):
    query = begin(browser)
    token = lms.id_token(query["nonce"], sub, roles, **changes)
    return browser.post("/lti/launch", data={"id_token": token, "state": query["state"]}, follow_redirects=False)


def signed_in(browser) -> bool:
    return browser.get("/", follow_redirects=False).status_code == 200


def test_a_valid_launch_signs_the_student_in_to_the_assignment(tool, lms):
    browser = client(tool)
    r = launch(browser, lms)
    assert r.status_code == 303 and r.headers["location"] == "/a/quoridor"
    page = browser.get("/a/quoridor")
    assert page.status_code == 200 and "Alice Nováková" in page.text
    user = tool.service.db.one("SELECT * FROM users WHERE login = 'alice@uni.example.edu'")
    assert user["role"] == "student"
    assert launch(client(tool), lms).status_code == 303          # a second visit: the same account, not a new one
    assert len(tool.service.db.query("SELECT * FROM users")) == 1


@pytest.mark.parametrize("case, changes, sentence", [
    ("wrong audience", {"aud": "another-tool"}, "meant for another tool"),
    ("expired", {"exp": int(time.time()) - 3600, "iat": int(time.time()) - 3900}, "has expired"),
    ("unknown deployment", {C + "deployment_id": "dep-9"}, "deployment of this tool (dep-9)"),
    ("wrong message type", {C + "message_type": "LtiSubmissionReviewRequest"}, "deep linking launches only"),
])
def test_a_bad_launch_gets_a_sentence_and_no_session(tool, lms, case, changes, sentence):
    browser = client(tool)
    r = launch(browser, lms, **changes)
    assert r.status_code == 400 and sentence in r.text, case
    assert not signed_in(browser)
    assert tool.service.db.query("SELECT * FROM users") == []


def test_a_launch_signed_with_another_key_opens_nothing(tool, lms):
    lms.signing_key = RSAKey.generate_key(2048, parameters={"kid": "lms-1"})
    browser = client(tool)
    r = launch(browser, lms)
    assert r.status_code == 400 and "signature does not match" in r.text
    assert not signed_in(browser) and tool.service.db.query("SELECT * FROM users") == []


def test_the_lms_keys_are_kept_and_fetched_again_once_for_a_new_key_id(tool, lms):
    assert launch(client(tool), lms).status_code == 303
    assert launch(client(tool), lms, sub="lms-bob").status_code == 303
    assert lms.jwks_fetched == 1                               # kept, not fetched for every launch
    lms.signing_key = RSAKey.generate_key(2048, parameters={"kid": "lms-2"})     # a key the JWKS does not list
    browser = client(tool)
    r = launch(browser, lms)
    assert r.status_code == 400 and "signature does not match" in r.text and not signed_in(browser)
    assert lms.jwks_fetched == 2                               # one more look for the new key id, no more


def test_a_replayed_launch_opens_nothing(tool, lms):
    first = client(tool)
    query = begin(first)
    form = {"id_token": lms.id_token(query["nonce"]), "state": query["state"]}
    assert first.post("/lti/launch", data=form, follow_redirects=False).status_code == 303
    thief = client(tool)
    r = thief.post("/lti/launch", data=form, follow_redirects=False)
    assert r.status_code == 400 and "used already" in r.text
    assert not signed_in(thief)
    # the same token with a fresh login's state: its nonce is not that login's
    again = begin(thief)
    r = thief.post("/lti/launch", data={"id_token": form["id_token"], "state": again["state"]}, follow_redirects=False)
    assert r.status_code == 400 and "nonce" in r.text and not signed_in(thief)


def test_an_unregistered_lms_cannot_start_a_login(tool):
    r = client(tool).get("/lti/login", params={"iss": "https://evil.example", "login_hint": "x"},
                         follow_redirects=False)
    assert r.status_code == 400 and "not registered" in r.text


def test_the_registration_page_and_the_key_the_admin_needs(tool):
    page = client(tool).get("/lti")
    assert page.status_code == 200
    for url in ("/lti/login", "/lti/launch", "/lti/jwks", "/a/quoridor"):
        assert f"http://testserver{url}" in page.text
    assert "BEGIN PUBLIC KEY" in page.text and "PRIVATE" not in page.text
    key_file = tool.service.data_dir / "lti.key"
    assert oct(os.stat(key_file).st_mode & 0o777) == "0o600"
    jwks = client(tool).get("/lti/jwks").json()
    assert jwks["keys"][0]["kty"] == "RSA" and "d" not in jwks["keys"][0]


def instructor(tool, lms):
    browser = client(tool)
    assert launch(browser, lms, sub="lms-terry", roles=TEACHER).status_code == 303
    return browser


def post(browser, path: str):
    token = browser.get("/teach/quoridor/lti").text.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    r = browser.post(path, data={"csrf": token}, follow_redirects=True)
    assert r.status_code == 200, r.text
    return r.text


def test_the_roster_comes_from_the_lms_with_roles_and_stays_one_account_each(tool, lms):
    from grader.serve import accounts

    db = tool.service.db
    accounts.create(db, "xbob01", "Bob (CSV)", email="bob@uni.example.edu")      # from the old CSV roster
    lms.members = [
        {"user_id": "lms-alice", "name": "Alice Nováková", "email": "alice@uni.example.edu", "roles": ["Learner"],
         "status": "Active"},
        {"user_id": "lms-bob", "name": "Bob Svoboda", "email": "bob@uni.example.edu", "roles": LEARNER},
        {"user_id": "lms-tara", "name": "Tara Assistant", "email": "tara@uni.example.edu",
         "roles": ["http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"]},
        {"user_id": "lms-gone", "name": "Dropped", "email": "gone@uni.example.edu", "roles": LEARNER,
         "status": "Inactive"},
    ]
    teacher = instructor(tool, lms)
    text = post(teacher, "/teach/quoridor/lti/roster")
    assert "2 student(s) and 1 staff member(s)" in text and "1 inactive" in text
    role = {u["login"]: u["role"] for u in db.query("SELECT * FROM users")}
    assert role == {"alice@uni.example.edu": "student", "xbob01": "student", "tara@uni.example.edu": "instructor",
                    "terry@uni.example.edu": "instructor"}
    assert accounts.by_login(db, "xbob01")["name"] == "Bob Svoboda"
    lms.members[0]["roles"] = TEACHER                 # promoted in the LMS: promoted here on the next sync
    post(teacher, "/teach/quoridor/lti/roster")
    assert accounts.by_login(db, "alice@uni.example.edu")["role"] == "instructor"
    assert len(db.query("SELECT * FROM users")) == 4


def graded(db, login: str, seq: int, points: float) -> str:
    """A done upload of `login` with `points` of 3, as a worker would leave it."""
    user = db.one("SELECT id FROM users WHERE login = ?", (login,))
    doc = {"passed": True, "points": points, "max_points": 3.0, "kind": "python", "games": [], "checks": [
        {"name": "interface", "title": "Interface", "passed": True, "required": True, "max_points": 0, "points": 0},
        {"name": "probes", "title": "Probe positions", "passed": points == 3, "required": False,
         "max_points": 3, "points": points}]}
    upload_id = uuid.uuid4().hex
    db.execute("INSERT INTO uploads (id, user_id, assignment, filename, path, sha256, size, uploaded_at, seq, status, "
               "passed, points, max_points, verdict_text, verdict_json) VALUES (?, ?, 'quoridor', 'player.py', '/x', "
               "'0', 1, ?, ?, 'done', 1, ?, 3, '', ?)", (upload_id, user["id"], time.time() - 100 + seq, seq, points,
                                                       json.dumps(doc)))
    return upload_id


def test_grades_go_back_once_per_decision_into_one_column(tool, lms):
    db = tool.service.db
    launch(client(tool), lms)                                   # alice opens the activity once
    teacher = instructor(tool, lms)
    graded(db, "alice@uni.example.edu", 1, 1.0)
    text = post(teacher, "/teach/quoridor/lti/grades")
    assert "1 grade(s) sent" in text
    assert lms.made_lineitems == 1 and lms.lineitems[0]["resourceId"] == "quoridor"
    assert [(s["userId"], s["scoreGiven"], s["scoreMaximum"]) for s in lms.scores] == [("lms-alice", 1.0, 3.0)]
    assert "Probe positions" in lms.scores[0]["comment"]
    post(teacher, "/teach/quoridor/lti/grades")                 # nothing new decided: nothing sent
    graded(db, "alice@uni.example.edu", 2, 0.5)                 # a worse attempt: the best still counts
    post(teacher, "/teach/quoridor/lti/grades")
    assert len(lms.scores) == 1
    graded(db, "alice@uni.example.edu", 2, 3.0)                 # a better one: one new score, the same column
    post(teacher, "/teach/quoridor/lti/grades")
    assert [s["scoreGiven"] for s in lms.scores] == [1.0, 3.0] and lms.made_lineitems == 1
    assert {s["lineitem"] for s in lms.scores} == {"/courses/7/lineitems/1"}


def test_a_column_already_in_the_lms_is_found_not_made_again(tool, lms):
    lms.lineitems.append({"id": f"{ISS}/courses/7/lineitems/41", "resourceId": "quoridor", "tag": "game-grader",
                          "label": "Quoridor", "scoreMaximum": 3})
    launch(client(tool), lms)
    teacher = instructor(tool, lms)
    graded(tool.service.db, "alice@uni.example.edu", 1, 2.0)
    post(teacher, "/teach/quoridor/lti/grades")
    assert lms.made_lineitems == 0 and [s["lineitem"] for s in lms.scores] == ["/courses/7/lineitems/41"]


def test_a_failing_lms_loses_no_grade(tool, lms):
    db = tool.service.db
    launch(client(tool), lms)
    teacher = instructor(tool, lms)
    graded(db, "alice@uni.example.edu", 1, 2.0)
    lms.down = True
    text = post(teacher, "/teach/quoridor/lti/grades")
    assert "1 grade(s) wait to be sent again" in text and "503" in text and "nothing is lost" in text
    assert lms.scores == []
    assert db.one("SELECT status FROM lti_scores")["status"] == "queued"
    assert "waiting to be sent" in teacher.get("/teach/quoridor/lti").text
    lms.down = False
    post(teacher, "/teach/quoridor/lti/grades")
    assert [s["scoreGiven"] for s in lms.scores] == [2.0]
    assert db.one("SELECT status FROM lti_scores")["status"] == "sent"
    post(teacher, "/teach/quoridor/lti/grades")
    assert len(lms.scores) == 1 and lms.made_lineitems == 1


def test_grades_go_back_by_themselves_without_the_instructor(tool, lms):
    launch(client(tool), lms)
    instructor(tool, lms)
    graded(tool.service.db, "alice@uni.example.edu", 1, 2.0)
    said = tool.service.lti.send_all()                  # what `grader serve` runs every send_every_minutes
    assert [s["scoreGiven"] for s in lms.scores] == [2.0] and "1 grade(s) sent" in said[0]
    tool.service.lti.send_all()
    assert len(lms.scores) == 1


def test_a_grade_the_lms_refuses_is_shown_with_its_words_and_the_others_still_go(tool, lms):
    db = tool.service.db
    launch(client(tool), lms)
    launch(client(tool), lms, sub="lms-bob")
    teacher = instructor(tool, lms)
    graded(db, "alice@uni.example.edu", 1, 2.0)
    graded(db, "bob@uni.example.edu", 1, 1.0)
    lms.strangers = {"lms-alice"}
    text = post(teacher, "/teach/quoridor/lti/grades")
    assert "1 grade(s) sent, 1 refused by the LMS" in text
    assert [s["userId"] for s in lms.scores] == ["lms-bob"]
    page = teacher.get("/teach/quoridor/lti").text
    assert "refused" in page and "User not found in course" in page
    post(teacher, "/teach/quoridor/lti/grades")                 # a refusal is not sent again and again
    assert len(lms.scores) == 1


def deep_link_launch(browser, lms: FakeLms, course: dict):
    settings = {"deep_link_return_url": f"{ISS}/deep-link-return", "accept_types": ["ltiResourceLink"]}
    return launch(browser, lms, sub="lms-terry", roles=TEACHER, **{
        C + "message_type": "LtiDeepLinkingRequest", C + "context": course,
        "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings": settings})


def test_a_deep_link_from_another_course_is_refused(tool, lms):
    import html

    teacher = client(tool)
    assert deep_link_launch(teacher, lms, {"id": "course-7", "title": "AI 2026"}).headers["location"] == "/lti/deep-link"
    token = teacher.get("/lti/deep-link").text.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    assert teacher.post("/lti/deep-link", data={"csrf": token, "assignment": "quoridor"}).status_code == 200
    assert [c["context_id"] for c in tool.service.db.query("SELECT * FROM lti_courses")] == ["course-7"]

    stranger = client(tool)                  # a teacher of another LMS course adds the tool there
    r = deep_link_launch(stranger, lms, {"id": "course-8", "title": "Databases"})
    assert r.status_code == 400
    assert ("This service grades the LMS course 'AI 2026', so a deep link from another course ('Databases') is "
            "refused") in html.unescape(r.text)
    assert not signed_in(stranger)
    assert [c["context_id"] for c in tool.service.db.query("SELECT * FROM lti_courses")] == ["course-7"]
    again = client(tool)                     # the linked course itself may add activities again
    assert deep_link_launch(again, lms, {"id": "course-7", "title": "AI 2026"}).status_code == 303
