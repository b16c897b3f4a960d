"""Blame by evidence (issue 38.1, sandbox/blame.py): a player's end is its own unless the grader can
show a cause of its own. No player changes its own limits, scheduling, priority or CPU affinity
(seccomp), nor its cgroup (Landlock, a uid of its own); and whatever route a player finds to a
SIGKILL the grader did not send -- a POSIX timer, which no filter sees; its own kill() where there
is no filter (the portable sandbox); someone else on the machine -- the call is the player's crash,
never `infra` (replayed, never scored). Both start modes, and the portable sandbox."""
from __future__ import annotations

import os
import textwrap

import pytest

import sandbox
from sandbox import Limits, Verdict

SLOW = Limits(start_s=20.0, call_s=10.0, kill_after_s=5.0)

TUNER = """
import ctypes, os, platform, resource, signal, time

libc = ctypes.CDLL(None, use_errno=True)
IOPRIO_SET = {"x86_64": 251, "aarch64": 30}.get(platform.machine())

def outcome(fn):
    try:
        fn()
        return "changed"
    except PermissionError:
        return "denied"
    except ValueError as exc:                  # resource.setrlimit's word for EPERM
        return "denied" if "not allowed" in str(exc) else repr(exc)

def lower_cpu_limit():
    used = int(time.process_time()) + 1
    return outcome(lambda: resource.setrlimit(resource.RLIMIT_CPU, (used, used)))

def prlimit_cpu():
    used = int(time.process_time()) + 1
    return outcome(lambda: resource.prlimit(0, resource.RLIMIT_CPU, (used, used)))

def lower_address_space():
    return outcome(lambda: resource.setrlimit(resource.RLIMIT_AS, (64 << 20, 64 << 20)))

def sched_idle():
    return outcome(lambda: os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0)))

def sched_idle_thread():
    import threading
    got = []
    t = threading.Thread(target=lambda: got.append(sched_idle()))
    t.start()
    t.join()
    return got[0]

def nice():
    return outcome(lambda: os.setpriority(os.PRIO_PROCESS, 0, 19))

def ioprio():
    if IOPRIO_SET is None:
        return "no ioprio here"
    if libc.syscall(IOPRIO_SET, 1, 0, 3 << 13) == 0:      # IOPRIO_WHO_PROCESS, itself, class idle
        return "changed"
    return "denied" if ctypes.get_errno() == 1 else os.strerror(ctypes.get_errno())

def affinity():
    return outcome(lambda: os.sched_setaffinity(0, set(range(os.cpu_count() or 1))))

def cgroup(paths):
    changed = []
    for path in paths:
        try:
            with open(path, "w") as f:
                f.write("1")
            changed.append(path)
        except OSError:
            pass
    return changed

def reading_limits():
    return [resource.getrlimit(resource.RLIMIT_CPU)[0], resource.getrlimit(resource.RLIMIT_NOFILE)[0],
            os.getpriority(os.PRIO_PROCESS, 0), sorted(os.sched_getaffinity(0))]

class sigevent(ctypes.Structure):
    _fields_ = [("value", ctypes.c_void_p), ("signo", ctypes.c_int), ("notify", ctypes.c_int),
                ("pad", ctypes.c_byte * 48)]

class itimerspec(ctypes.Structure):
    _fields_ = [("interval", ctypes.c_long * 2), ("value", ctypes.c_long * 2)]

def timer_sigkill():
    # A POSIX timer delivers any signal, SIGKILL too: seccomp sees only a pointer.
    ev = sigevent(None, signal.SIGKILL, 0)              # SIGEV_SIGNAL
    timer = ctypes.c_void_p()
    assert libc.timer_create(1, ctypes.byref(ev), ctypes.byref(timer)) == 0, ctypes.get_errno()
    spec = itimerspec((0, 0), (0, 1000000))             # 1 ms
    libc.timer_settime(timer, 0, ctypes.byref(spec), None)
    spin()

def spin():
    while True:
        pass

def ping():
    return "pong"
"""

SELF_TUNING = ["lower_cpu_limit", "prlimit_cpu", "lower_address_space", "sched_idle", "sched_idle_thread", "nice",
               "ioprio", "affinity"]


@pytest.mark.parametrize("attack", SELF_TUNING)
def test_a_player_cannot_change_its_own_limits_or_scheduling(player, require, attack):
    require("seccomp")
    p = player(TUNER, limits=SLOW)
    before = p.call("reading_limits")
    assert before.ok, before
    res = p.call(attack)
    assert res.ok and res.value in ("denied", "no ioprio here"), res
    assert p.call("reading_limits").value == before.value           # reading its own limits still works


def cgroup_files(pid: int) -> list[str]:
    """Every file of every cgroup `pid` is in (read from outside: the player has no /proc)."""
    out = []
    with open(f"/proc/{pid}/cgroup") as f:
        for line in f.read().splitlines():
            _, ctrls, rel = line.split(":", 2)
            mount = "unified" if not ctrls else ctrls.split(",")[0].removeprefix("name=")
            folder = os.path.join("/sys/fs/cgroup", mount) + rel
            if os.path.isdir(folder):
                out += [os.path.join(folder, name) for name in sorted(os.listdir(folder))]
    return out


def test_a_player_cannot_write_its_cgroup(player, require):
    require("landlock")
    p = player(TUNER, limits=SLOW)
    files = cgroup_files(p.proc.pid)
    assert files
    res = p.call("cgroup", {"paths": files})
    assert res.ok and res.value == [], res


def test_a_sigkill_the_player_sends_itself_is_never_infra(player):
    p = player(TUNER, limits=Limits(start_s=20.0, call_s=2.0, kill_after_s=1.0, clock="wall"))
    res = p.call("timer_sigkill")
    if res.verdict is Verdict.KILLED:              # pid 1 of its own pid namespace: the kernel ignored it
        assert p.protections.get("pid_namespace", "missing").startswith("pid 1"), res
        return
    assert res.verdict is Verdict.CRASHED, res
    assert "did not send" in res.message and "its own" in res.message
    assert p.close().kills == []
    assert p.call("ping").verdict is Verdict.CRASHED                # the death is repeated, still its own


@pytest.fixture
def portable(monkeypatch, tmp_path):
    """A started player in the portable sandbox (no seccomp, no Landlock), closed at teardown."""
    monkeypatch.setenv("GRADER_SANDBOX", "portable")
    folder = tmp_path / "sub"
    folder.mkdir()
    (folder / "player.py").write_text(textwrap.dedent(TUNER) + textwrap.dedent("""
        def kill_myself():
            os.kill(os.getpid(), signal.SIGKILL)
            time.sleep(30)

        def lower_cpu_limit_and_spin():
            lower_cpu_limit()
            spin()
        """))
    made = []

    def make():
        p = sandbox.PlayerProcess("sandbox.module_shim", folder, SLOW)
        made.append(p)
        assert p.start().ok
        return p
    yield make
    for p in made:
        p.close()


@pytest.mark.parametrize("attack", ["kill_myself", "lower_cpu_limit_and_spin"])
def test_the_blame_rule_holds_in_the_portable_sandbox(portable, attack):
    p = portable()
    res = p.call("call", {"function": attack, "args": {}})
    assert res.verdict is Verdict.CRASHED, res
    assert p.close().kills == []
