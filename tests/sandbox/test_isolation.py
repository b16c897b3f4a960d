"""Nothing a player does reaches another process: each player has a uid of its own, is pid 1 of
its own pid namespace and sees a root holding only its read paths; calls that name another
process are closed; nothing in it names the manager, a template or another player; a killed
manager leaves no process, cgroup or box behind. Each attack in both start modes."""
from __future__ import annotations

import json
import os
import platform
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from sandbox import Limits, box

ROOT = Path(__file__).resolve().parents[2]
SLOW = Limits(start_s=20.0, call_s=15.0, kill_after_s=5.0)
IOPRIO = {"x86_64": (251, 252), "aarch64": (30, 31)}          # ioprio_set, ioprio_get

ATTACKER = """
import ctypes, json, os, platform, resource, sys

libc = ctypes.CDLL(None, use_errno=True)
IOPRIO_SET = {"x86_64": 251, "aarch64": 30}.get(platform.machine())

def outcome(fn):
    try:
        fn()
        return "changed"
    except OSError as exc:
        return type(exc).__name__

def prlimit(pid):
    return outcome(lambda: resource.prlimit(pid, resource.RLIMIT_CPU, (1, 1)))

def prlimit_fsize(pid):
    return outcome(lambda: resource.prlimit(pid, resource.RLIMIT_FSIZE, (0, 0)))

def setpriority(pid):
    return outcome(lambda: os.setpriority(os.PRIO_PROCESS, pid, 19))

def sched_idle(pid):
    return outcome(lambda: os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0)))

def ioprio(pid):
    if libc.syscall(IOPRIO_SET, 1, pid, 3 << 13) == 0:      # IOPRIO_WHO_PROCESS, class idle
        return "changed"
    return os.strerror(ctypes.get_errno())

def own_limits_still_work():
    resource.setrlimit(resource.RLIMIT_NOFILE, (32, 64))
    os.setpriority(os.PRIO_PROCESS, 0, 5)
    return [resource.getrlimit(resource.RLIMIT_NOFILE)[0], os.getpriority(os.PRIO_PROCESS, 0)]

def visible(pids):
    return [pid for pid in pids if os.path.exists(f"/proc/{pid}")]

def scan(limit):
    seen, readable = [], []
    for pid in range(2, limit):
        if os.path.exists(f"/proc/{pid}"):
            seen.append(pid)
        try:
            resource.prlimit(pid, resource.RLIMIT_CPU)
            readable.append(pid)
        except OSError:
            pass
    return {"seen": seen, "readable": readable}

def traces():
    out = {"argv": sys.argv, "orig_argv": getattr(sys, "orig_argv", []), "environ": dict(os.environ),
           "cwd": os.getcwd(), "files": {}}
    for path in ("/proc/self/cmdline", "/proc/self/environ", "/proc/self/cgroup", "/proc/self/status",
                 "/proc/self/mountinfo", "/proc/1/cgroup"):
        try:
            with open(path, "rb") as f:
                out["files"][path] = f.read().decode("utf-8", "replace")
        except OSError as exc:
            out["files"][path] = type(exc).__name__
    return out

def stat(path):
    try:
        st = os.stat(path)
        return f"visible, {st.st_size} bytes"
    except OSError as exc:
        return type(exc).__name__

IN_ALL_EVENTS, IN_NONBLOCK = 0xfff, 0o4000
watcher = None

def watch(paths):
    global watcher
    watcher = libc.inotify_init1(IN_NONBLOCK)
    got = {}
    for path in paths:
        wd = libc.inotify_add_watch(watcher, path.encode(), IN_ALL_EVENTS)
        got[path] = wd if wd >= 0 else os.strerror(ctypes.get_errno())
    return got

def events():
    if watcher is None or watcher < 0:       # seccomp denies inotify altogether
        return 0
    try:
        return len(os.read(watcher, 65536))
    except BlockingIOError:
        return 0

def identity():
    return {"uid": os.getuid(), "euid": os.geteuid(), "gid": os.getgid(), "groups": os.getgroups(),
            "pid": os.getpid()}

def limits():
    names = ["CPU", "DATA", "STACK", "NOFILE", "AS", "FSIZE", "CORE", "MEMLOCK", "NPROC"]
    return {n: list(resource.getrlimit(getattr(resource, "RLIMIT_" + n))) for n in names}
"""


