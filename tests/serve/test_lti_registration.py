"""LTI Dynamic Registration against the fake LMS of test_lti.py, which here also describes itself
(`/.well-known/openid-configuration`) and registers tools (`/register`). The switch is off by
default; with it on, the LMS registers the tool and a real launch with the new client id signs a
student in. A wrong issuer, an LMS that refuses, and an answer without a client id each get one
sentence and register nothing."""
from __future__ import annotations

import json
import urllib.parse

import httpx
import pytest
from joserfc.jwk import KeySet

from .conftest import Site
from .test_lti import ISS, FakeLms, client, signed_in

CONFIG_URL = f"{ISS}/.well-known/openid-configuration"
SWITCH = "  lti:\n    dynamic_registration: true\n"
ALLOWED = SWITCH + f"    allowed_origins: ['{ISS}']\n"


class RegisteringLms(FakeLms):
    """The fake LMS with its OpenID configuration and a registration endpoint (LTI-DR §3.4-3.6)."""

    def __init__(self) -> None:
        super().__init__()
        self.issuer = ISS
        self.refuse = False
        self.answer_client_id = True
        self.registrations: list[tuple[dict, str | None]] = []

    def handle(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/.well-known/openid-configuration":
            return httpx.Response(200, json={
                "issuer": self.issuer, "authorization_endpoint": f"{ISS}/auth", "token_endpoint": f"{ISS}/token",
                "jwks_uri": f"{ISS}/jwks", "registration_endpoint": f"{ISS}/register",
                "scopes_supported": ["openid", "https://purl.imsglobal.org/spec/lti-ags/scope/score",
                                     "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
                                     "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"],
                "claims_supported": ["iss", "sub", "name", "email"],
                "https://purl.imsglobal.org/spec/lti-platform-configuration": {
                    "product_family_code": "moodle", "version": "4.4"}})
        if request.url.path == "/register" and request.method == "POST":
            self.registrations.append((json.loads(request.content), request.headers.get("authorization")))
            if self.refuse:
                return httpx.Response(400, json={"error": "invalid_redirect_uri"})
            body = json.loads(request.content)
            tool_config = {**body["https://purl.imsglobal.org/spec/lti-tool-configuration"], "deployment_id": "dep-7"}
            return httpx.Response(200, json={**body, "client_id": "dyn-client" if self.answer_client_id else "",
                                             "https://purl.imsglobal.org/spec/lti-tool-configuration": tool_config})
        return super().handle(request)


def service(make_config, lms: RegisteringLms, switch: str = SWITCH):
    from starlette.testclient import TestClient

    from grader.serve.app import create_app

    app = create_app(make_config(switch))
    app.service.lti.transport = httpx.MockTransport(lms.handle)
    lms.tool_keys = KeySet.import_key_set(TestClient(app).get("/lti/jwks").json())
    return app


def registering(app, url: str = CONFIG_URL, token: str | None = "reg-token-1"):
    params = {"openid_configuration": url} | ({"registration_token": token} if token else {})
    return client(app).get("/lti/register", params=params)


def test_an_lms_registers_itself_and_its_launch_then_signs_the_student_in(make_config):
    lms = RegisteringLms()
    app = service(make_config, lms, switch=ALLOWED)          # its origin is allowed: no approval to wait for
    r = registering(app)
    assert r.status_code == 200, r.text
    assert 'id="lti-registered"' in r.text and "/assets/serve.js" in r.text and "can launch now" in r.text
    assert "frame-ancestors https://lms.example.edu" in r.headers["content-security-policy"]
    sent, bearer = lms.registrations[0]
    assert bearer == "Bearer reg-token-1"
    assert sent["initiate_login_uri"] == "http://testserver/lti/login"
    assert sent["redirect_uris"] == ["http://testserver/lti/launch"] and sent["jwks_uri"] == "http://testserver/lti/jwks"
    assert sent["token_endpoint_auth_method"] == "private_key_jwt"
    assert "https://purl.imsglobal.org/spec/lti-ags/scope/score" in sent["scope"].split()
    assert "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly" not in sent["scope"].split()   # not offered
    tool_config = sent["https://purl.imsglobal.org/spec/lti-tool-configuration"]
    assert tool_config["domain"] == "testserver" and tool_config["claims"] == ["iss", "sub", "name", "email"]
    assert {m["type"] for m in tool_config["messages"]} == {"LtiResourceLinkRequest", "LtiDeepLinkingRequest"}
    page = client(app).get("/lti").text
    assert "dyn-client" in page and "dep-7" in page and "registered itself" in page

    browser = client(app)                                  # a launch with the client id the LMS gave
    login = browser.get("/lti/login", params={"iss": ISS, "login_hint": "x", "client_id": "dyn-client"},
                        follow_redirects=False)
    assert login.status_code == 302, login.text
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(login.headers["location"]).query))
    assert query["client_id"] == "dyn-client"
    token = lms.id_token(query["nonce"], aud="dyn-client", **{"https://purl.imsglobal.org/spec/lti/claim/"
                                                               "deployment_id": "dep-7"})
    r = browser.post("/lti/launch", data={"id_token": token, "state": query["state"]}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/a/quoridor"
    assert signed_in(browser)


@pytest.mark.parametrize("case, change, sentence", [
    ("wrong issuer", {"issuer": "https://evil.example"}, ("names the issuer https://evil.example, which is not at "
                                                          "https://lms.example.edu")),
    ("lms refuses", {"refuse": True}, "The LMS refused the registration (it answered 400"),
    ("no client id", {"answer_client_id": False}, "lacks a client_id"),
])
def test_a_registration_that_fails_gets_a_sentence_and_registers_nothing(make_config, case, change, sentence):
    lms = RegisteringLms()
    vars(lms).update(change)
    app = service(make_config, lms)
    r = registering(app)
    assert r.status_code == 400 and sentence in r.text and "nothing was registered" in r.text, case
    assert 'id="lti-registered"' not in r.text
    assert app.service.lti.platforms == []
    assert client(app).get("/lti/login", params={"iss": ISS, "login_hint": "x", "client_id": "dyn-client"},
                           follow_redirects=False).status_code == 400


def test_registration_is_off_unless_the_instructor_turns_it_on(make_config):
    lms = RegisteringLms()
    app = service(make_config, lms, switch=(
        "  lti:\n    platforms:\n      - {issuer: 'https://other.example', client_id: c, auth_url: 'https://o/a', "
        "token_url: 'https://o/t', jwks_url: 'https://o/j', deployment_ids: [d]}\n"))
    r = registering(app)
    assert r.status_code == 400 and "does not take registrations from an LMS" in r.text
    assert lms.registrations == [] and len(app.service.lti.platforms) == 1


def test_an_lms_config_without_platforms_needs_the_switch(make_config):
    from grader.config import ConfigError, load_config

    with pytest.raises(ConfigError, match="lists no platform"):
        load_config(make_config("  lti:\n    grade: best\n"))


def test_a_configuration_not_served_over_https_is_not_read(make_config):
    lms = RegisteringLms()
    app = service(make_config, lms)
    r = registering(app, url="http://lms.example.edu/.well-known/openid-configuration")
    assert r.status_code == 400 and "not an https address" in r.text
    assert lms.registrations == [] and app.service.lti.platforms == []


def launch_by_registered(app, lms: RegisteringLms):
    browser = client(app)
    login = browser.get("/lti/login", params={"iss": ISS, "login_hint": "x", "client_id": "dyn-client"},
                        follow_redirects=False)
    if login.status_code != 302:
        return browser, login
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(login.headers["location"]).query))
    token = lms.id_token(query["nonce"], aud="dyn-client", **{"https://purl.imsglobal.org/spec/lti/claim/"
                                                               "deployment_id": "dep-7"})
    return browser, browser.post("/lti/launch", data={"id_token": token, "state": query["state"]},
                                 follow_redirects=False)


