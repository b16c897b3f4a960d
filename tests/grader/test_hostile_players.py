"""Hostile submissions that write their own frames to the reply pipe, bypassing the shim.

Each forged reply must end as that player's verdict with one sentence (`protocol` in a game, a
failed probe stage in validation), never as a traceback and never as `infra` (the grader's own
failure, never scored, replayed next run: a player that could cause it would never lose). Run in
both start modes, through the real sandbox; tests/grader/test_hostile_replies.py fuzzes the same
code paths without processes.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from grader.assignment import resolve
from grader.config import AssignmentConfig
from grader.match import play_game, player_factory
from grader.submissions import builtin, load
from grader.validation import validate

RANDOM_PLAYER = Path(__file__).resolve().parents[2] / "rulesets" / "quoridor" / "players" / "random" / "player.py"

FORGER = '''

import fcntl as _fcntl, os as _os, stat as _stat, struct as _struct, sys as _sys, time as _time

_PAYLOADS = open(_os.path.join(_os.path.dirname(__file__), "payloads.json")).read()


def _reply_fd():
    for fd in range(3, 256):
        try:
            if (_stat.S_ISFIFO(_os.fstat(fd).st_mode)
                    and _fcntl.fcntl(fd, _fcntl.F_GETFL) & _os.O_ACCMODE == _os.O_WRONLY):
                return fd
        except OSError:
            pass


def _request_id():
    f = _sys._getframe()
    while f is not None:
        msg = f.f_locals.get("msg")
        if isinstance(msg, dict) and "id" in msg:
            return msg["id"]
        f = f.f_back
    return 2


def _forge(method):
    """Write this call's reply frame straight to the pipe (payloads.json: method -> body), then hang."""
    import json as _json
    spec = _json.loads(_PAYLOADS).get(method)
    if spec is None:
        return None
    if "raw" in spec:
        body = bytes.fromhex(spec["raw"])
    elif "frame" in spec:
        body = spec["frame"].replace("ID", str(_request_id())).encode()
    else:
        body = ('{"id": %d, "ok": %s}' % (_request_id(), spec["ok"])).encode()
    data = body if spec.get("unframed") else _struct.pack(">I", len(body)) + body
    _os.write(_reply_fd(), data)
    _time.sleep(60)


_Base = Player


class Player(_Base):
    def make_move(self):
        _forge("move")
        return _Base.make_move(self)

    def expand_player(self):
        _forge("expand_player")
        return _Base.expand_player(self)

    def expand_obstacles(self):
        _forge("expand_obstacles")
        return _Base.expand_obstacles(self)
