"""Whose time a call's end is, on the wall clock: the player's own, never the machine's, and never
more than it is. Players whose use of their own clock the test controls, in both start modes, on
whatever load the machine has. Every assertion is a verdict, never a speed.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from sandbox import PlayerProcess, Verdict

needs_schedstat = pytest.mark.skipif(not Path("/proc/self/schedstat").exists(),
                                     reason="this kernel keeps no schedstat")

ANSWERS_AT = """
import time

def move(s):
    # stops at `s` seconds of its own clock, as the courses' agents do, and says what it read
    t = time.perf_counter()
    while time.perf_counter() - t < s:
        pass
    return time.perf_counter() - t
"""

HIDES_WORK = """
import os, threading, time

def burn(s):
    t = time.thread_time()
    while time.thread_time() - t < s:
        pass

def spin(stop):
    try:                                      # the trick: a helper that waits whenever anything else runs
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except OSError:
        pass                                  # refused here: a plain spinner tries the same
    while not stop.is_set():
        pass

def think(s, helpers):
    stop = threading.Event()
    if helpers:
        threading.Thread(target=spin, args=(stop,), daemon=True).start()
        worker = threading.Thread(target=burn, args=(s / 2,))
        worker.start()
        burn(s / 2)
        worker.join()
        stop.set()
    else:
        burn(s)
    return s
"""

LIMIT_S = 0.15          # the shortest limit a course uses (Isolation)
CALLS = 8
HONEST_CALLS = 25      # before the fix about 1 call in 10 at 97 % was late on a loaded machine


@needs_schedstat
def test_a_player_that_answers_at_95_percent_of_its_own_clock_is_never_late(player, limits):
    """The manager's own wait for a CPU (writing the request, reading the reply) is not the player's.
    95 %, where `make bench` measures 97 % over many moves: on a VM the host's delay in waking a
    sleeping vCPU shows in no run delay (docs/ARCHITECTURE.md), and beside CPU hogs about 1 call in 500
    was still charged up to 5 ms it did not think, which 7.5 ms of margin leaves to the bench."""
    p = player(ANSWERS_AT, limits=limits(clock="wall", call_s=LIMIT_S, kill_after_s=5.0))
    results = [p.call("move", {"s": 0.95 * LIMIT_S}) for _ in range(HONEST_CALLS)]
    late = [r for r in results if r.verdict is not Verdict.OK]
    assert not late, late


@needs_schedstat
def test_a_player_that_answers_at_103_percent_of_its_own_clock_is_always_late(player, limits):
    p = player(ANSWERS_AT, limits=limits(clock="wall", call_s=LIMIT_S, kill_after_s=5.0))
    results = [p.call("move", {"s": 1.03 * LIMIT_S}) for _ in range(CALLS)]
    assert all(r.verdict is Verdict.LATE and r.message.startswith("Answered after 0.1") for r in results), results


def test_thinking_split_over_threads_and_an_idle_helper_is_late_as_the_same_work_in_one(player, limits):
    """0.6 s of CPU against a 0.45 s wall-clock limit, in two threads beside a SCHED_IDLE spinner
    whose wait once was taken for the whole call's, with the player not pinned by its caller: the
    sandbox pins it to one CPU, so the work is late exactly as when one thread does it."""
    lim = limits(clock="wall", call_s=0.45, kill_after_s=30.0)
    assert lim.cpu is None
    plain = player(HIDES_WORK, limits=lim, name="plain")
    trick = player(HIDES_WORK, limits=lim, name="trick")
    results = [p.call("think", {"s": 0.6, "helpers": helpers}) for p, helpers in ((plain, False), (trick, True))]
    assert [r.verdict for r in results] == [Verdict.LATE, Verdict.LATE], results
    assert all(r.message.startswith("Answered after") for r in results), results
    assert all(p.protections["cpu"].startswith("CPU ") for p in (plain, trick)), trick.protections


TOLD = """
from sandbox import call_time

def told():
    return [call_time.limit_s(), call_time.clock(), call_time.left_s()]
"""


@pytest.mark.parametrize("clock", ["wall", "cpu"])
def test_a_shim_is_told_each_calls_limit_and_clock(player, limits, clock):
    """What a course API's `time_left()` needs: the limit of this very call (for the first move,
    what remains of its allowance), never a guess."""
    p = player(TOLD, limits=limits(clock=clock, call_s=2.0, kill_after_s=5.0))
    limit, told_clock, left = p.call("told", soft=1.25).value
    assert (limit, told_clock) == (1.25, clock)
    assert 0 < left <= 1.25
    assert p.call("told").value[0] == 2.0                 # the default: the limits' call_s


@needs_schedstat
def test_a_grader_held_back_before_it_thaws_the_player_does_not_charge_it(player, limits, monkeypatch):
    """The manager starts a call's clock, then sends SIGCONT; when it is held back in between (a
    busy machine preempts it), the player is still stopped, and no run-queue delay of the
    player's holds that time. Here the manager is held back 50 ms before each thaw: charged, a
    player at 95 % of its limit would be late by a third of it."""
    thaw = PlayerProcess._thaw

    def held_back_thaw(self: PlayerProcess) -> None:
        time.sleep(0.05)
        thaw(self)

    p = player(ANSWERS_AT, limits=limits(clock="wall", call_s=LIMIT_S, kill_after_s=5.0))
    monkeypatch.setattr(PlayerProcess, "_thaw", held_back_thaw)
    honest = [p.call("move", {"s": 0.95 * LIMIT_S}) for _ in range(CALLS)]     # 95 %: as the test above
    late = [p.call("move", {"s": 1.03 * LIMIT_S}) for _ in range(CALLS)]
    assert all(r.verdict is Verdict.OK for r in honest), honest
    assert all(r.verdict is Verdict.LATE for r in late), late
