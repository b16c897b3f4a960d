"""Fuzzing the manager's side of a reply: no bytes and no JSON value a player can send make the
grader's own code raise.

A hostile player writes straight to its reply pipe, so everything after the pipe is tried here
with seeded random inputs (the same inputs every run): the frame decoder over byte strings, and
for every discovered ruleset and every RPC it declares (seeded from the replies its record says
its shim makes, `sample_replies`, and the other forms its code reads, `loose_replies`), the shape check followed by the ruleset code that
reads a well-shaped reply (the engine's parse_move and the probes' checks). Only the rules' own
refusal (IllegalMove, a Mismatch) may come out; tests/grader/test_hostile_players.py sends such
replies from real sandboxed processes.
"""
from __future__ import annotations

import json
import random

import pytest

import rulesets
from grader.match import _Game
from grader.replies import ask
from rulesets import replies as R
from rulesets.base import IllegalMove, Mismatch
from rulesets.replies import COMMON, problem
from sandbox import CallResult, Verdict, wire

SCALARS = [None, True, False, 0, 1, -1, 2, 3, 7, 2 ** 31, -2 ** 31 - 1, 2 ** 62, -2 ** 62, 0.5, -3.0, 1e300,
           "", "a", "red", "blue", "pit", "PIT 0 3", "SKIP 1", "0 5 A 2", "F 2 F 3 3 A 2", "\x1b[31m", "=1+1",
           "x" * 5000, "\n", "invalid", "type", "answers", "pos", "edges", "[[1]]", "-1", "None"]
INTS = [0, 1, 2, 3, 5, 8, 11, 12, -1, -7, 99, 10 ** 9, 2 ** 31, -2 ** 31, 2 ** 62, -2 ** 63 + 1, 2 ** 63 - 1]
TEXTS = ["", " ", "red", "RED ", "blue", "green", "pit", "PIT 0 3", "PIT 1 3", "PIT 0 99", "PIT 0 " + "9" * 150,
         "SKIP 0", "SKIP 9", "skip", "0 5 A 2", "0 1 A 1", "9 5 A 2", "0 5 Z 2", "0 5 A 99999", "0 5 A " + "9" * 150,
         "F 2 F 3 3 A 2", "F 2 F 3 3", "0 0 0 0 0 0 0", "red 2", "2 red", "blue " + "9" * 150, "\x00", "é"]
ROUNDS = 300


