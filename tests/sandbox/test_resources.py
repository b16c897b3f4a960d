"""Memory, time limits at their edges, output flooding and freezing between calls (more on the
CPU clock in test_time_limits.py)."""
from __future__ import annotations

import time

import psutil
import pytest

from sandbox import Verdict

HOG = """
import mmap, time

def allocate(mb):
    return len(bytearray(mb * 1024 * 1024))

def grow(mb):
    chunks = []
    for _ in range(mb // 50):
        chunks.append(bytearray(b"x" * (50 * 1024 * 1024)))
    return len(chunks)

def shared(mb):
    m = mmap.mmap(-1, mb * 1024 * 1024, flags=mmap.MAP_SHARED)
    for i in range(0, len(m), 4096):
        m[i] = 1
    return len(m)

def spin():
    while True:
        pass

def sleep(s):
    time.sleep(s)
    return s

def ping():
    return "pong"
"""


@pytest.mark.parametrize("attack, mb", [("allocate", 2048), pytest.param("grow", 2000, marks=pytest.mark.root),
                                        pytest.param("shared", 800, marks=pytest.mark.root)])
def test_memory_hogs_get_the_memory_verdict(player, require, limits, attack, mb):
    if attack != "allocate":
        require("cgroup")                # touched pages are what the cgroup counts
    p = player(HOG, limits=limits(memory_mb=300, call_s=10))
    r = p.call(attack, {"mb": mb})
    assert r.verdict is Verdict.MEMORY and "memory" in r.message, r
    assert not p.alive
    report = p.close()
    assert report.peak_memory_mb is not None and report.peak_memory_mb < 400
    assert psutil.Process().is_running()


def test_memory_under_the_limit_is_fine(player, limits):
    p = player(HOG, limits=limits(memory_mb=300))
    assert p.call("grow", {"mb": 100}).value == 2
    assert p.call("ping").ok


def test_infinite_loop_is_killed_at_the_hard_limit(player, limits):
    p = player(HOG, limits=limits(call_s=0.3, kill_after_s=0.4, wall_factor=30))
    t0 = time.perf_counter()
    r = p.call("spin")
    elapsed = time.perf_counter() - t0
    assert r.verdict is Verdict.KILLED and "of CPU without answering" in r.message, r
    # CPU never runs ahead of the wall clock; past the limit only until the manager gets a CPU to kill it
    assert 0.7 <= r.cpu_s < 1.0 and elapsed >= 0.7 - 0.05, r
    assert not p.alive and p.close().exit_status == "signal SIGKILL"


def test_answer_between_soft_and_hard_is_late(player, limits):
    p = player(HOG, limits=limits(call_s=0.2, kill_after_s=1.0, clock="wall"))
    r = p.call("sleep", {"s": 0.4})
    assert r.verdict is Verdict.LATE and r.value == 0.4 and "0.2" in r.message, r
    assert "of wall-clock time" in r.message, r
    assert p.alive and p.call("ping").ok


def test_answer_well_after_hard_is_killed(player, limits):
    p = player(HOG, limits=limits(call_s=0.2, kill_after_s=0.3, clock="wall"))
    r = p.call("sleep", {"s": 30})
    assert r.verdict is Verdict.KILLED and r.wall_s < 30, r                   # not left to sleep it out
    assert r.message.startswith("No answer after 0.5 s of wall-clock time"), r


def test_per_call_soft_limit_overrides_the_default(player, limits):
    p = player(HOG, limits=limits(call_s=0.1, kill_after_s=0.2))
    assert p.call("sleep", {"s": 0.3}, soft=1.0).verdict is Verdict.OK


def test_import_time_infinite_loop_is_killed_at_start(player, limits):
    p = player("while True:\n    pass\n", limits=limits(start_s=0.8, kill_after_s=0.4), start=False)
    r = p.start()
    assert r.verdict is Verdict.KILLED and "without answering" in r.message, r   # at the hard CPU limit


def test_printing_hundreds_of_megabytes_is_capped(player, limits):
    code = """
import sys
def flood(mb):
    line = "spam " * 2000 + "\\n"
    for _ in range(mb * 1024 * 1024 // len(line)):
        sys.stdout.write(line)
    sys.stderr.write("done\\n")
    return mb
"""
    me = psutil.Process()
    rss0 = me.memory_info().rss
    p = player(code, limits=limits(output_kb=16, call_s=20))
    r = p.call("flood", {"mb": 300})
    assert r.verdict is Verdict.OK and r.value == 300, r        # never blocked on a full pipe
    report = p.close()
    assert len(report.output.encode()) <= 16 * 1024
    assert report.output.startswith("spam")
    assert report.output_dropped >= 299 * 1024 * 1024
    assert me.memory_info().rss - rss0 < 50 * 1024 * 1024


def test_background_thread_is_frozen_between_calls(player, limits):
    code = """
import threading
def busy():
    while True:
        pass
def start():
    threading.Thread(target=busy, daemon=True).start()
    return "started"
"""
    def cpu_between_calls(freeze: bool, enough: float) -> float:
        """The CPU the process uses with no call in flight: over 0.8 s, or until it has used `enough`
        (a host at load 20 on 2 cores gives a spinning thread under 0.1 s of each 0.8 s)."""
        p = player(code, limits=limits(freeze=freeze), name=f"freeze{freeze}")
        assert p.call("start").ok
        proc = psutil.Process(p.proc.pid)
        before = sum(proc.cpu_times()[:2])
        time.sleep(0.8)
        deadline = time.monotonic() + 120          # a backstop only: an idle host takes 0.1 s
        while (used := sum(proc.cpu_times()[:2]) - before) < enough and time.monotonic() < deadline:
            time.sleep(0.05)
        p.close()
        return used

    assert cpu_between_calls(freeze=True, enough=0) <= 0.01      # one clock tick: stopped means stopped
    assert cpu_between_calls(freeze=False, enough=0.1) >= 0.1    # control: unfrozen, the thread burns CPU


def test_memory_error_at_import_is_the_memory_verdict(player, limits):
    p = player("HOARD = bytearray(3 * 1024 ** 3)\n", limits=limits(memory_mb=300), start=False)
    r = p.start()
    assert r.verdict is Verdict.MEMORY, r
    assert not p.alive


def test_without_a_cgroup_rlimit_as_still_gives_the_memory_verdict(player, limits, monkeypatch):
    from sandbox import host
    monkeypatch.setattr(host, "cgroup_reason", lambda: "cgroups disabled for this test")
    p = player(HOG, limits=limits(memory_mb=400))
    assert p.protections["memory"].startswith("RLIMIT_AS 400 MB")
    assert p.call("grow", {"mb": 100}).ok
    r = p.call("grow", {"mb": 1000})
    assert r.verdict is Verdict.MEMORY, r
