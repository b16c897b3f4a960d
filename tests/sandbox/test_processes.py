"""No new processes, no signals or ptrace to others, no CPU widening; deaths map to verdicts."""
from __future__ import annotations

import os
from pathlib import Path

import psutil
import pytest

from sandbox import Verdict

SPAWNER = """
import os, subprocess, time

def fork():
    pid = os.fork()
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    return pid

def bomb():
    while True:
        os.fork()

def run():
    return subprocess.run(["sleep", "30"]).returncode

def system():
    return os.system("sleep 30")
"""

SIGNALS = """
import os, signal

def kill_parent():
    os.kill(os.getppid(), signal.SIGKILL)
    return "sent"

def kill_all():
    os.kill(-1, signal.SIGKILL)
    return "sent"

def kill_pid(pid):
    os.kill(pid, signal.SIGKILL)
    return "sent"

def ptrace_parent():
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    PTRACE_ATTACH = 16
    result = libc.ptrace(PTRACE_ATTACH, os.getppid(), None, None)
    return [result, ctypes.get_errno()]

def widen():
    os.sched_setaffinity(0, set(range(os.cpu_count())))
    return sorted(os.sched_getaffinity(0))

def affinity():
    return sorted(os.sched_getaffinity(0))
"""


def descendants(p) -> list:
    return psutil.Process(p.proc.pid).children(recursive=True)


@pytest.mark.parametrize("attack", ["fork", "bomb", "run"])
def test_new_processes_are_denied(player, require, attack):
    require("seccomp")
    p = player(SPAWNER)
    r = p.call(attack)
    assert r.verdict is Verdict.ERROR and r.message.startswith("PermissionError"), r
    assert descendants(p) == []
    assert p.alive and p.call("system").ok


def test_os_system_runs_nothing(player, require):
    require("seccomp")
    p = player(SPAWNER)
    r = p.call("system")
    assert r.verdict is Verdict.OK and r.value != 0 and r.wall_s < 30, r    # `sleep 30` never ran
    assert descendants(p) == []


def test_signals_to_the_manager_fail(player, require):
    require("seccomp")
    p = player(SIGNALS)
    opponent = player("def ping():\n    return 'pong'\n", name="opponent")
    for attack in ("kill_parent", "kill_all"):
        r = p.call(attack)
        assert r.verdict is Verdict.ERROR and r.message.startswith("PermissionError"), r
    assert psutil.pid_exists(os.getpid())           # we are still here to assert it
    r = p.call("kill_pid", {"pid": opponent.proc.pid})
    assert r.verdict is Verdict.ERROR and r.message.startswith("PermissionError"), r
    assert opponent.call("ping").value == "pong"
    assert p.call("affinity").ok


def test_ptrace_on_the_parent_fails(player, require):
    require("seccomp")
    p = player(SIGNALS)
    r = p.call("ptrace_parent")
    assert r.ok and r.value[0] == -1 and r.value[1] != 0, r
    status = Path("/proc/self/status").read_text()
    assert "TracerPid:\t0" in status


def test_cpu_pinning_cannot_be_widened(player, require, limits):
    require("seccomp")
    if not hasattr(os, "sched_setaffinity"):
        pytest.skip("no sched_setaffinity on this host")
    cpu = sorted(os.sched_getaffinity(0))[0]
    p = player(SIGNALS, limits=limits(cpu=cpu))
    assert p.call("affinity").value == [cpu]
    r = p.call("widen")
    assert r.verdict is Verdict.ERROR and r.message.startswith("PermissionError"), r
    assert p.call("affinity").value == [cpu]


def test_segfault_is_crashed(player):
    p = player("import ctypes\ndef crash():\n    return ctypes.string_at(0)\n")
    r = p.call("crash")
    assert r.verdict is Verdict.CRASHED and "SIGSEGV" in r.message, r
    assert not p.alive
    assert p.close().exit_status == "signal SIGSEGV"


@pytest.mark.parametrize("how, verdict", [("sys.exit()", Verdict.EXITED), ("os._exit(0)", Verdict.EXITED),
                                          ("sys.exit(3)", Verdict.CRASHED)])
def test_exiting_mid_game(player, how, verdict):
    p = player(f"import os, sys\ndef ping():\n    return 'pong'\ndef leave():\n    {how}\n")
    assert p.call("ping").ok
    r = p.call("leave")
    assert r.verdict is verdict, r
    later = p.call("ping")
    assert later.verdict is verdict and "gone" in later.message
    assert not p.alive


def test_close_reaps_everything(player):
    p = player("def ping():\n    return 1\n")
    pid = p.proc.pid
    report = p.close()
    assert report.exit_status == "exit 0"
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert p.close() is report                      # idempotent
