"""Work on a student's bytes outside the grader's own memory: a size check, then a forked child.

The grader reads what students send (an entry file's syntax tree to tell a module from a program,
similarity tokens) in its own trusted process, as root on a server. A 9.5 MB source once took
4.7 GB to parse there. So every such read goes through here: `read_source` refuses a file larger
than `MAX_SOURCE_BYTES` before anything parses it, and `run` calls the reading function in a
forked child under RLIMIT_AS (the address space at the fork plus `memory_mb`) and RLIMIT_CPU, with
a wall-clock backstop, and returns its result through a pipe (pickled). When the child runs out
of memory or time, `run` raises `Refused` with one sentence for the student; the grader's own
memory never holds more than the result.

The function runs in a copy of the grader made by fork(): it must import nothing new, start no
thread and take no lock another thread may hold (pure computation on its arguments: `ast.parse`,
a tokenizer).
"""
from __future__ import annotations

import math
import os
import pickle
import resource
import select
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

MAX_SOURCE_BYTES = 1_000_000     # the largest source file the grader reads itself
MEMORY_MB = 512                     # what one read may add to the grader's address space
CPU_S = 5.0                         # CPU seconds one read may use
WALL_FACTOR = 20                    # wall-clock backstop: this many times CPU_S (a loaded machine is slow)
_RESULT_LIMIT = 64 * 1024 * 1024

T = TypeVar("T")


class Refused(Exception):
    """The grader will not (or could not) read a student's file; str(exc) is one sentence for the student."""


@dataclass
class Cost:
    """What the last child used, for `make bench` (peak resident memory in MB, CPU seconds)."""

    max_rss_mb: float = 0.0
    cpu_s: float = 0.0


LAST = Cost()


def read_source(path: Path, limit: int = MAX_SOURCE_BYTES) -> bytes:
    """A student's source file, refused with a sentence when larger than `limit` (checked before reading)."""
    size = path.stat().st_size
    if size > limit:
        raise Refused(f"{path.name} is {_size(size)}; the grader reads source files of at most {_size(limit)} "
                      f"(is data pasted into the code?).")
    with open(path, "rb") as f:
        return f.read(limit + 1)[:limit]


def _size(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.0f} KB"


def _address_space() -> int:
    """Bytes of address space this process holds now (VmSize), 0 if the system does not say."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run(fn: Callable[..., T], *args: Any, what: str, memory_mb: int | None = None, cpu_s: float | None = None) -> T:
    """fn(*args) in a forked child bounded in memory and CPU time (default MEMORY_MB, CPU_S); its result,
    or `Refused` saying that `what` (e.g. "red_blue_nim.py") could not be read within those bounds. An exception fn raises
    is raised here again (as itself when it pickles)."""
    memory_mb = MEMORY_MB if memory_mb is None else memory_mb
    cpu_s = CPU_S if cpu_s is None else cpu_s
    if not hasattr(os, "fork"):
        return fn(*args)                # no fork on this system: the size checks are the only bound
    reader, writer = os.pipe()
    space = _address_space()
    pid = os.fork()
    if pid == 0:                        # the child: never returns
        os.close(reader)
        _child(writer, fn, args, space + memory_mb * 1024 * 1024 if space else 0, cpu_s)
    os.close(writer)
    data, stopped = _collect(reader, pid, cpu_s * WALL_FACTOR + 5)
    _, status, usage = os.wait4(pid, 0)
    LAST.max_rss_mb, LAST.cpu_s = usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime
    bounds = f"{memory_mb} MB and {cpu_s:g} s of the grader's time"
    if stopped or not data:
        cpu_out = os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL)
        raise Refused(f"{what} could not be read within {bounds}: it "
                      f"{stopped or ('took too long' if cpu_out else 'needed more memory')}.")
    outcome, value = pickle.loads(data)
    if outcome == "memory":
        raise Refused(f"{what} could not be read within {bounds}: it needed more memory.")
    if outcome == "raised":
        raise value if isinstance(value, BaseException) else RuntimeError(str(value))
    return value


def _child(writer: int, fn: Callable[..., Any], args: tuple, address_space: int, cpu_s: float) -> None:
    code = 0
    try:
        if address_space:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
        cpu = math.ceil(cpu_s)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        try:
            outcome: tuple[str, Any] = ("ok", fn(*args))
        except MemoryError:
            outcome = ("memory", None)
        except Exception as exc:       # handed back to the caller, as in a direct call
            outcome = ("raised", exc)
        try:
            data = pickle.dumps(outcome)
        except Exception as exc:
            data = pickle.dumps(("raised", RuntimeError(f"unpicklable result: {exc}")))
        view = memoryview(data)
        while view:
            view = view[os.write(writer, view):]
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def _collect(reader: int, pid: int, wall_s: float) -> tuple[bytes, str]:
    """Everything the child writes before it closes the pipe: (data, "") or (b"", why it was stopped)."""
    chunks: list[bytes] = []
    size = 0
    deadline = time.monotonic() + wall_s
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([reader], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                return b"", "took too long"
            chunk = os.read(reader, 1 << 20)
            if not chunk:
                return b"".join(chunks), ""
            size += len(chunk)
            if size > _RESULT_LIMIT:
                os.kill(pid, signal.SIGKILL)
                return b"", "took too long"
            chunks.append(chunk)
    finally:
        os.close(reader)