'''


def quoridor(prefork: bool):
    cfg = AssignmentConfig(ruleset="quoridor", submissions="x", game={"sizex": 5, "sizey": 5},
                           limits={"first_move_s": 5, "move_s": 2, "kill_after_s": 1},
                           league={"prefork": prefork}, validation={"smoke_games": 0})
    return resolve("t", cfg, Path("."))


def forged_game(tmp_path: Path, prefork: bool, payloads: dict, name: str = "forger"):
    """One game of a forging player (first) against the random built-in."""
    a = quoridor(prefork)
    return play_game(a, hostile(tmp_path, payloads, name), builtin(a.ruleset, "random"), seed=4,
                     factory=player_factory(a))


def hostile(tmp_path: Path, payloads: dict, name: str = "forger"):
    folder = tmp_path / name
    folder.mkdir()
    (folder / "player.py").write_text(RANDOM_PLAYER.read_text() + FORGER)
    (folder / "payloads.json").write_text(json.dumps(payloads))
    sub = load(folder, "player.py", 10.0)
    assert sub.problem is None, sub.problem
    return sub


MOVES = {
    "30 000-deep array": "[" * 30000 + "]" * 30000,
    "probe-like pairs": '[[1, "a"], [0, 0]]',
    "lists for coordinates": '{"type": 1, "pos": [[1], [2]]}',
    "wrong move type": '{"type": true, "pos": [1, 2]}',
    "a huge number": '{"type": 1, "pos": [1e999, 2]}',
    "a lone surrogate": '{"invalid": "\\ud800 bad"}',      # well-shaped: an illegal move, printable
}


@pytest.mark.parametrize("prefork", [False, True], ids=["spawn", "prefork"])
@pytest.mark.parametrize("what", list(MOVES))
def test_a_forged_move_loses_the_game_by_protocol_and_never_is_infra(tmp_path, prefork, what):
    result = forged_game(tmp_path, prefork, {"move": {"ok": MOVES[what]}})
    kind = "illegal" if what == "a lone surrogate" else "protocol"
    assert result.infra_error is None and result.reason == kind, result.detail
    assert result.points == (0.0, 1.0)
    assert result.detail.startswith("The first player (forger)") and "\n" not in result.detail
    assert result.players[0].incidents[0]["kind"] == kind
    json.dumps(result.to_json(), ensure_ascii=False).encode("utf-8")


ENVELOPES = {
    "ok and a non-object error": '{"id": ID, "ok": {"type": null}, "error": 5}',
    "an error of odd types": '{"id": ID, "error": {"type": [1], "message": {"a": [[]]}, "traceback": 5}}',
    "an empty error": '{"id": ID, "error": {}}',
    "a text id": '{"id": "ID", "ok": {"type": null}}',
    "neither ok nor error": '{"id": ID, "okay": {"type": null}}',
}


@pytest.mark.parametrize("prefork", [False, True], ids=["spawn", "prefork"])
@pytest.mark.parametrize("what", list(ENVELOPES))
def test_a_forged_envelope_is_the_players_fault_never_infra(tmp_path, prefork, what):
    result = forged_game(tmp_path, prefork, {"move": {"frame": ENVELOPES[what]}})
    assert result.infra_error is None and result.reason in ("protocol", "error"), result.detail
    assert result.points == (0.0, 1.0) and "\n" not in result.detail


@pytest.mark.parametrize("prefork", [False, True], ids=["spawn", "prefork"])
def test_forged_probe_answers_fail_their_stage_with_a_sentence(tmp_path, prefork):
    """The issue's two answers: lists inside a step, and text inside obstacles."""
    a = quoridor(prefork)
    sub = hostile(tmp_path, {"expand_player": {"ok": "[[[1], [2]]]"},
                             "expand_obstacles": {"ok": '[[1, "a"], [0, 0]]'}})
    report = validate(a, sub, factory=player_factory(a), smoke=False)
    checks = {c.name: c for c in report.checks}
    assert checks["interface"].passed and not report.passed
    for name in ("expand_player", "expand_obstacles"):
        assert not checks[name].passed
        assert f"the reply to {name}() is not a list of" in checks[name].message, checks[name].message
        assert "\n" not in checks[name].message


def random_payloads(seed: int, n: int) -> list[dict]:
    """Byte strings for the reply pipe: random bytes framed or not, damaged JSON frames, and
    replies nested to a random depth."""
    rng = random.Random(seed)
    odd = [None, 5, "x", [], {}, [[1]], {"type": [1], "message": {"a": 1}, "traceback": 2}, {"type": None}]
    out = []
    for k in range(n):
        if k % 4 == 3:                           # an envelope of random parts
            parts = {key: rng.choice(odd) for key in ("ok", "error", "ready", "okay") if rng.random() < 0.5}
            frame = json.dumps({"id": 0, **parts}).replace('"id": 0', '"id": ID')
            out.append({"frame": frame})
        elif k % 3 == 0:
            body = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 30)))
            out.append({"raw": body.hex(), "unframed": k % 2 == 0})
        elif k % 3 == 1:
            text = json.dumps({"id": 3, "ok": {"type": 1, "pos": [rng.randrange(-3, 9), "x"]}})
            i = rng.randrange(len(text))
            out.append({"raw": (text[:i] + chr(rng.randrange(32, 127)) + text[i + 1:]).encode().hex()})
        else:
            depth = rng.randrange(100, 50000)
            out.append({"ok": "[" * depth + "]" * depth})
    return out


@pytest.mark.parametrize("prefork", [False, True], ids=["spawn", "prefork"])
def test_no_bytes_written_to_the_reply_pipe_make_a_game_infra(tmp_path, prefork):
    for k, payload in enumerate(random_payloads(seed=11, n=12)):
        result = forged_game(tmp_path, prefork, {"move": payload}, name=f"forger{k}")
        assert result.infra_error is None and result.reason != "infra", (payload, result.detail)
        assert result.points[0] == 0.0, (payload, result.reason, result.detail)
