"""Work on a student's bytes outside the grader's own memory: a size check, then a forked child.

The grader reads what students send (an entry file's syntax tree to tell a module from a program,
similarity tokens) in its own trusted process, as root on a server. A 9.5 MB source once took
4.7 GB to parse there. So every such read goes through here: `read_source` refuses a file larger
than `MAX_SOURCE_BYTES` before anything parses it, and `run` calls the reading function in a
forked child under RLIMIT_AS (the address space at the fork plus `memory_mb`) and RLIMIT_CPU, with
a wall-clock backstop, and returns its result through a pipe (pickled). When the child runs out
of memory or time, `run` raises `ReadRefused` with one sentence for the student; the grader's own
memory never holds more than the result.

The function runs in a copy of the grader made by fork(): it must import nothing new, start no
thread and take no lock another thread may hold (pure computation on its arguments: `ast.parse`,
a tokenizer).
"""
from __future__ import annotations

import math
import os
import pickle
import select
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

resource: ModuleType | None
try:
    import resource
except ImportError:                  # Windows (the portable sandbox): no rlimits, so no bounded child either
    resource = None

MAX_SOURCE_BYTES = 1_000_000     # the largest source file the grader reads itself
MEMORY_MB = 512                     # what one read may add to the grader's address space
CPU_S = 5.0                         # CPU seconds one read may use
WALL_FACTOR = 20                    # wall-clock backstop: this many times CPU_S (a loaded machine is slow)
_RESULT_LIMIT = 64 * 1024 * 1024

T = TypeVar("T")


