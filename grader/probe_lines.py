"""Probe cases of one line played once (issue 40.7): a game cut at several lengths is one game.

A probe whose player cannot be handed a position (Double Card's) reaches each position by playing
a game from the start in a fresh process. Cases of one `ProbeCase.line` are the same game cut at
different lengths: a shorter case's calls are the first ones of the longest case's. So the longest
is played once, in one process, with every call's result on a `Tape`, and each shorter case is
asked of a `Replay` of that tape: the same validator code judges it on exactly what the player
answered to exactly those calls, as if it had been asked alone, without a process of its own.

The player sees one game where it saw several of different lengths: a full game, as in a league,
never a pattern a game lacks. Where a shorter case would make a call the tape does not hold (the
same method with the same arguments at the same place, given the same time), it is played for
real in a process of its own (`OffTape`), as before.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from sandbox import CallResult, ProcessReport


class OffTape(Exception):
    """A replayed case asked what the line's process was never asked: play it for real."""


@dataclass
class _Call:
    method: str
    args: Any
    soft: float | None
    result: CallResult
    alive: bool                 # whether the process was still alive after the call


@dataclass
class Tape:
    """What the line's process answered: its start, then every call in order. `done` is set once
    the longest case has been judged; `usable` is False if it could not be recorded whole."""

    start: CallResult | None = None
    calls: list[_Call] = field(default_factory=list)
    report: ProcessReport = field(default_factory=ProcessReport)
    done: threading.Event = field(default_factory=threading.Event)
    usable: bool = False

    def recording(self, factory):
        """A player factory whose every start begins the tape anew (an infra retry is a new process)."""
        def start_recorded(**kwargs):
            self.start, self.calls = None, []
            return _Recorded(factory(**kwargs), self)
        return start_recorded

    def replaying(self, **_kwargs) -> Replay:
        """A player factory (its arguments are the line's): a replay of this tape."""
        return Replay(self)


class _Recorded:
    """The line's real process, every start and call copied onto the tape."""

    def __init__(self, proc, tape: Tape) -> None:
        self.proc, self.tape = proc, tape

    @property
    def alive(self) -> bool:
        return self.proc.alive

    def start(self) -> CallResult:
        self.tape.start = self.proc.start()
        return self.tape.start

    def call(self, method: str, args: dict | None = None, soft: float | None = None) -> CallResult:
        res = self.proc.call(method, args) if soft is None else self.proc.call(method, args, soft=soft)
        self.tape.calls.append(_Call(method, args, soft, res, self.proc.alive))
        return res

    def close(self) -> ProcessReport:
        self.tape.report = self.proc.close()
        return self.tape.report


class Replay:
    """A player process that answers from a tape: the same results, in the same order, to the same calls."""

    def __init__(self, tape: Tape) -> None:
        self.tape = tape
        self.at = 0
        self.alive = True

    def start(self) -> CallResult:
        if self.tape.start is None:
            raise OffTape("the line's process never started")
        self.alive = self.tape.start.ok
        return self.tape.start

    def call(self, method: str, args: dict | None = None, soft: float | None = None) -> CallResult:
        if self.at >= len(self.tape.calls):
            raise OffTape(f"the line's process was asked no call {self.at + 1}")
        rec = self.tape.calls[self.at]
        if (rec.method, rec.args, rec.soft) != (method, args, soft):
            raise OffTape(f"call {self.at + 1} differs from the line's")
        self.at += 1
        self.alive = rec.alive
        return rec.result

    def close(self) -> ProcessReport:
        self.alive = False
        return self.tape.report
