"""Fuzzing the manager's side of a reply: no bytes and no JSON value a player can send make the
grader's own code raise.

A hostile player writes straight to its reply pipe, so everything after the pipe is tried here
with seeded random inputs (the same inputs every run): the frame decoder over byte strings, and
for every discovered ruleset and every RPC it declares (seeded from the replies its record says
its shim makes, `sample_replies`, and the other forms its code reads, `loose_replies`), the shape check followed by the ruleset code that
reads a well-shaped reply (the engine's parse_move and the probes' checks). Only the rules' own
refusal (IllegalMove, a Mismatch) may come out; tests/grader/test_hostile_players.py sends such
replies from real sandboxed processes. The fuzzing itself is grader/reply_fuzz.py, which
`grader selftest` runs too.
"""
from __future__ import annotations

import dataclasses
import json
import random

import pytest

import rulesets
from grader import reply_fuzz
from grader.replies import ask
from grader.reply_fuzz import random_value
from rulesets.replies import problem
from sandbox import CallResult, Verdict, wire


@pytest.mark.parametrize("name", rulesets.names())
def test_a_well_shaped_reply_never_makes_ruleset_code_raise(name):
    assert reply_fuzz.fuzz_from_samples(rulesets.load(name)) > 0


@pytest.mark.parametrize("name", rulesets.names())
def test_every_value_of_a_declared_shape_is_read_without_an_exception(name):
    """Sampled from the shapes themselves, so every branch of every shape reaches the ruleset code."""
    assert reply_fuzz.fuzz_from_shapes(rulesets.load(name)) > 0


@pytest.mark.parametrize("name", rulesets.names())
def test_the_shims_own_replies_have_the_declared_shapes(name):
    """The shapes are the shims' language: every valid reply above, and every engine move, fits."""
    reply_fuzz.own_replies_fit(rulesets.load(name))


def test_a_sample_reply_the_shapes_refuse_is_named_in_a_sentence():
    rs = dataclasses.replace(rulesets.load("colosseum"), sample_replies={"move": ("north",)})
    with pytest.raises(reply_fuzz.Raised, match=r"^colosseum: the sample reply 'north' to move\(\) is refused"):
        reply_fuzz.own_replies_fit(rs)


def test_a_reader_that_raises_on_a_well_shaped_reply_is_named_in_a_sentence():
    rs = rulesets.load("colosseum")
    with pytest.raises(reply_fuzz.Raised, match=r"fits the declared shape, yet the ruleset's code raised KeyError"):
        reply_fuzz.read(rs, "move", lambda value: {}[value], 3)


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