def test_a_registered_lms_waits_for_an_instructors_approval(make_config):
    from grader.serve import accounts

    lms = RegisteringLms()
    app = service(make_config, lms)
    accounts.create(app.service.db, "teacher", "Terry", role="instructor", password="teacher-password")
    accounts.create(app.service.db, "alice", "Alice", password="alice-password")
    r = registering(app)
    assert r.status_code == 200 and "cannot launch until the service's instructor approves it" in r.text
    browser, r = launch_by_registered(app, lms)
    assert r.status_code == 400 and "waits for the instructor&#39;s approval" in r.text and not signed_in(browser)
    assert 'id="waiting"' in client(app).get("/lti").text and "Approve</button>" not in client(app).get("/lti").text

    def press(site, action: str):
        token = site.csrf("/lti")
        return site.client.post(f"/lti/platforms/{action}", data={"csrf": token, "issuer": ISS,
                                                                 "client_id": "dyn-client"}, follow_redirects=False)

    student = Site(app)
    assert student.login("alice", "alice-password").status_code == 303
    assert press(student, "approve").status_code == 403             # only an instructor may let an LMS in
    assert app.service.lti.platforms == []
    teacher = Site(app)
    assert teacher.login("teacher", "teacher-password").status_code == 303
    assert "Approve</button>" in teacher.client.get("/lti").text
    assert press(teacher, "approve").status_code == 303
    assert [p.client_id for p in app.service.lti.platforms] == ["dyn-client"] and app.service.lti.waiting == []
    browser, r = launch_by_registered(app, lms)
    assert r.status_code == 303 and signed_in(browser)
    assert press(teacher, "remove").status_code == 303                 # removed: it launches no more
    assert app.service.lti.platforms == []
    assert launch_by_registered(app, lms)[1].status_code == 400


def test_with_allowed_origins_another_origin_is_not_even_read(make_config):
    lms = RegisteringLms()
    app = service(make_config, lms, switch=SWITCH + "    allowed_origins: ['https://moodle.example.org']\n")
    r = registering(app)
    assert r.status_code == 400 and "only from https://moodle.example.org" in r.text
    assert lms.registrations == [] and app.service.lti.platforms == [] and app.service.lti.waiting == []


def test_allowed_origins_are_https_origins(make_config):
    from grader.config import ConfigError, load_config

    for wrong in ("http://lms.example.edu", "https://lms.example.edu/path", "lms.example.edu"):
        with pytest.raises(ConfigError, match="not an https origin"):
            load_config(make_config(SWITCH + f"    allowed_origins: ['{wrong}']\n"))


def test_a_platform_registered_before_approval_existed_waits_for_it(make_config):
    """An earlier version's lti_platforms has no approved_at: its self-registered platforms launch no more
    until an instructor approves them."""
    from grader.serve.app import create_app

    lms = RegisteringLms()
    app = service(make_config, lms, switch=ALLOWED)
    assert registering(app).status_code == 200 and len(app.service.lti.platforms) == 1
    app.service.db.execute("ALTER TABLE lti_platforms DROP COLUMN approved_at")
    again = create_app(make_config(ALLOWED))
    assert again.service.lti.platforms == [] and [p.client_id for p in again.service.lti.waiting] == ["dyn-client"]