def needs(p, layer: str) -> None:
    """Skip when this player did not get `layer` (e.g. a spawned player without root)."""
    applied = p.protections.get(layer, "missing: not reported")
    if applied.startswith("missing"):
        pytest.skip(f"{layer} {applied}")


@pytest.fixture
def template_pid(start_mode, request):
    """The template's pid in pre-forked mode (None when spawned: there is no template)."""
    if start_mode != "prefork":
        return None
    return request.getfixturevalue("prefork_pool").zygote("sandbox.module_shim", SLOW.cpu).pid


def targets(opponent, template_pid) -> dict[str, int]:
    out = {"opponent": opponent.proc.pid, "manager": os.getpid()}
    if template_pid is not None:
        out["template"] = template_pid
    return out


def ioprio_of(pid: int) -> int:
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    return libc.syscall(IOPRIO[platform.machine()][1], 1, pid)


def state_of(pid: int) -> tuple:
    """Limits, nice value, scheduling policy (from /proc: root here may lack CAP_SYS_RESOURCE
    to call prlimit on another uid) and I/O priority of `pid`."""
    limits = Path(f"/proc/{pid}/limits").read_text()
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return limits, fields[16], fields[38], ioprio_of(pid)


@pytest.mark.parametrize("attack", ["prlimit", "prlimit_fsize", "setpriority", "sched_idle", "ioprio"])
def test_calls_on_other_processes_fail_and_change_nothing(player, template_pid, attack):
    if platform.machine() not in IOPRIO:
        pytest.skip(f"no ioprio numbers for {platform.machine()}")
    p = player(ATTACKER, limits=SLOW)
    opponent = player("def ping():\n    return 'pong'\n", name="opponent", limits=SLOW)
    for who, pid in targets(opponent, template_pid).items():
        before = state_of(pid)
        r = p.call(attack, {"pid": pid})
        assert r.ok and r.value != "changed", (who, r)
        assert state_of(pid) == before, who
    assert opponent.call("ping").value == "pong"
    assert p.call("own_limits_still_work").value == [32, 5]     # on itself these calls still work


def test_no_other_process_is_visible_or_nameable(player, template_pid):
    p = player(ATTACKER, limits=SLOW)
    needs(p, "pid_namespace")
    needs(p, "private_root")
    opponent = player("def ping():\n    return 'pong'\n", name="opponent", limits=SLOW)
    known = list(targets(opponent, template_pid).values())
    assert p.call("visible", {"pids": known}).value == []
    found = p.call("scan", {"limit": 4096}).value
    assert found == {"seen": [], "readable": []}, found


def test_nothing_in_the_player_names_the_manager_or_another_process(player, template_pid):
    p = player(ATTACKER, limits=SLOW)
    opponent = player("def ping():\n    return 'pong'\n", name="opponent", limits=SLOW)
    text = json.dumps(p.call("traces").value)
    for who, pid in targets(opponent, template_pid).items():
        assert f'"{pid}' not in text and f"-{pid}" not in text and f" {pid}" not in text, (who, pid, text)
    for word in ("sandbox-", "grader-box", "/sys/fs/cgroup", "cgroup_procs", "memory/"):
        assert word not in text, (word, text)


def test_another_staged_submission_cannot_be_stat_ed_or_watched(player, write_submission, tmp_path):
    other = write_submission("SECRET = 1\n", name="other_student")
    p = player(ATTACKER, limits=SLOW)
    needs(p, "private_root")
    for path in (other, other / "player.py"):
        assert p.call("stat", {"path": str(path)}).value in ("FileNotFoundError", "PermissionError"), path
    watched = p.call("watch", {"paths": [str(tmp_path), str(other)]}).value
    assert not isinstance(watched[str(other)], int), watched
    (other / "answers.py").write_text("MOVE = 1\n")              # what a watcher could have seen
    (tmp_path / "third_student").mkdir()
    assert p.call("events").value == 0


def needs_root() -> None:
    if os.geteuid() != 0:
        pytest.skip("uids of their own and pid namespaces need root (protections() says why)")


def test_each_player_has_its_own_uid_and_no_capability(player):
    needs_root()
    a = player(ATTACKER, limits=SLOW).call("identity").value
    b = player(ATTACKER, name="opponent", limits=SLOW).call("identity").value
    assert a["uid"] == a["euid"] == a["gid"] and a["groups"] == []
    assert box.UID_BASE <= a["uid"] < box.UID_BASE + box.SLOTS
    assert a["uid"] != b["uid"] and os.getuid() not in (a["uid"], b["uid"])
    assert a["pid"] == b["pid"] == 1                            # each the init of its own namespace