class ReadRefused(Exception):
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
        raise ReadRefused(f"{path.name} is {_size(size)}; the grader reads source files of at most {_size(limit)} "
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
    or `ReadRefused` saying that `what` (e.g. "red_blue_nim.py") could not be read within those bounds. An
    exception fn raises is raised here again (as itself when it pickles)."""
    (result,) = run_each(fn, [args], what=lambda _: what, memory_mb=memory_mb, cpu_s=cpu_s)
    if isinstance(result, ReadRefused):
        raise result
    return result


def run_each(fn: Callable[..., T], items: Sequence[tuple], *, what: Callable[[int], str],
             memory_mb: int | None = None, cpu_s: float | None = None) -> list[T | ReadRefused]:
    """fn(*item) for every item, in one forked child for all of them (a fork costs more than a small
    read on a busy machine), each item bounded on its own: `cpu_s` of CPU time and `memory_mb` above
    the grader's address space. An item past a bound becomes `ReadRefused` (naming `what(index)`) in its
    place; if one kills the child, the rest go on in a new child. An exception fn raises is raised here."""
    memory_mb = MEMORY_MB if memory_mb is None else memory_mb
    cpu_s = CPU_S if cpu_s is None else cpu_s
    if not hasattr(os, "fork") or resource is None:   # no fork or rlimits: the size checks are the only bound
        return [fn(*item) for item in items]
    bounds = f"{memory_mb} MB and {cpu_s:g} s of the grader's time"
    results: dict[int, Any] = {}
    LAST.max_rss_mb = LAST.cpu_s = 0.0
    while len(results) < len(items):
        first = len(results)
        stopped = _batch(fn, items, first, memory_mb, cpu_s, results)
        if len(results) == first or stopped:          # the child died (or was stopped) on item `first`
            results[len(results)] = ("stopped", stopped or "could not be read")
    out: list[Any] = []
    for index in range(len(items)):
        outcome, value = results[index]
        if outcome == "raised":
            raise value if isinstance(value, BaseException) else RuntimeError(str(value))
        out.append(value if outcome == "ok" else
                   ReadRefused(f"{what(index)} could not be read within {bounds}: it {value}."))
    return out


def _batch(fn: Callable[..., Any], items: Sequence[tuple], first: int, memory_mb: int, cpu_s: float,
           results: dict[int, Any]) -> str:
    """Items from `first` on in one child, each outcome put in `results` as it arrives; "" when the
    child ended by itself, else why it was stopped."""
    reader, writer = os.pipe()
    space = _address_space()
    pid = os.fork()
    if pid == 0:                        # the child: never returns
        os.close(reader)
        _child(writer, fn, items, first, space + memory_mb * 1024 * 1024 if space else 0, cpu_s)
    os.close(writer)
    stopped = _collect(reader, pid, cpu_s * WALL_FACTOR + 5, first, results)
    _, status, usage = os.wait4(pid, 0)
    LAST.max_rss_mb = max(LAST.max_rss_mb, usage.ru_maxrss / 1024)
    LAST.cpu_s += usage.ru_utime + usage.ru_stime
    if not stopped and os.WIFSIGNALED(status):
        stopped = "took too long" if os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL) else \
            "could not be read"
    elif not stopped and len(results) < len(items):
        stopped = "needed more memory"
    return stopped


class _OverBudget(BaseException):
    """Raised in the child by the CPU-time timer of one item."""


def _over_budget(signum: int, frame: Any) -> None:
    raise _OverBudget


def _child(writer: int, fn: Callable[..., Any], items: Sequence[tuple], first: int, address_space: int,
           cpu_s: float) -> None:
    assert resource is not None                       # run_each forks only where rlimits exist
    code = 0
    try:
        if address_space:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
        signal.signal(signal.SIGVTALRM, _over_budget)
        ceiling = resource.getrlimit(resource.RLIMIT_CPU)[1]
        for index in range(first, len(items)):
            used = resource.getrusage(resource.RUSAGE_SELF)
            soft = math.ceil(used.ru_utime + used.ru_stime + cpu_s) + 2   # past the timer: the kernel's SIGXCPU
            if ceiling != resource.RLIM_INFINITY:
                soft = min(soft, ceiling)
            resource.setrlimit(resource.RLIMIT_CPU, (soft, ceiling))
            signal.setitimer(signal.ITIMER_VIRTUAL, cpu_s)
            try:
                outcome: tuple[str, Any] = ("ok", fn(*items[index]))
            except _OverBudget:
                outcome = ("stopped", "took too long")
            except MemoryError:
                outcome = ("stopped", "needed more memory")
            except Exception as exc:    # handed back to the caller, as in a direct call
                outcome = ("raised", exc)
            finally:
                signal.setitimer(signal.ITIMER_VIRTUAL, 0)
            try:
                data = pickle.dumps((index, outcome))
            except MemoryError:
                data = pickle.dumps((index, ("stopped", "needed more memory")))
            except Exception as exc:
                data = pickle.dumps((index, ("raised", RuntimeError(f"unpicklable result: {exc}"))))
            view = memoryview(len(data).to_bytes(8, "big") + data)
            while view:
                view = view[os.write(writer, view):]
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def _collect(reader: int, pid: int, wall_s: float, first: int, results: dict[int, Any]) -> str:
    """Outcomes the child writes (8-byte length, pickled (index, outcome)) into `results` until it closes
    the pipe: "" then, or why it was stopped (`wall_s` is each item's wall-clock backstop)."""
    buffer = b""
    deadline = time.monotonic() + wall_s
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([reader], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                return "took too long"
            chunk = os.read(reader, 1 << 20)
            if not chunk:
                return ""
            buffer += chunk
            if len(buffer) > _RESULT_LIMIT:
                os.kill(pid, signal.SIGKILL)
                return "gave too large a result"
            while len(buffer) >= 8 and len(buffer) >= 8 + int.from_bytes(buffer[:8], "big"):
                size = int.from_bytes(buffer[:8], "big")
                index, outcome = pickle.loads(buffer[8:8 + size])
                buffer = buffer[8 + size:]
                results[index] = outcome
                deadline = time.monotonic() + wall_s
    finally:
        os.close(reader)
