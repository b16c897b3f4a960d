"""No network: TCP, UDP and path-named Unix sockets all fail, and the listeners see nothing."""
from __future__ import annotations

import socket

import pytest

from sandbox import Verdict

CLIENT = """
import socket

def tcp(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=1)
    s.sendall(b"hello")
    return "connected"

def udp(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(b"hello", ("127.0.0.1", port))
    return "sent"

def unix(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.sendall(b"hello")
    return "connected"

def pair():
    a, b = socket.socketpair()
    a.sendall(b"x")
    return b.recv(1).decode()
"""


def assert_blocked(r):
    assert r.verdict is Verdict.ERROR, r
    assert r.message.split(":")[0] in ("PermissionError", "OSError", "ConnectionRefusedError", "TimeoutError"), r


@pytest.fixture
def client(player, require):
    require("seccomp")
    return player(CLIENT)


def test_tcp_connect_to_a_local_listener_fails(client):
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        listener.setblocking(False)
        r = client.call("tcp", {"port": listener.getsockname()[1]})
        assert_blocked(r)
        with pytest.raises(BlockingIOError):
            listener.accept()                        # nobody connected
    assert client.alive


def test_udp_sendto_fails(client):
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as server:
        server.bind(("127.0.0.1", 0))
        server.setblocking(False)
        assert_blocked(client.call("udp", {"port": server.getsockname()[1]}))
        with pytest.raises(BlockingIOError):
            server.recv(16)                          # no datagram arrived


def test_path_named_unix_socket_connect_fails(client, tmp_path):
    path = str(tmp_path / "grader.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(path)
        listener.listen(1)
        listener.setblocking(False)
        assert_blocked(client.call("unix", {"path": path}))
        with pytest.raises(BlockingIOError):
            listener.accept()


def test_socketpair_inside_the_process_still_works(client):
    """Honest control: the denial is about reaching others, not about Unix socketpairs."""
    assert client.call("pair").value == "x"
