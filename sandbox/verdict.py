"""Typed outcomes of calls into a player: data the league acts on, never exceptions."""
from __future__ import annotations

import enum
import os
import signal
from dataclasses import dataclass, field
from typing import Any


class Verdict(str, enum.Enum):
    OK = "ok"                    # answered in time
    LATE = "late"                # answered after the soft limit, before the hard kill
    KILLED = "killed"            # no answer by the hard limit: the process was killed
    MEMORY = "memory"            # the memory limit was hit: the process is gone
    ERROR = "error"              # the player's code raised; the process is alive (traceback kept)
    CRASHED = "crashed"          # the process died by a signal or a non-zero exit
    EXITED = "exited"            # the process exited (status 0) without answering
    PROTOCOL = "protocol"        # bad, oversized or unasked-for message: the process was killed
    INFRA = "infra"              # a host fault the grader recorded ended it (sandbox/blame.py): replayed

    @property
    def answered(self) -> bool:
        return self in (Verdict.OK, Verdict.LATE)

    @property
    def fatal(self) -> bool:
        """The process cannot take further calls."""
        return self not in (Verdict.OK, Verdict.LATE, Verdict.ERROR)


@dataclass
class CallResult:
    """One call's outcome. `value` is the JSON reply when answered; `message` one plain sentence.
    `wall_s` is real time; `queued_s` the part of it the player spent waiting for a CPU that other
    load held, which its wall-clock limits do not count (`own_s`, sandbox/limits.py)."""

    verdict: Verdict
    value: Any = None
    message: str = ""
    wall_s: float = 0.0
    cpu_s: float = 0.0
    traceback: str = ""
    queued_s: float = 0.0
    java_error: bool = False         # ERROR: the Java code threw a java.lang.Error, not an Exception

    @property
    def own_s(self) -> float:
        """The wall-clock time that was the player's own: what a wall-clock limit measures."""
        return max(0.0, self.wall_s - self.queued_s)

    @property
    def ok(self) -> bool:
        return self.verdict is Verdict.OK


@dataclass
class ProcessReport:
    """What is known about a player process once it is closed."""

    peak_memory_mb: float | None = None
    output: str = ""                 # captured stdout+stderr, trimmed to Limits.output_kb
    output_dropped: int = 0          # bytes counted and dropped beyond the cap
    exit_status: str = ""            # "exit 0", "signal SIGKILL", ...
    cpu_s: float = 0.0
    protections: dict[str, str] = field(default_factory=dict)
    kills: list[str] = field(default_factory=list)     # each SIGKILL the grader sent, with why


def describe_status(status: int) -> str:
    """A wait status in words: "exit 1", "signal SIGKILL"."""
    code = os.waitstatus_to_exitcode(status)
    return f"signal {signal.Signals(-code).name}" if code < 0 else f"exit {code}"