def test_inherited_limits_do_not_count(player, start_mode, template_pid):
    """A lowered CPU or stack limit in whoever forks the player (the manager when spawned, the
    template when pre-forked) is reset to the grader's values in the player."""
    poisoned = template_pid if start_mode == "prefork" else os.getpid()
    saved = {r: resource.prlimit(poisoned, r) for r in (resource.RLIMIT_CPU, resource.RLIMIT_STACK)}
    resource.prlimit(poisoned, resource.RLIMIT_CPU, (100000, saved[resource.RLIMIT_CPU][1]))
    resource.prlimit(poisoned, resource.RLIMIT_STACK, (4 << 20, saved[resource.RLIMIT_STACK][1]))
    try:
        got = player(ATTACKER, limits=SLOW).call("limits").value
    finally:
        for r, value in saved.items():
            resource.prlimit(poisoned, r, value)
    inf = resource.RLIM_INFINITY
    assert got["CPU"] == [inf, inf] and got["DATA"] == [inf, inf], got
    assert got["STACK"] == [8 << 20, 8 << 20] and got["FSIZE"] == [0, 0] and got["NOFILE"] == [64, 64], got


MANAGER = """
import json, sys, time
from sandbox import Limits, PlayerProcess, prefork

mode, folder = sys.argv[1], sys.argv[2]
p = PlayerProcess("sandbox.module_shim", folder, Limits(start_s=30, call_s=30),
                  prefork=True if mode == "prefork" else None)
assert p.start().ok and p.started_by == mode
assert p.call("ping").ok                                  # frozen from here on
template = prefork.shared_pool().zygote("sandbox.module_shim", None).pid if mode == "prefork" else None
print(json.dumps({"player": p.proc.pid, "template": template, "uid": p.slot.uid,
                  "cgroups": [str(d) for d in p.cgroup.directories]}), flush=True)
time.sleep(600)
"""


def gone(pid: int | None) -> bool:
    try:
        return pid is None or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_a_killed_manager_leaves_no_process_cgroup_or_box(start_mode, write_submission):
    needs_root()
    folder = write_submission("def ping():\n    return 'pong'\n")
    manager = subprocess.Popen([sys.executable, "-c", MANAGER, start_mode, str(folder)], cwd=ROOT,
                               stdout=subprocess.PIPE, text=True)
    try:
        left = json.loads(manager.stdout.readline())
        assert psutil.Process(left["player"]).status() == psutil.STATUS_STOPPED
        manager.send_signal(signal.SIGKILL)
        manager.wait(10)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not (gone(left["player"]) and gone(left["template"])):
            time.sleep(0.05)
        assert gone(left["player"]) and gone(left["template"]), left
        assert box.processes_of(left["uid"]) == []
        box.sweep()                                           # what the next run does first
        assert [d for d in left["cgroups"] if os.path.exists(d)] == []
        assert str(manager.pid) not in (box.SLOTS_DIR / str(left["uid"])).read_text()
    finally:
        if manager.poll() is None:
            manager.kill()
            manager.wait()


def test_the_sweep_reclaims_a_dead_managers_box_and_leaves_live_ones(player):
    needs_root()
    live = player("def ping():\n    return 'pong'\n")
    uid = box.UID_BASE + box.SLOTS - 1                        # a box a dead manager left behind
    slot_file = box.SLOTS_DIR / str(uid)
    fd = box._lock(slot_file)
    if fd is None:
        pytest.skip("that box is in use by another run right now")
    slot_file.write_text("999999999\n")
    os.close(fd)
    straggler = subprocess.Popen([sys.executable, "-c", (f"import os, time; os.setresgid({uid}, {uid}, {uid}); "
                                  f"os.setresuid({uid}, {uid}, {uid}); time.sleep(600)")])
    try:
        deadline = time.monotonic() + 10
        while box.processes_of(uid) == [] and time.monotonic() < deadline:
            time.sleep(0.02)
        assert box.processes_of(uid) == [straggler.pid]
        box.sweep()
        assert straggler.wait(10) == -signal.SIGKILL
        assert "999999999" not in slot_file.read_text()          # clean (or already another run's)
        assert live.alive and live.call("ping").value == "pong"      # a live manager's box is left alone
        assert live.slot is not None and box.processes_of(live.slot.uid) == [live.proc.pid]
    finally:
        if straggler.poll() is None:
            straggler.kill()
            straggler.wait()
