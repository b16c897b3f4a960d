"""sandbox/console_lines.py reads "waits for input" from the kernel's account of a process: blocked
in read(0) on an empty stdin pipe, every thread asleep. A process asleep in anything else (a
sleep, a read on another pipe), or whose other thread still runs, is not waiting. Each
case first waits until /proc shows the process inside the call it is meant to be in, so nothing
here depends on how fast the machine is."""
from __future__ import annotations

import os
import platform
import subprocess
import sys
import time

import pytest

from sandbox import console_lines

pytestmark = pytest.mark.skipif(platform.machine() not in console_lines.READS,
                                reason=f"the read system call's number on {platform.machine()} is not known here")

DEADLINE_S = 120.0          # only a backstop for a broken machine: every wait ends on what /proc shows


def in_syscall(pid: int, numbers: set[int]) -> bool:
    """Whether the process sleeps inside one of the system calls `numbers`."""
    with open(f"/proc/{pid}/stat") as f:
        stat = f.read()
    with open(f"/proc/{pid}/syscall") as f:
        words = f.read().split()
    return stat[stat.rindex(")") + 2] == "S" and bool(words) and words[0].isdigit() and int(words[0]) in numbers


def settle(pid: int, numbers: set[int]) -> None:
    end = time.monotonic() + DEADLINE_S
    while not in_syscall(pid, numbers):
        assert time.monotonic() < end, "the process never reached the expected system call"
        time.sleep(0.01)


def started(code: str) -> tuple[subprocess.Popen[bytes], int]:
    """A Python process running `code`, its stdin a pipe whose write end we keep."""
    r, w = os.pipe()
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=r, stdout=subprocess.DEVNULL)
    os.close(r)
    return proc, w


def stopped(proc: subprocess.Popen[bytes], w: int) -> None:
    proc.kill()
    proc.wait()
    os.close(w)


def test_a_process_blocked_reading_its_empty_stdin_waits_for_input():
    proc, w = started("import os; os.read(0, 100)")
    try:
        settle(proc.pid, set(console_lines.READS[platform.machine()]))
        assert console_lines.waiting_for_input(proc.pid, w)
        assert console_lines.unavailable_reason(proc.pid) is None
    finally:
        stopped(proc, w)


def test_a_process_reading_while_another_thread_runs_is_not_waiting():
    proc, w = started("import os, threading\n"
                      "def spin():\n    while True: pass\n"
                      "threading.Thread(target=spin, daemon=True).start(); os.read(0, 100)")
    try:
        settle(proc.pid, set(console_lines.READS[platform.machine()]))    # the main thread reads
        assert not console_lines.waiting_for_input(proc.pid, w)           # but the program is still at work
    finally:
        stopped(proc, w)


def test_a_sleeping_process_is_not_waiting_for_input():
    proc, w = started("import time; time.sleep(1000)")
    try:
        settle(proc.pid, {35, 230, 101, 115})
        assert not console_lines.waiting_for_input(proc.pid, w)
    finally:
        stopped(proc, w)


def test_a_read_on_another_pipe_is_not_waiting_for_input():
    proc, w = started("import os; r, _w = os.pipe(); os.read(r, 1)")
    try:
        settle(proc.pid, set(console_lines.READS[platform.machine()]))
        assert not console_lines.waiting_for_input(proc.pid, w)
    finally:
        stopped(proc, w)
