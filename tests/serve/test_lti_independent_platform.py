"""The tool against an LTI 1.3 platform that this project did not write: `lti1p3platform` from PyPI
builds and signs the launch (its claims, its RS256 signature with PyJWT, its JWKS with jwcrypto) and
checks the tool's client assertion before it gives an access token. Its gradebook and roster are
the small ones from test_lti.py, because the package has no HTTP server of its own. Skipped, with
the reason, where the package is not installed."""
from __future__ import annotations

import urllib.parse

import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

pytest.importorskip("lti1p3platform", reason="lti1p3platform (an independent LTI 1.3 platform) is not installed")

from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request

from .test_lti import CLIENT, ISS, FakeLms, begin, client, graded, post

LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"


def _pem_pair() -> tuple[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    return private, public


class Platform(LTI1P3PlatformConfAbstract):
    def init_platform_config(self, **kwargs) -> None:
        private, public = _pem_pair()
        self.registration = (Registration().set_iss(ISS).set_client_id(CLIENT).set_deployment_id("dep-1")
                             .set_launch_url("http://testserver/a/quoridor").set_platform_private_key(private)
                             .set_platform_public_key(public).set_oidc_login_url("http://testserver/lti/login"))

    def get_registration_by_params(self, **kwargs) -> Registration:
        return self.registration


class Preflight(Request):
    """The tool's redirect to the platform, as the platform's request object."""

    def build_metadata(self, request):
        return {"method": "GET", "get_data": request, "form_data": {}, "headers": {}, "content_type": None,
                "path": "/auth", "json": None}


class Launch(LTIAdvantageMessageLaunchAbstract):
    def render_launch_form(self, launch_data, **kwargs):
        return launch_data            # the fields the platform's auto-submitting form would post


class IndependentLms(FakeLms):
    """The platform's keys, launches and token endpoint are lti1p3platform's; roster and gradebook the fake's."""

    def __init__(self) -> None:
        super().__init__()
        self.platform = Platform()
        self.platform.get_registration()

    def handle(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/jwks":
            return httpx.Response(200, json=self.platform.get_jwks())
        if request.url.path == "/token":
            form = dict(urllib.parse.parse_qsl(request.content.decode()))
            return httpx.Response(200, json=dict(self.platform.get_access_token(form)))   # checks our assertion
        if request.headers.get("authorization", "").startswith("Bearer ") and request.url.path != "/token":
            request.headers["authorization"] = "Bearer tok"            # the fake's endpoints take any valid token
        return super().handle(request)

    def launch_fields(self, query: dict, sub: str, role: str, extra: dict | None = None) -> dict:
        launch = Launch(Preflight(query), self.platform)
        launch.set_user_data(sub, [role], full_name=sub.title(), email_address=f"{sub}@uni.example.edu")
        launch.set_launch_context_claim("course-7", context_title="AI 2026")
        launch.set_resource_link_claim("rl-1")
        launch.set_ags(f"{ISS}/courses/7/lineitems")
        launch.set_nrps(f"{ISS}/courses/7/members")
        launch.set_extra_claims(extra or {})
        return launch.lti_launch()


@pytest.fixture
def independent(make_config):
    from starlette.testclient import TestClient

    from grader.serve.app import create_app

    lms = IndependentLms()
    app = create_app(make_config(
        f"  lti:\n    platforms:\n      - {{issuer: '{ISS}', client_id: {CLIENT}, auth_url: '{ISS}/auth', "
        f"token_url: '{ISS}/token', jwks_url: '{ISS}/jwks', deployment_ids: [dep-1]}}\n"))
    app.service.lti.transport = httpx.MockTransport(lms.handle)
    lms.platform.registration.set_tool_key_set(TestClient(app).get("/lti/jwks").json())
    return app, lms


def arrive(app, lms: IndependentLms, sub: str, role: str, extra: dict | None = None):
    browser = client(app)
    fields = lms.launch_fields(begin(browser), sub, role, extra)
    assert fields["launch_url"] == "http://testserver/lti/launch"
    r = browser.post("/lti/launch", data={"id_token": fields["id_token"], "state": fields["state"]},
                     follow_redirects=False)
    return browser, r


def test_an_independent_platforms_launch_signs_in_and_its_token_endpoint_takes_our_assertion(independent):
    app, lms = independent
    student, r = arrive(app, lms, "alice", LEARNER)
    assert r.status_code == 303 and r.headers["location"] == "/a/quoridor", r.text
    assert student.get("/", follow_redirects=False).status_code == 200
    teacher, r = arrive(app, lms, "terry", INSTRUCTOR)
    assert r.status_code == 303
    graded(app.service.db, "alice@uni.example.edu", 1, 2.0)
    text = post(teacher, "/teach/quoridor/lti/grades")
    assert "1 grade(s) sent" in text, text
    assert [(s["userId"], s["scoreGiven"]) for s in lms.scores] == [("alice", 2.0)]


def test_an_independent_platforms_launch_for_another_tool_is_refused(independent):
    app, lms = independent
    browser, r = arrive(app, lms, "alice", LEARNER, {"aud": "another-tool", "azp": "another-tool"})
    assert r.status_code == 400 and "meant for another tool" in r.text
    assert browser.get("/", follow_redirects=False).status_code == 303


def test_deep_linking_makes_one_activity_per_chosen_assignment_signed_for_the_platform(independent):
    import re

    app, lms = independent
    registration = lms.platform.registration
    registration.set_deeplink_launch_url("http://testserver/lti/launch")
    browser = client(app)
    launch = Launch(Preflight(begin(browser)), lms.platform)
    launch.set_user_data("terry", [INSTRUCTOR], full_name="Terry", email_address="terry@uni.example.edu")
    launch.set_dl(f"{ISS}/deep-link-return", extra_data={"ticket": "t-42"})
    fields = launch.lti_launch()
    r = browser.post("/lti/launch", data={"id_token": fields["id_token"], "state": fields["state"]},
                     follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/lti/deep-link", r.text
    page = browser.get("/lti/deep-link").text
    token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    r = browser.post("/lti/deep-link", data={"csrf": token, "assignment": "quoridor"})
    assert r.status_code == 200
    assert f"form-action {ISS}" in r.headers["content-security-policy"]
    assert f'action="{ISS}/deep-link-return"' in r.text
    answer = re.search(r'name="JWT" value="([^"]+)"', r.text).group(1)
    items = lms.platform.validate_deeplinking_resp({"JWT": answer})     # the platform checks our signature
    assert [(i["type"], i["url"], i["custom"]) for i in items] == [
        ("ltiResourceLink", "http://testserver/a/quoridor", {"assignment": "quoridor"})]


def test_a_student_cannot_deep_link(independent):
    app, lms = independent
    lms.platform.registration.set_deeplink_launch_url("http://testserver/lti/launch")
    browser = client(app)
    launch = Launch(Preflight(begin(browser)), lms.platform)
    launch.set_user_data("alice", [LEARNER])
    launch.set_dl(f"{ISS}/deep-link-return")
    fields = launch.lti_launch()
    r = browser.post("/lti/launch", data={"id_token": fields["id_token"], "state": fields["state"]},
                     follow_redirects=False)
    assert r.status_code == 400 and "staff can add this service" in r.text
    assert browser.get("/", follow_redirects=False).status_code == 303
