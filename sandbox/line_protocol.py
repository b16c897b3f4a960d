"""The line dialect: a program (any language) that reads a line on stdin and answers with a line.

Over the transport (a PlayerProcess, sandbox/player.py `Transport`) whose child exec'd the program
with `io="lines"` (sandbox/command.py): the sandbox's ready frame first (framed, from the trusted
bootstrap), then text. What the lines say is a ruleset's adapter (rulesets/lines.py): its
`call(conversation, method, args, soft)` turns a grader call into lines and calls
`exchange_line` here; starting is the ready frame alone.
"""
from __future__ import annotations

import time
from typing import Any

from . import wire
from .player import Transport
from .verdict import CallResult, Verdict


class LineBuffer:
    """Incremental reader of text lines from an untrusted writer (FrameBuffer's interface):
    `pop()` gives `(line,)` without its newline, or None while the line is incomplete."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.data = bytearray()

    def feed(self, chunk: bytes) -> None:
        self.data += chunk

    def pop(self) -> tuple[Any] | None:
        end = self.data.find(b"\n")
        if end < 0:
            if len(self.data) > self.max_bytes:
                raise wire.WireError(f"the program wrote more than {self.max_bytes // 1024} KB without a newline")
            return None
        line = bytes(self.data[:end]).decode("utf-8", errors="replace").rstrip("\r")
        del self.data[:end + 1]
        return (line,)


class LineConversation:
    """One line-protocol program's conversation; `adapter` is the ruleset's (see above)."""

    def __init__(self, proc: Transport, adapter: Any) -> None:
        self.proc = proc
        self.adapter = adapter
        self.pending = bytearray()            # what the program wrote beyond the last line read

    def start(self, options: dict[str, Any], seed: int | None) -> CallResult:
        """The sandbox's ready frame, then the program's own lines (options and seed are the
        adapter's business: a program gets what its course's harness gave it)."""
        proc = self.proc
        frames = wire.FrameBuffer(proc.limits.message_kb * 1024)
        timer = proc.begin(proc.limits.start_s, t0=proc.t_spawn)
        failed = proc.receive_ready(frames, timer)
        if failed is not None:
            return failed
        self.pending = bytearray(frames.data)       # what the program wrote already, if anything
        proc.freeze()
        return CallResult(Verdict.OK, None, "", time.perf_counter() - proc.t_spawn)

    def call(self, method: str, args: dict[str, Any], soft: float) -> CallResult:
        result: CallResult = self.adapter.call(self, method, args, soft)
        return result

    def exchange_line(self, lines: list[str], soft: float) -> CallResult:
        """Write `lines` to the program's stdin and read one line back (its value), within
        soft/hard limits; the program is frozen again afterwards."""
        proc = self.proc
        if not proc.alive:
            return proc.repeat_death()
        buf = LineBuffer(proc.limits.message_kb * 1024)
        buf.feed(bytes(self.pending))
        self.pending = bytearray()
        timer = proc.begin(soft, request="".join(line + "\n" for line in lines).encode())
        if timer.unsent and not proc.send(timer.unsent, timer):
            return proc.timeout(timer)
        got = proc.receive(buf, timer)
        if isinstance(got, CallResult):
            return got
        self.pending = bytearray(buf.data)
        return proc.answered(timer, got)
