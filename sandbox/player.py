"""What the grader asks of a player, and what a player process asks of its child: two Protocols.

`Player` is the interface match.py, validation.py and the benchmarks call: PlayerProcess (Linux),
PortablePlayerProcess (psutil), InProcessPlayer (no sandbox) and the tests' scripted fakes all
satisfy it, and mypy checks that they do (`_conforming` below). `Child` is what PlayerProcess
needs of the process it started, whichever way it was started: spawned (sandbox/spawn.py),
forked from a template (sandbox/prefork.py) or driven through psutil (sandbox/portable.py).
`Transport` is what a conversation (sandbox/rpc.py, sandbox/line_protocol.py) needs of the process
it speaks through, as python-chess keeps its engine protocols apart from asyncio's transport.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .limits import Limits
from .verdict import CallResult, ProcessReport, Verdict

if TYPE_CHECKING:
    from .inprocess import InProcessPlayer
    from .portable import PortablePlayerProcess
    from .process import CallTimer, PlayerProcess


@runtime_checkable
class Player(Protocol):
    """A player the grader talks to: nothing it does raises, every call returns a CallResult."""

    @property
    def alive(self) -> bool:
        """Whether it can take another call."""
        ...

    def start(self) -> CallResult:
        """Start it and open the submission (the limits' start_s)."""
        ...

    def call(self, method: str, args: dict[str, Any] | None = None, soft: float | None = None) -> CallResult:
        """One call into the submission, late after `soft` seconds (the limits' call_s if None)."""
        ...

    def close(self) -> ProcessReport:
        """Stop it; idempotent."""
        ...


class Usage(Protocol):
    """The part of a `resource.struct_rusage` that is read: CPU seconds and peak memory (KB)."""

    @property
    def ru_utime(self) -> float: ...
    @property
    def ru_stime(self) -> float: ...
    @property
    def ru_maxrss(self) -> float: ...


Ended = tuple[int, Usage]            # (wait status, resource usage) of a child that has ended


class Child(Protocol):
    """A started child process, as PlayerProcess drives it."""

    pid: int                         # as the manager's /proc sees it (the host's pid)
    returncode: int | None

    def signal_group(self, sig: Any) -> None:
        """SIGSTOP, SIGCONT or SIGKILL to the child and everything it started."""

    def wait_stop(self) -> Ended | None:
        """Block until it is stopped (None) or has ended; ChildProcessError when it cannot be waited for."""

    def wait_end(self, timeout: float | None) -> Ended | None:
        """Its end once it has ended; None if it still runs after `timeout` seconds."""

    def release(self) -> None:
        """Let go of what was held to watch it (it has been collected)."""


class Incoming(Protocol):
    """Bytes from the untrusted player, cut into messages: sandbox.wire.FrameBuffer (frames) or
    sandbox.line_protocol.LineBuffer (lines). `data` is what has come but is not yet a message.
    One that may become whole with no byte arriving (sandbox.console_lines.ConsoleOutput: the
    program waits for input) has `poll_s`, and `receive` asks it again at least that often."""

    data: bytearray

    def feed(self, chunk: bytes) -> None: ...

    def pop(self) -> tuple[Any] | None:
        """The next whole message's value in a 1-tuple, None while incomplete; WireError when bad."""
        ...


class Transport(Protocol):
    """The player process as a conversation sees it: PlayerProcess (and PortablePlayerProcess).
    Each call is `begin` (write the request while frozen, start the clocks, thaw), `send` (what
    did not fit), `receive`, then `answered` (freeze,
    OK or LATE) or one of the fatal results, which kill the player and are kept as its death."""

    limits: Limits
    t_spawn: float

    def begin(self, soft: float, t0: float | None = None, request: bytes = b"") -> CallTimer: ...
    def send(self, data: bytes, timer: CallTimer) -> bool: ...
    def receive(self, incoming: Incoming, timer: CallTimer) -> Any: ...
    def answered(self, timer: CallTimer, value: Any) -> CallResult: ...
    def receive_ready(self, incoming: Incoming, timer: CallTimer) -> CallResult | None: ...
    def pending_bytes(self) -> int | None: ...
    def freeze(self) -> None: ...
    def timeout(self, timer: CallTimer) -> CallResult: ...
    def fail(self, verdict: Verdict, message: str) -> CallResult: ...
    def died_unexpectedly(self) -> CallResult: ...
    def repeat_death(self) -> CallResult: ...

    @property
    def alive(self) -> bool: ...


def _conforming(a: PlayerProcess, b: PortablePlayerProcess, c: InProcessPlayer) -> list[Player]:
    """Never called: mypy checks here that every player class is a Player."""
    return [a, b, c]
