"""Who is logged in, over real sockets: the identity header of a single sign-on proxy is believed
only from the proxy's configured addresses, and the README's proxy blocks clear a client's copy."""
from __future__ import annotations

import http.client
import http.server
import re
import socket
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLIENT, README_PROXY, FORGING_PROXY = "127.0.0.2", "127.0.0.3", "127.0.0.4"
SSO_USERS = {"token-alice": "alice"}          # the single sign-on behind the README's proxy


def _port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def readme_nginx_blocks() -> list[str]:
    """The nginx blocks of docs/SERVE.md that pass requests to the service."""
    return [b for b in re.findall(r"```nginx\n(.*?)```", (ROOT / "docs" / "SERVE.md").read_text(), re.S) if "proxy_pass" in b]


class Proxy(http.server.ThreadingHTTPServer):
    """A forwarding proxy on `address` that connects to the service from the same address; `rules`
    turn the client's headers into the forwarded ones."""

    def __init__(self, address: str, upstream: int, rules) -> None:
        self.upstream, self.rules, self.source = upstream, rules, address
        super().__init__((address, _port(address)), _Forward)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"


class _Forward(http.server.BaseHTTPRequestHandler):
    server: Proxy

    def _forward(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        headers = self.server.rules(self)
        conn = http.client.HTTPConnection("127.0.0.1", self.server.upstream, source_address=(self.server.source, 0))
        conn.request(self.command, self.path, body=body, headers=headers)
        reply = conn.getresponse()
        data = reply.read()
        self.send_response(reply.status)
        for name, value in reply.getheaders():
            if name.lower() not in ("transfer-encoding", "connection", "content-length"):
                self.send_header(name, value)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = _forward

    def log_message(self, *args) -> None:
        pass


def forging(handler) -> dict:
    """A proxy that passes everything on, and claims the client came from the README proxy's address."""
    return {**dict(handler.headers.items()), "X-Forwarded-For": README_PROXY}


def readme_rules(block: str):
    """A README nginx block as the proxy's rules: only its proxy_set_header lines decide what an
    identity header carries; `$sso_user` is what the single sign-on says (nothing without a ticket)."""
    sets = re.findall(r'proxy_set_header\s+(\S+)\s+("[^"]*"|\S+?);', block)

    def rules(handler) -> dict:
        headers = dict(handler.headers.items())
        sso = SSO_USERS.get((handler.headers.get("authorization") or "").removeprefix("Bearer "), "")
        values = {"$host": handler.headers.get("host", ""), "$remote_addr": handler.client_address[0],
                  "$scheme": "http", "$sso_user": sso, '""': ""}
        for name, value in sets:
            for key in [k for k in headers if k.lower() == name.lower()]:
                del headers[key]                      # proxy_set_header replaces the client's field
            if values.get(value, value):
                headers[name] = values.get(value, value)
        return headers

    return rules


@pytest.fixture
def sso(service, make_config):
    """The service on a real port with the identity header believed from the README proxy's address."""
    import uvicorn

    from grader.serve.app import create_app

    cfg = make_config(f"  trusted_proxy: {{header: X-Remote-User, addresses: [{README_PROXY}]}}\n")
    port = _port()
    server = uvicorn.Server(uvicorn.Config(create_app(cfg), host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    yield port
    server.should_exit = True


class Reply:
    """A response read whole: status, headers, body."""

    def __init__(self, response: http.client.HTTPResponse) -> None:
        self.status, self.body = response.status, response.read().decode()
        self.getheader = lambda name: response.getheader(name) or ""


def get(url: str, path: str, source: str, headers: dict) -> Reply:
    host, port = url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), source_address=(source, 0))
    conn.request("GET", path, headers=headers)
    return Reply(conn.getresponse())


def test_a_forged_identity_header_is_ignored_directly_and_through_any_proxy(sso):
    forged = {"X-Remote-User": "teacher"}
    direct = get(f"http://127.0.0.1:{sso}", "/teach/quoridor", CLIENT, forged)
    assert direct.status == 303 and direct.getheader("location").startswith("/login")
    other = Proxy(FORGING_PROXY, sso, forging)
    assert get(other.url, "/teach/quoridor", CLIENT, forged).status == 303
    for block in readme_nginx_blocks():
        readme = Proxy(README_PROXY, sso, readme_rules(block))
        anonymous = get(readme.url, "/teach/quoridor", CLIENT, forged)
        assert anonymous.status == 303, f"this README nginx block passed a client's forged header on:\n{block}"
        variant = get(readme.url, "/teach/quoridor", CLIENT, {"x-remote-user": "teacher"})
        assert variant.status == 303
        readme.shutdown()
        readme.server_close()
    with_sso = [b for b in readme_nginx_blocks() if "$sso_user" in b]
    assert with_sso, "the README shows no single sign-on proxy block"
    readme = Proxy(README_PROXY, sso, readme_rules(with_sso[0]))
    alice = {"Authorization": "Bearer token-alice", "X-Remote-User": "teacher"}
    assert get(readme.url, "/teach/quoridor", CLIENT, alice).status == 403       # alice, not the teacher
    home = get(readme.url, "/", CLIENT, alice)
    assert home.status == 200 and "Alice" in home.body


def test_a_trusted_proxy_without_addresses_or_with_a_name_for_an_address_refuses_to_start(make_config):
    from grader.config import ConfigError
    from grader.serve.app import create_app

    for bad in ("{header: X-Remote-User}", "{header: X-Remote-User, addresses: []}",
                "{header: X-Remote-User, addresses: [everyone]}", "{header: X-Remote-User, addresses: ['*']}",
                "{header: '', addresses: [127.0.0.1]}"):
        with pytest.raises(ConfigError):
            create_app(make_config(f"  trusted_proxy: {bad}\n"))
