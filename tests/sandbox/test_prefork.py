"""The pre-forked start: the template stays out of the player's reach, games share no state,
a dead template is replaced, and the spawn path takes over when no template can be used."""
from __future__ import annotations

import os

import psutil
import pytest

from sandbox import Limits, PlayerProcess, Verdict, prefork, protections

SHIM = "sandbox.module_shim"
FAST = Limits(start_s=10.0, call_s=2.0, kill_after_s=0.5)
HOST = protections()

REACH = """
import ctypes, os, re, signal, stat

def template():
    return os.getppid()

def signal_template():
    os.kill(os.getppid(), signal.SIGKILL)

def read_template_memory():
    with open(f"/proc/{os.getppid()}/mem", "rb") as f:
        return len(f.read(16))

def vm_read_template():
    libc = ctypes.CDLL(None, use_errno=True)
    buf = ctypes.create_string_buffer(16)
    local = (ctypes.c_void_p * 2)(ctypes.addressof(buf), 16)
    remote = (ctypes.c_void_p * 2)(0x400000, 16)
    result = libc.process_vm_readv(os.getppid(), local, 1, remote, 1, 0)
    return [result, ctypes.get_errno()]

def descriptors():
    kinds = {}
    for fd in range(1024):
        try:
            mode = os.fstat(fd).st_mode
        except OSError:
            continue
        kinds[fd] = "socket" if stat.S_ISSOCK(mode) else "pipe" if stat.S_ISFIFO(mode) else "other"
        if kinds[fd] == "other" and fd > 2 and re.fullmatch(rb"[0-9]+ [0-9]+ [0-9]+[ ]*\\n", os.pread(fd, 64, 0)):
            kinds[fd] = "own clock"                # its own schedstat (sandbox/own_clock.py)
    return kinds

def session():
    return [os.getsid(0), os.getpgid(0), os.getpid()]
"""

STATEFUL = """
import os, random, sys
import sandbox.module_shim as shim

shim.games_seen = getattr(shim, "games_seen", 0) + 1      # a trusted module, changed by the player
sys.modules.setdefault("left_behind", type(sys)("left_behind"))

def state():
    return {"games_seen": shim.games_seen, "pid": os.getpid(), "random": random.random(),
            "left_behind": sum(1 for m in sys.modules if m == "left_behind")}
"""


@pytest.fixture
def forked(write_submission, prefork_pool):
    """forked(code, name="sub") -> a started PlayerProcess that really came from the pool's template."""
    made: list[PlayerProcess] = []

    def make(code: str, name: str = "sub") -> PlayerProcess:
        p = PlayerProcess(SHIM, write_submission(code, name=name), FAST, name=name, prefork=prefork_pool)
        made.append(p)
        r = p.start()
        assert r.ok and p.started_by == "prefork", (r, prefork_pool.last_error)
        return p

    yield make
    for p in made:
        p.close()


def template_of(pool) -> psutil.Process:
    return psutil.Process(pool.zygote(SHIM).pid)


def test_the_player_is_a_child_of_the_template_in_its_own_session(forked, prefork_pool):
    p = forked(REACH)
    assert psutil.Process(p.proc.pid).ppid() == template_of(prefork_pool).pid
    assert os.getsid(p.proc.pid) == os.getpgid(p.proc.pid) == p.proc.pid
    if not HOST["pid_namespace"].startswith("missing"):
        assert p.call("template").value == 0                  # its parent is outside its namespace
        assert p.call("session").value == [1, 1, 1]


def test_the_player_cannot_signal_the_template(forked, prefork_pool, require):
    require("seccomp")
    p = forked(REACH)
    r = p.call("signal_template")
    assert r.verdict is Verdict.ERROR and r.message.startswith("PermissionError"), r
    assert template_of(prefork_pool).status() != psutil.STATUS_ZOMBIE


def test_the_player_cannot_read_the_template_memory(forked, require):
    require("landlock")
    require("seccomp")
    p = forked(REACH)
    r = p.call("read_template_memory")
    assert r.verdict is Verdict.ERROR and r.message.startswith(("PermissionError", "FileNotFoundError")), r
    result, errno = p.call("vm_read_template").value
    assert result == -1 and errno != 0


