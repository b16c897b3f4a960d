"""The wire protocol seen from a hostile player: bad frames are PROTOCOL, exceptions are ERROR."""
from __future__ import annotations

import pytest

from sandbox import PlayerProcess, Verdict, wire

REPLY_FD = """
import fcntl, os, stat

def reply_fd():
    \"\"\"What a hostile player does: find the write end of a pipe that is not its output pipe.\"\"\"
    output = os.fstat(1).st_ino
    for fd in range(3, 64):
        try:
            st = os.fstat(fd)
        except OSError:
            continue
        if stat.S_ISFIFO(st.st_mode) and st.st_ino != output and \\
                fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY:
            return fd
"""

FORGER = REPLY_FD + """
import json, os, struct, sys, time
FD = reply_fd()

def garbage():
    body = b"this is not json"
    os.write(FD, struct.pack(">I", len(body)) + body)
    time.sleep(5)

def huge():
    os.write(FD, struct.pack(">I", 50 * 1024 * 1024) + b"{" * 4096)
    time.sleep(5)

def twice():
    body = b'{"ok": 1}'
    os.write(FD, struct.pack(">I", len(body)) + body)
    return 2

def shape():
    body = b'[1, 2, 3]'
    os.write(FD, struct.pack(">I", len(body)) + body)
    time.sleep(5)

def close_pipe():
    os.close(FD)
    time.sleep(5)

def big_value(kb):
    return "x" * (kb * 1024)

def not_json():
    return {1, 2}

def ping():
    return "pong"

def boom():
    raise ValueError("the student's bug")
"""


@pytest.mark.parametrize("attack, words", [("garbage", "not JSON"), ("huge", "KB allowed"),
                                           ("twice", "does not answer|more than one reply"), ("shape", "{ok} or {error}"),
                                           ("close_pipe", "closed the protocol pipe")])
def test_forged_replies_are_protocol_violations(player, attack, words):
    p = player(FORGER)
    r = p.call(attack)
    assert r.verdict is Verdict.PROTOCOL and any(w in r.message for w in words.split("|")), r
    assert not p.alive
    assert p.close().exit_status == "signal SIGKILL"


def test_forged_ready_report_is_impossible_after_start(player):
    """The protections come from a frame written before any student code runs."""
    p = player(REPLY_FD + "import json, os, struct, sys\n"
               "FD = reply_fd()\n"
               "body = json.dumps({'ok': None, 'id': 1, 'ready': {'landlock': 'forged'}}).encode()\n"
               "os.write(FD, struct.pack('>I', len(body)) + body)\n", start=False)
    r = p.start()
    assert r.verdict is Verdict.PROTOCOL or p.protections.get("landlock") != "forged", r


def test_oversized_reply_is_protocol(player, limits):
    p = player(FORGER, limits=limits(message_kb=8))
    assert p.call("big_value", {"kb": 4}).ok
    r = p.call("big_value", {"kb": 64})
    assert r.verdict is Verdict.PROTOCOL and "8 KB" in r.message, r


def test_exception_is_error_with_traceback_and_the_process_lives(player):
    p = player(FORGER)
    r = p.call("boom")
    assert r.verdict is Verdict.ERROR and r.message == "ValueError: the student's bug"
    assert "player.py" in r.traceback and "raise ValueError" in r.traceback
    assert "sandbox/" not in r.traceback                # trimmed to the student's frames
    assert p.alive and p.call("ping").value == "pong"


def test_unserialisable_return_value_is_error(player):
    p = player(FORGER)
    r = p.call("not_json")
    assert r.verdict is Verdict.ERROR and "not JSON" in r.message, r
    assert p.call("ping").ok


def test_unknown_function_and_method_are_errors(player):
    p = player(FORGER)
    assert p.call("call", {"function": "nope"}).verdict is Verdict.ERROR
    assert p.call("no_such_method").verdict is Verdict.ERROR
    assert p.call("ping").ok


def test_import_error_at_start_is_error_then_calls_say_why(player):
    p = player("raise ImportError('missing dependency')\n", start=False)
    r = p.start()
    assert r.verdict is Verdict.ERROR and "missing dependency" in r.message and "player.py" in r.traceback
    later = p.call("ping")
    assert later.verdict is Verdict.ERROR and "failed to open" in later.message


def test_call_before_start_and_double_start(write_submission, limits):
    p = PlayerProcess("sandbox.module_shim", write_submission("def ping():\n    return 1\n"), limits())
    assert p.call("ping").verdict is Verdict.PROTOCOL
    assert p.start().ok
    assert p.start().verdict is Verdict.PROTOCOL
    assert p.call("ping").value == 1
    p.close()


def test_frame_buffer_rejects_oversize_and_reads_split_frames():
    frames = wire.FrameBuffer(max_bytes=64)
    data = wire.encode({"ok": [1, 2]})
    for i in range(len(data)):
        assert frames.pop() is None
        frames.feed(data[i:i + 1])
    assert frames.pop() == ({"ok": [1, 2]},)
    frames.feed(wire.HEADER.pack(65))
    with pytest.raises(wire.WireError):
        frames.pop()


DRAWS = """
import random
def draws():
    return [random.random() for _ in range(3)]
"""


def test_a_seeded_player_draws_the_same_numbers_every_time(player):
    """The game's seed reaches `random` before the submission is opened: a replay meets the same luck."""
    first = player(DRAWS, name="a", seed=42).call("call", {"function": "draws"})
    again = player(DRAWS, name="b", seed=42).call("call", {"function": "draws"})
    other = player(DRAWS, name="c", seed=43).call("call", {"function": "draws"})
    assert first.ok and again.ok and other.ok
    assert first.value == again.value != other.value


def test_unseeded_players_do_not_share_a_random_stream(player):
    """Two forks of one template must not replay the template's generator state."""
    a = player(DRAWS, name="a").call("call", {"function": "draws"})
    b = player(DRAWS, name="b").call("call", {"function": "draws"})
    assert a.ok and b.ok and a.value != b.value
