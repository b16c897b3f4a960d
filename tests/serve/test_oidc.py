"""A university login through OpenID Connect, against a small provider this test starts: a roster
account logs in, an account not on the roster is refused, and an ID token the provider did not sign
opens nothing."""
from __future__ import annotations

import http.server
import json
import secrets
import socket
import threading
import time
import urllib.parse

import pytest
from joserfc import jwt
from joserfc.jwk import RSAKey


class Provider(http.server.ThreadingHTTPServer):
    """Discovery, authorize (the user named in `self.user` is "logged in" at once), token and keys."""

    def __init__(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        super().__init__(("127.0.0.1", port), _Endpoints)
        self.issuer = f"http://127.0.0.1:{port}"
        self.key = RSAKey.generate_key(2048, parameters={"kid": "k1"})
        self.signing_key = self.key                     # a test may sign with another key
        self.user = "alice"
        self.codes: dict[str, dict] = {}
        threading.Thread(target=self.serve_forever, daemon=True).start()


class _Endpoints(http.server.BaseHTTPRequestHandler):
    server: Provider

    def _json(self, doc: dict, status: int = 200) -> None:
        body = json.dumps(doc).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        url = urllib.parse.urlsplit(self.path)
        p, iss = self.server, self.server.issuer
        if url.path == "/.well-known/openid-configuration":
            return self._json({"issuer": iss, "authorization_endpoint": f"{iss}/authorize",
                               "token_endpoint": f"{iss}/token", "jwks_uri": f"{iss}/jwks",
                               "response_types_supported": ["code"], "subject_types_supported": ["public"],
                               "id_token_signing_alg_values_supported": ["RS256"]})
        if url.path == "/jwks":
            return self._json({"keys": [p.key.as_dict(private=False)]})
        if url.path == "/authorize":
            q = dict(urllib.parse.parse_qsl(url.query))
            code = secrets.token_urlsafe(8)
            p.codes[code] = {"nonce": q.get("nonce"), "client_id": q["client_id"], "user": p.user}
            self.send_response(302)
            self.send_header("location", f"{q['redirect_uri']}?code={code}&state={q['state']}")
            self.end_headers()
            return None
        return self._json({"error": "not_found"}, 404)

    def do_POST(self) -> None:
        form = dict(urllib.parse.parse_qsl(self.rfile.read(int(self.headers["content-length"])).decode()))
        grant = self.server.codes.pop(form.get("code", ""), None)
        if grant is None:
            return self._json({"error": "invalid_grant"}, 400)
        now = int(time.time())
        claims = {"iss": self.server.issuer, "sub": "id-" + grant["user"], "aud": grant["client_id"], "iat": now,
                  "exp": now + 300, "nonce": grant["nonce"], "preferred_username": grant["user"]}
        token = jwt.encode({"alg": "RS256", "kid": "k1"}, claims, self.server.signing_key)
        return self._json({"access_token": "at-" + secrets.token_urlsafe(8), "token_type": "Bearer",
                           "expires_in": 300, "id_token": token})

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def university():
    provider = Provider()
    yield provider
    provider.shutdown()
    provider.server_close()


def oidc_login(client, provider: Provider):
    """Click the university button, pass the provider, come back: the service's final answer."""
    import httpx

    start = client.get("/login/oidc", follow_redirects=False)
    assert start.status_code in (302, 303, 307), start.text
    back = httpx.get(start.headers["location"], follow_redirects=False)
    assert back.status_code == 302
    callback = urllib.parse.urlsplit(back.headers["location"])
    return client.get(f"{callback.path}?{callback.query}", follow_redirects=False)


@pytest.fixture
def app_with_oidc(make_config, university):
    from grader.serve import accounts
    from grader.serve.app import create_app

    app = create_app(make_config(f"  oidc: {{issuer: '{university.issuer}', client_id: grader, "
                                 f"client_secret: s3cret}}\n"))
    accounts.create(app.service.db, "alice", "Alice Nováková", password="alice-password")
    return app


def test_a_roster_account_logs_in_through_the_university(app_with_oidc, university):
    from starlette.testclient import TestClient

    client = TestClient(app_with_oidc)
    assert "/login/oidc" in client.get("/login").text
    r = oidc_login(client, university)
    assert r.status_code == 303 and r.headers["location"] == "/"
    home = client.get("/")
    assert home.status_code == 200 and "Alice Nováková" in home.text


def test_a_university_account_not_on_the_roster_gets_no_account(app_with_oidc, university):
    from starlette.testclient import TestClient

    university.user = "mallory"
    client = TestClient(app_with_oidc)
    r = oidc_login(client, university)
    assert r.status_code == 403 and "not on this course" in r.text
    assert client.get("/", follow_redirects=False).status_code == 303
    db = app_with_oidc.service.db
    assert db.one("SELECT * FROM users WHERE login = 'mallory'") is None


def test_an_id_token_the_provider_did_not_sign_opens_nothing(app_with_oidc, university):
    from starlette.testclient import TestClient

    university.signing_key = RSAKey.generate_key(2048, parameters={"kid": "k1"})
    client = TestClient(app_with_oidc)
    r = oidc_login(client, university)
    assert r.status_code == 400
    assert client.get("/", follow_redirects=False).status_code == 303
