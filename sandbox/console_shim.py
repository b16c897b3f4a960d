"""A generic shim for submissions that are an interactive command-line program (stdin/stdout).

The sandbox forbids child processes, so the student's script runs here, in a thread of the player
process: `runpy.run_path` with `sys.argv` from `rpc_launch`, `sys.stdin` fed line by line by
`rpc_send`, and everything it prints (print, input() prompts, stderr) captured. Each call returns
once the program blocks reading its stdin (detected exactly: the stdin reader signals before it
waits) or ends; a program that does neither is stopped by the call's time limit (KILLED/LATE).

Every reply is {"output", "waiting", "exited", "exit_code", "error"}; "output" is what the program
printed since the previous reply, trimmed to `options["output_chars"]` (default 8000) with a note.
Knows nothing about games.
"""
from __future__ import annotations

import io
import os
import runpy
import sys
import threading
import traceback
from collections import deque
from collections.abc import Iterator
from typing import Any

PRELOAD: list[str] = ["runpy", "traceback"]
OUTPUT_CHARS = 8000


class Console:
    """The program's side of the terminal: a line queue for stdin, a buffer for stdout/stderr."""

    def __init__(self, limit: int) -> None:
        self.cond = threading.Condition()
        self.lines: deque[str] = deque()
        self.eof = False
        self.waiting = False
        self.done = False
        self.exit_code: int | None = None
        self.error: str | None = None
        self.limit = limit
        self.chunks: list[str] = []
        self.size = 0
        self.dropped = 0

    # ------------------------------------------------------------------ program side
    def write(self, text: str) -> None:
        with self.cond:
            self.chunks.append(text)
            self.size += len(text)
            if self.size > 2 * self.limit:           # keep memory bounded: only the tail survives
                joined = "".join(self.chunks)
                self.dropped += len(joined) - self.limit
                self.chunks, self.size = [joined[-self.limit:]], self.limit

    def readline(self) -> str:
        """The next fed line ("" at end of input); tells the manager it is waiting before blocking."""
        with self.cond:
            if not self.lines and not self.eof:
                self.waiting = True
                self.cond.notify_all()
                self.cond.wait_for(lambda: self.lines or self.eof)
                self.waiting = False
            return self.lines.popleft() if self.lines else ""

    def finish(self, exit_code: int | None, error: str | None) -> None:
        with self.cond:
            self.done, self.exit_code, self.error = True, exit_code, error
            self.cond.notify_all()

    # ------------------------------------------------------------------ manager side
    def feed(self, line: str | None) -> None:
        with self.cond:
            if line is None:
                self.eof = True
            else:
                self.lines.append(line if line.endswith("\n") else line + "\n")
            self.waiting = False                     # until the reader blocks again
            self.cond.notify_all()

    def settle(self) -> dict[str, Any]:
        """Wait until the program reads from an empty stdin or ends; what it printed meanwhile."""
        with self.cond:
            self.cond.wait_for(lambda: self.done or (self.waiting and not self.lines))
            text = "".join(self.chunks)
            dropped = self.dropped + max(0, len(text) - self.limit)
            if dropped:
                text = f"[{dropped} earlier characters of output trimmed]\n" + text[-self.limit:]
            self.chunks, self.size, self.dropped = [], 0, 0
            return {"output": text, "waiting": not self.done, "exited": self.done,
                    "exit_code": self.exit_code, "error": self.error}


class _Stream(io.TextIOBase):
    """sys.stdin / sys.stdout / sys.stderr for the program: the console, never a real file."""

    def __init__(self, console: Console, writable: bool) -> None:
        self.console, self._writable = console, writable

    def readable(self) -> bool:
        return not self._writable

    def writable(self) -> bool:
        return self._writable

    def isatty(self) -> bool:
        return False

    @property
    def encoding(self) -> str:  # type: ignore[override]  # read-only: the console is always UTF-8
        return "utf-8"

    def fileno(self) -> int:
        raise io.UnsupportedOperation("the console has no file descriptor")

    def write(self, text: object) -> int:
        if not self._writable:
            raise io.UnsupportedOperation("not writable")
        text = str(text)
        self.console.write(text)
        return len(text)

    def flush(self) -> None:
        pass

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]  # text, as TextIOBase
        if self._writable:
            raise io.UnsupportedOperation("not readable")
        return self.console.readline()

    def read(self, size: int | None = -1) -> str:
        if self._writable:
            raise io.UnsupportedOperation("not readable")
        parts: list[str] = []
        while size is None or size < 0 or sum(map(len, parts)) < size:
            line = self.console.readline()
            if not line:
                break
            parts.append(line)
        return "".join(parts)

    def readlines(self, hint: int = -1) -> list[str]:  # type: ignore[override]  # text, as TextIOBase
        return list(iter(self.readline, ""))

    def __iter__(self) -> Iterator[str]:  # type: ignore[override]  # text, as TextIOBase
        return iter(self.readline, "")


def _exit_code(code: object) -> int:
    if code is None:
        return 0
    return code if isinstance(code, int) else 1


class ConsoleHandler:
    """One program run per process: launch it, then feed it lines."""

    def __init__(self, script: str, output_chars: int) -> None:
        self.script = script
        self.console = Console(output_chars)
        self.thread: threading.Thread | None = None

    def rpc_interface(self) -> list[str]:
        return []

    def rpc_launch(self, argv: list[str] | None = None) -> dict[str, Any]:
        """Start the program with these arguments; its output until it waits for input or ends."""
        if self.thread is not None:
            raise RuntimeError("the program was already launched in this process")
        args = [str(a) for a in (argv or [])]
        streams = (sys.stdin, sys.stdout, sys.stderr)
        out = _Stream(self.console, True)

        def run() -> None:
            code, error = 0, None
            try:
                runpy.run_path(self.script, run_name="__main__")
            except SystemExit as exc:
                code = _exit_code(exc.code)
                if exc.code is not None and not isinstance(exc.code, int):
                    out.write(f"{exc.code}\n")
            except BaseException as exc:
                out.write("".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
                code = 1
                error = traceback.format_exception_only(type(exc), exc)[-1].strip()[:500]
            finally:
                sys.stdin, sys.stdout, sys.stderr = streams
                self.console.finish(code, error)

        sys.argv = [os.path.basename(self.script), *args]
        sys.stdin, sys.stdout, sys.stderr = _Stream(self.console, False), out, out
        self.thread = threading.Thread(target=run, name="student-program", daemon=True)
        self.thread.start()
        return self.console.settle()

    def rpc_send(self, line: str) -> dict[str, Any]:
        """Type one line into the program's stdin; its output until it waits again or ends."""
        if self.thread is None:
            raise RuntimeError("the program was not launched")
        if self.console.done:
            reply = self.console.settle()
            reply["error"] = reply["error"] or "the program had already ended; the line was not read"
            return reply
        self.console.feed(str(line))
        return self.console.settle()

    def rpc_end_input(self) -> dict[str, Any]:
        """Close the program's stdin (end of file); its output until it waits or ends."""
        if self.thread is None:
            raise RuntimeError("the program was not launched")
        self.console.feed(None)
        return self.console.settle()


def open_submission(path: str, options: dict[str, Any]) -> ConsoleHandler:
    entry = options.get("entry", "main.py")
    script = os.path.join(path, entry)
    if not os.path.isfile(script):
        raise FileNotFoundError(f"the submission has no {entry}")
    return ConsoleHandler(script, int(options.get("output_chars", OUTPUT_CHARS)))
