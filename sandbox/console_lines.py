"""A compiled console program (C, C++, Rust) played through its own stdin and stdout.

The program is exec'd with `io="lines"` (sandbox/command.py): its stdin is the request pipe, its
stdout the reply pipe. It cannot say when it waits for input, so the manager sees it from outside,
in the kernel's own account of the process (/proc/<pid>/task/<tid>/stat and .../syscall): the
program waits for input when its stdin pipe is empty (FIONREAD), every thread of it sleeps (state
S), and one of them sleeps inside `read`/`readv` on fd 0. The output is drained after that is seen
(a program blocked reading writes nothing more), so a reply holds everything printed before the
question. A program that sleeps, spins or waits on anything else is never taken for waiting: the
call's time limit ends it. Calls and replies are those of sandbox/console_shim.py ("launch",
"send", "end_input"; {"output", "waiting", "exited", "exit_code", "error"}), so the console driver
plays it as it plays a Python or Java one.

Reading another process's syscall needs ptrace access to it (the kernel's PTRACE_MODE_ATTACH):
`unavailable_reason(pid)` says, in a sentence, when the manager lacks it (or the machine's
architecture is not one whose `read` number is known here), and the driver then asks for a human,
as it does for a scenario that starts the program with command-line arguments (the program was
exec'd before the first call: none can be given to it yet).
"""
from __future__ import annotations

import os
import platform
import signal
import struct
import time
from typing import Any

try:
    import fcntl
    import termios
except ImportError:                  # Windows (the portable sandbox): unavailable_reason says so
    fcntl = termios = None  # type: ignore[assignment]

from .line_protocol import LineConversation
from .process import PlayerProcess
from .verdict import CallResult, Verdict

OUTPUT_CHARS = 8000
POLL_S = 0.005                       # how often a silent program is looked at
READS = {"x86_64": (0, 19), "aarch64": (63, 65)}          # read, readv
STDIN_FD = "0x0"


def _read_text(path: str) -> str:
    with open(path) as f:
        return f.read()


def waiting_for_input(pid: int, stdin_w: int) -> bool:
    """Whether process `pid` waits for a line: its stdin pipe (whose write end is `stdin_w`) is
    empty, all its threads sleep, and one sleeps in read(0). OSError when /proc cannot be read."""
    reads = READS[platform.machine()]
    if struct.unpack("i", fcntl.ioctl(stdin_w, termios.FIONREAD, b"\0\0\0\0"))[0]:
        return False
    reading = False
    for tid in os.listdir(f"/proc/{pid}/task"):
        base = f"/proc/{pid}/task/{tid}"
        stat = _read_text(f"{base}/stat")
        if stat[stat.rindex(")") + 2] != "S":
            return False
        words = _read_text(f"{base}/syscall").split()
        if len(words) > 1 and words[0].isdigit() and int(words[0]) in reads and words[1] == STDIN_FD:
            reading = True
    return reading


def unavailable_reason(pid: int) -> str | None:
    """Why the manager cannot see process `pid` wait for input, or None when it can."""
    if fcntl is None:
        return "this system has no /proc to show when a program waits for its input"
    if platform.machine() not in READS:
        return f"the grader does not know the read system call's number on {platform.machine()}"
    try:
        _read_text(f"/proc/{pid}/syscall")
    except OSError as exc:
        return f"the grader may not read the program's system calls in /proc ({exc.strerror})"
    return None


class ConsoleOutput:
    """What the program prints during one call (sandbox.player.Incoming): `pop()` gives the reply
    once the program waits for input."""

    poll_s = POLL_S

    def __init__(self, proc: PlayerProcess, pending: bytes, limit: int) -> None:
        self.proc, self.limit = proc, limit
        self.data = bytearray()
        self.out = bytearray(pending)
        self.dropped = 0

    def feed(self, chunk: bytes) -> None:
        self.out += chunk
        if len(self.out) > 8 * self.limit:                # the tail alone is kept
            self.dropped += len(self.out) - 4 * self.limit
            del self.out[:len(self.out) - 4 * self.limit]

    def drain(self) -> None:
        """What the reply pipe still holds (the program is blocked: it writes no more)."""
        assert self.proc.rep_r is not None
        while True:
            try:
                chunk = os.read(self.proc.rep_r, 1 << 16)
            except BlockingIOError:
                return
            if not chunk:
                return
            self.feed(chunk)

    def pop(self) -> tuple[Any] | None:
        assert self.proc.proc is not None
        if self.proc.req_w is None:
            return None                   # its stdin is at end of file: a read cannot wait
        try:
            waiting = waiting_for_input(self.proc.proc.pid, self.proc.req_w)
        except OSError:
            return None                   # it is ending: the reply pipe's EOF says so
        if not waiting:
            return None
        self.drain()
        return (self.reply(waiting=True, exit_code=None, error=None),)

    def reply(self, waiting: bool, exit_code: int | None, error: str | None) -> dict[str, Any]:
        text = bytes(self.out).decode("utf-8", errors="replace")
        dropped = self.dropped + max(0, len(text) - self.limit)
        if dropped:
            text = f"[{dropped} earlier characters of output trimmed]\n" + text[-self.limit:]
        return {"output": text, "waiting": waiting, "exited": not waiting, "exit_code": exit_code, "error": error}


class ConsoleLines:
    """The adapter a LineConversation calls (sandbox/line_protocol.py): one console call at a time."""

    def __init__(self, output_chars: int = OUTPUT_CHARS) -> None:
        self.output_chars = output_chars

    def call(self, conversation: LineConversation, method: str, args: dict[str, Any], soft: float) -> CallResult:
        proc = conversation.proc
        if not isinstance(proc, PlayerProcess) or proc.proc is None:
            return CallResult(Verdict.INFRA, message="the program does not run in a Linux sandbox process")
        if method not in ("launch", "send", "end_input"):
            return CallResult(Verdict.PROTOCOL, message=f"a console program has no call {method!r}")
        if not proc.alive:
            return proc.repeat_death()
        why = unavailable_reason(proc.proc.pid)
        if why is not None:
            return CallResult(Verdict.INFRA, message=f"the grader cannot tell when it waits for its input here ({why})")
        if method == "launch" and args.get("argv"):
            return CallResult(Verdict.INFRA, message="the grader cannot yet give a C, C++ or Rust console program "
                                                     "command-line arguments")
        incoming = ConsoleOutput(proc, bytes(conversation.pending), self.output_chars)
        conversation.pending = bytearray()
        timer = proc.begin(soft)
        if method == "send":
            line = str(args.get("line", ""))
            if not proc.send((line if line.endswith("\n") else line + "\n").encode(), timer):
                return proc.timeout(timer)
        elif method == "end_input" and proc.req_w is not None:
            os.close(proc.req_w)
            proc.req_w = None
        got = proc.receive(incoming, timer)
        if isinstance(got, CallResult):
            if proc.status is None or got.verdict not in (Verdict.EXITED, Verdict.CRASHED):
                return got
            incoming.drain()
            code = os.waitstatus_to_exitcode(proc.status)
            error = None if code == 0 else f"signal {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"
            return CallResult(Verdict.OK, incoming.reply(False, code, error),
                              wall_s=time.perf_counter() - timer.start)
        return proc.answered(timer, got)
