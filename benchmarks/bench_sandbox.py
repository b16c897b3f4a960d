"""What the sandbox costs: start-up to the first reply, and the round trip of a trivial call.

Each is measured for a spawned PlayerProcess (all protections, freezing between calls), for a
pre-forked one (the same protections, forked from a template that has imported the shim:
sandbox/prefork.py), and for a plain subprocess that speaks the same protocol through the same
child code without restricting itself (no cgroup, rlimits, Landlock, seccomp or freezing), and
for the portable sandbox of macOS and Windows (sandbox/portable.py: psutil's memory watch and
suspension, measured here on Linux). Medians; ratios are against the plain subprocess, and spawned over pre-forked (the speed-up);
the last row puts a call beside a bare pipe round trip (an echo child, no JSON), the floor of any call.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sandbox import Limits, PlayerProcess, prefork, wire
from sandbox.portable import PortablePlayerProcess

SHIM = "sandbox.module_shim"
STARTS = 15
CALLS = 500
PLAIN_CHILD = """
import importlib, json, os, sys
from sandbox import callloop, child, wire
cfg = wire.ChildConfig.from_message(json.loads(sys.argv[1]))
boot = child.Bootstrap(cfg)
shim = importlib.import_module(cfg.shim)
os.chdir(cfg.submission)
sys.path.insert(0, cfg.submission)
callloop.serve(boot, shim, cfg.request_fd, cfg.reply_fd)
"""


class PlainPlayer:
    """The same protocol and child loop, no restriction at all: the baseline."""

    def __init__(self, submission: str) -> None:
        req_r, self.req_w = os.pipe()
        self.rep_r, rep_w = os.pipe()
        cfg = {"shim": SHIM, "submission": submission, "request_fd": req_r, "reply_fd": rep_w}
        self.proc = subprocess.Popen([sys.executable, "-I", "-c", PLAIN_CHILD, json.dumps(cfg)],
                                     pass_fds=(req_r, rep_w), cwd=submission, stdout=subprocess.DEVNULL)
        os.close(req_r)
        os.close(rep_w)
        self.seq = 0

    def request(self, message: dict):
        self.seq += 1
        wire.write_all(self.req_w, wire.encode({**message, "id": self.seq}))
        return wire.read_message(self.rep_r)

    def start(self):
        self.request({"open": {}})
        return wire.read_message(self.rep_r)          # the ready frame came first, then this reply

    def close(self) -> None:
        os.close(self.req_w)
        self.proc.wait()
        os.close(self.rep_r)


ECHO_CHILD = "import os\nwhile True:\n    data = os.read(0, 4096)\n    if not data:\n        break\n    os.write(1, data)\n"


def pipe_round_trip() -> float:
    """Median seconds of a bare round trip: 40 bytes written to a child's stdin and read back from
    its stdout (a Python loop of os.read/os.write; no JSON, no sandbox): the floor of any call."""
    child = subprocess.Popen([sys.executable, "-I", "-c", ECHO_CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    message, trips = b'{"method": "ping", "args": {}, "id": 1}\n', []
    for _ in range(CALLS):
        t0 = time.perf_counter()
        os.write(child.stdin.fileno(), message)
        got = os.read(child.stdout.fileno(), 4096)
        trips.append(time.perf_counter() - t0)
        assert got == message
    child.stdin.close()
    child.wait()
    return statistics.median(trips)


def _median_ms(values) -> float:
    return round(statistics.median(values) * 1000, 3)


def _measure(make, start, call, close) -> tuple[float, float]:
    starts, trips = [], []
    for _ in range(STARTS):
        t0 = time.perf_counter()
        p = make()
        start(p)
        starts.append(time.perf_counter() - t0)
        close(p)
    p = make()
    start(p)
    for _ in range(CALLS):
        t0 = time.perf_counter()
        call(p)
        trips.append(time.perf_counter() - t0)
    close(p)
    return _median_ms(starts), _median_ms(trips)


def run():
    with tempfile.TemporaryDirectory(prefix="bench-sandbox-") as tmp:
        os.chmod(tmp, 0o755)                    # as staged: readable by the player's own uid
        Path(tmp, "player.py").write_text("def ping():\n    return 'pong'\n")
        limits = Limits()

        def sandboxed_start(p):
            assert p.start().ok

        def sandboxed_call(p):
            assert p.call("ping").ok

        sandboxed = _measure(lambda: PlayerProcess(SHIM, tmp, limits, name="bench"), sandboxed_start,
                             sandboxed_call, lambda p: p.close())
        with prefork.PreforkPool() as pool:
            warm = PlayerProcess(SHIM, tmp, limits, prefork=pool)      # the template starts once
            assert warm.start().ok and warm.started_by == "prefork", pool.last_error
            warm.close()
            forked = _measure(lambda: PlayerProcess(SHIM, tmp, limits, name="bench", prefork=pool),
                              sandboxed_start, sandboxed_call, lambda p: p.close())

        portable = _measure(lambda: PortablePlayerProcess(SHIM, tmp, limits, name="bench"), sandboxed_start,
                            sandboxed_call, lambda p: p.close())

        def plain_call(p):
            assert p.request({"method": "ping", "args": {}})["ok"] == "pong"

        plain = _measure(lambda: PlainPlayer(tmp), lambda p: p.start(), plain_call, lambda p: p.close())
        pipe_ms = _median_ms([pipe_round_trip()])
    rows = []
    for what, i in (("start to first reply", 0), ("trivial call round trip", 1)):
        rows.append({"measure": what, "sandbox ms": sandboxed[i], "pre-forked ms": forked[i],
                     "plain subprocess ms": plain[i], "portable ms": portable[i], "sandbox / plain": round(sandboxed[i] / plain[i], 1),
                     "pre-forked / plain": round(forked[i] / plain[i], 2),
                     "sandbox / pre-forked": round(sandboxed[i] / forked[i], 1)})
    rows.append({"measure": "a call over a bare pipe round trip (echo child, no JSON)",
                 "sandbox ms": round(sandboxed[1] / pipe_ms, 1), "pre-forked ms": round(forked[1] / pipe_ms, 1),
                 "plain subprocess ms": f"pipe: {pipe_ms} ms", "portable ms": round(portable[1] / pipe_ms, 1),
                 "sandbox / plain": "(ratios, not ms)", "pre-forked / plain": "", "sandbox / pre-forked": ""})
    return f"Sandbox cost (medians of {STARTS} starts, {CALLS} calls)", rows


if __name__ == "__main__":
    title, rows = run()
    print(title)
    for row in rows:
        print(row)