def test_the_player_holds_only_its_own_descriptors(player, forked):
    """Both start modes: stdin, the output pipe twice, the two protocol pipes, and where the host
    keeps schedstat its own run delay, read-only; no socket (in particular not the template's
    control socket or another game's status socket)."""
    forked("def ping():\n    return 1\n", name="other")     # a template child whose status socket is open
    kinds = player(REACH).call("descriptors").value
    own_clock = ["own clock"] if os.path.exists("/proc/self/schedstat") else []
    assert sorted(kinds.values()) == sorted([*own_clock, "other", "pipe", "pipe", "pipe", "pipe"]), kinds
    assert kinds["1"] == kinds["2"] == "pipe"


def test_no_state_survives_between_two_games_of_one_submission(write_submission, prefork_pool):
    folder = write_submission(STATEFUL)
    seen, pids = [], []
    for _ in range(2):
        with PlayerProcess(SHIM, folder, FAST, prefork=prefork_pool) as p:
            assert p.start().ok and p.started_by == "prefork"
            seen.append(p.call("state").value)
            pids.append(p.proc.pid)
    assert [s["games_seen"] for s in seen] == [1, 1]
    assert [s["left_behind"] for s in seen] == [1, 1]
    assert pids[0] != pids[1]
    assert seen[0]["random"] != seen[1]["random"]              # not one inherited random state


def test_the_template_reaps_every_child_and_reports_its_status(forked, prefork_pool):
    p = forked("import os\ndef leave():\n    os._exit(7)\n")
    r = p.call("leave")
    assert r.verdict is Verdict.CRASHED and "status 7" in r.message, r
    assert p.close().exit_status == "exit 7"
    assert template_of(prefork_pool).children() == []


def test_a_killed_template_is_replaced_and_takes_its_players_with_it(forked, prefork_pool):
    running = forked("def ping():\n    return 'pong'\n", name="running")
    old = template_of(prefork_pool)
    old.kill()
    old.wait(5)
    assert not running.call("ping").ok                  # nothing it forked outlives it
    assert not psutil.pid_exists(running.proc.pid) or psutil.Process(running.proc.pid).status() == "zombie"
    fresh = forked("def ping():\n    return 'pong'\n", name="fresh")
    assert fresh.call("ping").value == "pong"
    assert template_of(prefork_pool).pid != old.pid
    assert running.close().exit_status                   # closes without its template's report


def test_a_forked_manager_starts_templates_of_its_own(forked, prefork_pool):
    forked("def ping():\n    return 1\n")
    parents = prefork_pool.zygotes[(SHIM, ())]
    prefork_pool.owner = -1                              # as if this process were a fork of the owner
    fresh = forked("def ping():\n    return 2\n", name="fresh")
    assert fresh.call("ping").value == 2
    assert prefork_pool.zygote(SHIM) is not parents and parents.alive()
    parents.stop()


def test_without_a_template_the_player_is_spawned(write_submission, monkeypatch, prefork_pool):
    monkeypatch.setattr(prefork, "available", lambda: "a test host without fork servers")
    with PlayerProcess(SHIM, write_submission("def ping():\n    return 1\n"), FAST, prefork=prefork_pool) as p:
        assert p.start().ok and p.started_by == "spawn"
        assert p.call("ping").value == 1


def test_a_template_that_cannot_start_falls_back_to_spawn(write_submission):
    with prefork.PreforkPool() as pool:
        p = PlayerProcess("no_such_shim_module", write_submission("X = 1\n"), FAST, prefork=pool)
        r = p.start()
        assert p.started_by == "spawn" and "no_such_shim_module" in pool.last_error
        assert r.verdict is Verdict.CRASHED, r               # the spawned child fails the same way
        p.close()
        assert pool.zygotes == {}


def test_shared_pool_through_prefork_true(write_submission):
    with PlayerProcess(SHIM, write_submission("def ping():\n    return 2\n"), FAST, prefork=True) as p:
        assert p.start().ok and p.started_by == "prefork"
        assert p.call("ping").value == 2
    assert prefork.shared_pool() is prefork.shared_pool()
    assert prefork.shared_pool().zygote(SHIM).alive()     # until the manager exits