def random_value(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth > 4 or roll < 0.45:
        return rng.choice(SCALARS)
    if roll < 0.75:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    keys = ["type", "pos", "edges", "invalid", "answers", "pile", "count", "move_type", "pit", "player_id", "x"]
    return {rng.choice(keys): random_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def mutate(rng: random.Random, value, depth: int = 0):
    """`value` with one random change somewhere inside: a part replaced, dropped, doubled or wrapped."""
    roll = rng.random()
    if isinstance(value, list) and value and roll < 0.6:
        out = list(value)
        k = rng.randrange(len(out))
        action = rng.randrange(4)
        if action == 0:
            out[k] = mutate(rng, out[k], depth + 1)
        elif action == 1:
            del out[k]
        elif action == 2:
            out.insert(k, rng.choice(out + [random_value(rng)]))
        else:
            out[k] = [out[k]]
        return out
    if isinstance(value, dict) and value and roll < 0.6:
        out = dict(value)
        key = rng.choice(list(out))
        if rng.random() < 0.2:
            del out[key]
        else:
            out[key] = mutate(rng, out[key], depth + 1)
        return out
    if isinstance(value, bool) or value is None:
        pass
    elif isinstance(value, int) and roll < 0.9:
        return rng.choice(INTS)
    elif isinstance(value, str) and roll < 0.9:
        return rng.choice(TEXTS)
    if roll < 0.8:
        return random_value(rng, depth)
    return [value] if rng.random() < 0.5 else {"invalid": value}


def hostile_values(seeds: list, n: int = ROUNDS, seed: int = 16):
    rng = random.Random(seed)
    for _ in range(n):
        value = rng.choice(seeds)
        for _ in range(rng.randrange(1, 4)):
            value = mutate(rng, value)
            if rng.random() < 0.3:
                break
        yield value
    for _ in range(n // 3):
        yield random_value(rng)


def seeds(rs, method: str) -> list:
    """The replies the fuzzing starts from: the record's samples of this RPC; a ruleset that gives
    none for an RPC it reads fails here, naming the field to fill."""
    values = [*rs.sample_replies.get(method, ()), *rs.loose_replies.get(method, ())]
    assert values, f"{rs.name}: RULESET.sample_replies has no reply of {method}() to fuzz from"
    return values


def readers(name: str):
    """(method, reader) pairs: the ruleset code the grader runs on a reply of that RPC."""
    rs = rulesets.load(name)
    game = rs.game()
    start = game.new_state(1)
    later = start.copy()
    rng = random.Random(5)
    for _ in range(3):
        if not later.is_over:
            later.play(later.random_move(rng))
    out = [("move", lambda v, s=s: _Game.legal(s, v)) for s in (start, later) if not s.is_over]
    for probe in rs.probes(game):
        cases = probe.cases(game, 1)
        for case in cases[:2] + cases[-2:]:
            out.append((case.method, case.check))
    return rs, out


@pytest.mark.parametrize("name", rulesets.names())
def test_a_well_shaped_reply_never_makes_ruleset_code_raise(name):
    rs, pairs = readers(name)
    assert {m for m, _ in pairs} <= set(rs.replies) | set(COMMON)
    for method, reader in pairs:
        for value in hostile_values(seeds(rs, method)):
            why = problem(rs.replies, method, value)
            if why is not None:
                assert isinstance(why, str) and why.endswith(".")
                continue
            try:
                result = reader(value)
            except IllegalMove:
                continue
            assert result is None or isinstance(result, (Mismatch, tuple, str, int)), (method, value)   # a Mismatch or a move


def sample(shape: R.Shape, rng: random.Random):
    """A random value of exactly this shape, from adversarial pools (edge numbers, odd texts)."""
    if isinstance(shape, R.OneOf):
        return sample(rng.choice(shape.shapes), rng)
    if isinstance(shape, R.Seq):
        return [sample(item, rng) for item in shape.items]
    if isinstance(shape, R.ListOf):
        return [sample(shape.item, rng) for _ in range(rng.choice([0, 1, 2, 3, 8]))]
    if isinstance(shape, R.Obj):
        out = {k: sample(v, rng) for k, v in shape.required.items()}
        out.update({k: sample(v, rng) for k, v in shape.optional.items() if rng.random() < 0.5})
        return out
    if isinstance(shape, R.Const):
        return shape.value
    if isinstance(shape, R.Int):
        return rng.choice([v for v in INTS if shape.lo <= v <= shape.hi])
    if isinstance(shape, R.Str):
        return rng.choice([t for t in TEXTS + SCALARS if isinstance(t, str) and len(t) <= shape.max_len])
    if isinstance(shape, R.Null):
        return None
    raise AssertionError(f"no sampler for {shape!r}")


@pytest.mark.parametrize("name", rulesets.names())
def test_every_value_of_a_declared_shape_is_read_without_an_exception(name):
    """Sampled from the shapes themselves, so every branch of every shape reaches the ruleset code."""
    rs, pairs = readers(name)
    rng = random.Random(424)
    for method, reader in pairs:
        shape = rs.replies.get(method) or COMMON[method]
        for _ in range(ROUNDS):
            value = sample(shape, rng)
            assert problem(rs.replies, method, value) is None, value
            try:
                result = reader(value)
            except IllegalMove:
                continue
            assert result is None or isinstance(result, (Mismatch, tuple, str, int)), (method, value)   # a Mismatch or a move


@pytest.mark.parametrize("name", rulesets.names())
def test_the_shims_own_replies_have_the_declared_shapes(name):
    """The shapes are the shims' language: every valid reply above, and every engine move, fits."""
    rs = rulesets.load(name)
    assert rs.sample_replies, f"{name}: RULESET.sample_replies is empty"
    for method, values in rs.sample_replies.items():
        for value in values:
            assert problem(rs.replies, method, value) is None, (method, value)
    state = rs.game().new_state(2)
    sent = rs.move_reply or state.move_to_json
    for move in state.legal_moves()[:50]:
        assert problem(rs.replies, "move", sent(move)) is None, move
        assert state.parse_move(sent(move)) == move, move


@pytest.mark.parametrize("value", [[[[1], [2]]], [[1, "a"], [0, 0]], [[2 ** 63, 1]], {"invalid": 3}, 7])
def test_the_issues_probe_answers_are_refused_by_shape(value):
    rs = rulesets.load("quoridor")
    why = problem(rs.replies, "expand_player", value)
    assert why and why.startswith("the reply to expand_player() is ") and "a list of [x, y]" in why


def test_ask_turns_a_wrong_shape_into_protocol_and_closes_the_player():
    class Forger:
        closed = False

        def call(self, method, args, soft=None):
            return CallResult(Verdict.OK, value={"type": 1, "pos": [[1], [2]]}, wall_s=0.1)

        def close(self):
            self.closed = True

    p = Forger()
    res = ask(p, rulesets.load("quoridor").replies, "move", {})
    assert res.verdict is Verdict.PROTOCOL and p.closed and res.wall_s == 0.1
    assert res.message.startswith("The player broke the protocol: the reply to move() is not")


def frames(rng: random.Random):
    """Byte strings a player might write: random bytes, damaged frames, deep or odd JSON."""
    bodies = [b"[" * 30000 + b"]" * 30000, b'{"a":' * 5000 + b"1" + b"}" * 5000, b"[1e999]", b"NaN",
              b'"\\ud800"', b'{"ok":"\\udc80x","id":1}', b"\xff\xfe", b"[" + b"9" * 5000 + b"]",
              json.dumps({"ok": [[1, "a"], [0, 0]], "id": 1}).encode(), b'{"ok":' + b"[" * 40 + b"]" * 40 + b"}"]
    for body in bodies:
        yield wire.HEADER.pack(len(body)) + body
    for _ in range(400):
        kind = rng.randrange(3)
        if kind == 0:
            yield bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
        else:
            body = json.dumps(random_value(rng)).encode()
            if kind == 2 and body:
                k = rng.randrange(len(body))
                body = body[:k] + bytes([rng.randrange(256)]) + body[k + 1:]
            yield wire.HEADER.pack(len(body)) + body


def test_no_byte_string_makes_the_frame_decoder_raise_anything_but_wire_error():
    rng = random.Random(3)
    for data in frames(rng):
        buf = wire.FrameBuffer(64 * 1024)
        buf.feed(data)
        try:
            got = buf.pop()
        except wire.WireError as exc:
            assert str(exc) and "\n" not in str(exc)
            continue
        if got is not None:                       # whatever comes out can be printed and stored
            json.dumps(got[0]).encode("utf-8")
            str(got[0]).encode("utf-8")


def test_the_decoder_bounds_depth_numbers_and_text():
    deep = b"[" * 30000 + b"]" * 30000
    with pytest.raises(wire.WireError, match="nested more than 32"):
        wire.decode_reply(deep)
    assert wire.decode_reply(b"[" * 32 + b"]" * 32) is not None
    assert wire.decode_reply(b'["[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["]') == ["[" * 40]
    for body in (b"[1e999]", b"[NaN]", b"[Infinity]", b"[9223372036854775808]"):
        with pytest.raises(wire.WireError):
            wire.decode_reply(body)
    assert wire.decode_reply(b'{"k\\udc80":"a\\ud800"}') == {"k\ufffd\ufffd\ufffd": "a\ufffd\ufffd\ufffd"}
