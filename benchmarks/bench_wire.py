"""What reading a reply safely costs: the bounded decoder and the shape check, against plain JSON.

The manager decodes every reply with `sandbox.wire.decode_reply` (depth, numbers, text bounded)
and the grader checks its shape (`rulesets.replies.problem`) before ruleset code reads it. Rows:
a Quoridor move, a 2 KB `expand_obstacles` answer, a 30 000-deep array (refused), and 64 KB of
escaped quotes in a string that never closes (refused; the nesting check once took ~26 s on it).
"""
from __future__ import annotations

import json
import statistics
import time

import rulesets
from rulesets.replies import problem
from sandbox import wire

REPEAT = 2000


def _median_us(fn) -> float:
    times = []
    for _ in range(REPEAT):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return round(statistics.median(times) * 1e6, 1)


def _safe(body: bytes, replies: dict, method: str):
    try:
        return problem(replies, method, wire.decode_reply(body)["ok"])
    except wire.WireError as exc:
        return str(exc)


def _plain(body: bytes):
    try:
        return json.loads(body)
    except (ValueError, RecursionError) as exc:
        return str(exc)


def run():
    replies = rulesets.load("quoridor").replies
    cases = [
        ("a move", "move", json.dumps({"id": 9, "ok": {"type": 2, "edges": [[0, 0, 0, 1], [1, 0, 1, 1]]}})),
        ("2 KB expand_obstacles answer", "expand_obstacles",
         json.dumps({"id": 9, "ok": [[[x, 0, x, 1], [x + 1, 0, x + 1, 1]] for x in range(60)]})),
        ("30 000-deep array (refused)", "move", '{"id": 9, "ok": ' + "[" * 30000 + "]" * 30000 + "}"),
        ("64 KB unclosed string of escaped quotes (refused)", "move", '"' + '\\"' * 32000 + "[]" * 40),
    ]
    rows = []
    for label, method, text in cases:
        body = text.encode()
        plain, safe = _median_us(lambda body=body: _plain(body)), _median_us(
            lambda body=body, method=method: _safe(body, replies, method))
        rows.append({"reply": label, "bytes": len(body), "json.loads µs": plain,
                     "decode_reply + shape µs": safe, "ratio": round(safe / plain, 1)})
    return f"Reading a reply (medians of {REPEAT})", rows
