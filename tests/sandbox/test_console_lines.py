"""sandbox/console_lines.py reads "waits for input" from the kernel's account of a process: blocked
in read(0) on an empty stdin pipe, every thread asleep. A process asleep in anything else (a
sleep, a read on another pipe), or whose other thread still runs, is not waiting. Each
case first waits until /proc shows the process inside the call it is meant to be in, so nothing
here depends on how fast the machine is."""
from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import time

import pytest

from sandbox import Limits, PlayerProcess, Verdict, console_lines
from sandbox.command import Command, loader_paths

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


@pytest.fixture
def cat(tmp_path, start_mode, request):
    """`cat` as a console program in the sandbox: it echoes each line and waits on read(0) again."""
    pool = request.getfixturevalue("prefork_pool") if start_mode == "prefork" else None
    exe = os.path.realpath(shutil.which("cat") or "/bin/cat")
    p = PlayerProcess("sandbox.module_shim", tmp_path, Limits(start_s=20, call_s=20, kill_after_s=1.0, clock="wall"),
                      name="cat", prefork=pool, lines=console_lines.ConsoleLines(),
                      program=Command((exe,), execute=(exe, *loader_paths(exe)), io="lines"))
    r = p.start()
    assert r.ok, (r, p.close().output)
    assert p.started_by == start_mode
    yield p
    p.close()


def test_a_console_program_in_the_sandbox_is_seen_waiting_and_ending(cat):
    r = cat.call("launch", {"argv": []})
    assert r.ok and r.value == {"output": "", "waiting": True, "exited": False, "exit_code": None, "error": None}, r
    r = cat.call("send", {"line": "0 1 A 1"})
    assert r.ok and r.value["output"] == "0 1 A 1\n" and r.value["waiting"], r
    r = cat.call("end_input", {})
    assert r.ok and r.value["exited"] and r.value["exit_code"] == 0 and not r.value["waiting"], r


def test_a_console_program_cannot_be_given_arguments_yet(cat):
    r = cat.call("launch", {"argv": ["5", "7"]})
    assert r.verdict is Verdict.INFRA, r
    assert r.message == "the grader cannot yet give a C, C++ or Rust console program command-line arguments"
