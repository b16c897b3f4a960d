"""Every kill is accounted for (issue 33): each SIGKILL the grader sends is noted with why. A death
the grader can show the machine caused (the template that forked the player dying) is an `infra`
verdict (the game is replayed, never scored); a SIGKILL from anywhere else is evidence of nothing
and the player's own end (issue 38, sandbox/blame.py): a player cannot pass its end off as the
machine's. seccomp denies it SIGKILL to itself as well."""
from __future__ import annotations

import os
import signal
import time

import pytest

from sandbox import Verdict

HONEST = """
import os, signal

def move():
    return 1

def kill_myself():
    out = []
    for how in (lambda: os.kill(os.getpid(), signal.SIGKILL), lambda: signal.raise_signal(signal.SIGKILL)):
        try:
            how()
            out.append("sent")
        except PermissionError:
            out.append("EPERM")
    return out

def spin():
    while True:
        pass
"""


def _wait_gone(pid: int) -> None:
    for _ in range(2000):
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return
        except OSError:
            return
        time.sleep(0.005)


def test_a_sigkill_from_outside_without_a_host_fault_is_the_players(player):
    p = player(HONEST)
    assert p.call("move").ok
    os.kill(p.proc.pid, signal.SIGKILL)            # anyone at all, the player's own trick included
    _wait_gone(p.proc.pid)
    res = p.call("move")
    assert res.verdict is Verdict.CRASHED, res
    assert "did not send" in res.message and "its own" in res.message
    assert p.close().kills == []


def test_a_player_cannot_sigkill_itself(player):
    p = player(HONEST)
    res = p.call("kill_myself")
    assert res.ok and res.value == ["EPERM", "EPERM"], res
    assert p.call("move").ok


def test_every_kill_is_noted_with_why(player, limits):
    p = player(HONEST, limits=limits(call_s=0.3, kill_after_s=0.2))
    res = p.call("spin")
    assert res.verdict is Verdict.KILLED
    report = p.close()
    assert len(report.kills) == 1 and "time limit" in report.kills[0], report.kills
    assert report.exit_status == "signal SIGKILL"


def test_a_dead_template_is_the_machines_failure(player, start_mode, prefork_pool):
    if start_mode != "prefork":
        pytest.skip("only a pre-forked player has a template")
    p = player(HONEST)
    assert p.call("move").ok
    template = next(z for z in prefork_pool.zygotes.values() if z.alive())
    os.kill(template.pid, signal.SIGKILL)
    template.proc.wait()
    _wait_gone(p.proc.pid)                          # its players die with it (PR_SET_PDEATHSIG)
    res = p.call("move")
    assert res.verdict is Verdict.INFRA, res
    assert p.close().kills == []
