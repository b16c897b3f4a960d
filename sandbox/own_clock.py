"""The player's own clocks: in the player's process, `time.time`, `time.monotonic` and
`time.perf_counter` (and their `_ns` forms) stop while its main thread waits for a CPU that other
processes hold.

The manager charges each call the player's own time: real time less its run-queue delay
(sandbox/limits.py). An agent that searches "until time() + 2 s", as the McGill courses' agents do,
reads its own clock to decide when to stop: on a loaded machine the real clock would make it stop
after 2 s of real time, having had the CPU for a fraction of that, and answer early, where on an
idle machine it is late by the last step's overshoot. With these clocks it stops after 2 s of its
own time, as on an idle machine, and is judged as it would be there.

How: the child opens `/proc/thread-self/schedstat` (its main thread: the one that serves every
call) before it restricts itself, and keeps the descriptor; each reading is a `pread` at offset 0,
at most every REREAD_S, so a tight loop around `time()` costs little. Each clock subtracts the run
delay accrued since it was installed and never goes back. Limits: only the main thread's delay is
seen (a search run in another thread is timed by the real clock, as before); `time.time()` falls
behind the time of day by the player's waits; code that bypasses the `time` module (`datetime`,
ctypes) reads the real clocks, which only makes it answer early.

Why not every thread: a thread started later would need its own `/proc/<pid>/task/<tid>/schedstat`,
and once the box is built the player cannot open one: its private root has no /proc, and a
descriptor of `/proc/self/task` kept from before lists the threads but Landlock refuses opening
their files (tried: PermissionError, the process is also not dumpable). Covering them would mean
letting the player read its /proc, or the manager writing the delay into memory the player reads
all the time; neither is worth the box's weakening for a clock that only ever errs early.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TypeVar

SCHEDSTAT = "/proc/thread-self/schedstat"
REREAD_S = 0.0005
N = TypeVar("N", int, float)


class RunDelay:
    """Nanoseconds the main thread has waited for a CPU since `install`, read at most every REREAD_S."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.real = time.perf_counter              # the real clock, taken before any is replaced
        self.read_at = -REREAD_S
        self.base = 0
        self.base = self.ns()
        self.delay = 0                             # else the first REREAD_S would subtract all of `base`

    def ns(self) -> int:
        now = self.real()
        if now - self.read_at >= REREAD_S:
            self.read_at = now
            try:
                self.delay = int(os.pread(self.fd, 64, 0).split()[1]) - self.base
            except (OSError, IndexError, ValueError):
                pass                               # the descriptor was closed: the last reading stays
        return self.delay

    delay = 0


def _seconds(ns: int) -> float:
    return ns / 1e9


def _nanoseconds(ns: int) -> int:
    return ns


def _own(real: Callable[[], N], delay: RunDelay, unit: Callable[[int], N]) -> Callable[[], N]:
    """`real` less the run delay (in `unit`: seconds or nanoseconds), never going back."""
    last: list[N] = []

    def clock() -> N:
        value: N = real() - unit(delay.ns())
        if last and value < last[0]:
            return last[0]
        last[:] = [value]
        return value

    clock.__name__, clock.__qualname__, clock.__doc__ = real.__name__, real.__qualname__, real.__doc__
    return clock


def install(path: str = SCHEDSTAT) -> str:
    """Replace the `time` module's wall clocks by the player's own (OSError when `path` cannot be
    read: the real clocks stay). What was applied, in the words of the ready frame."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        int(os.pread(fd, 64, 0).split()[1])
    except (IndexError, ValueError):
        os.close(fd)
        raise OSError(f"{path} holds no run delay") from None
    delay = RunDelay(fd)
    for name in ("time", "monotonic", "perf_counter"):
        setattr(time, name, _own(getattr(time, name), delay, _seconds))
        setattr(time, f"{name}_ns", _own(getattr(time, f"{name}_ns"), delay, _nanoseconds))
    return "time.time, monotonic and perf_counter leave out the main thread's wait for a CPU (schedstat)"
