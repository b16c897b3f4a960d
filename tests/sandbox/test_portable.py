"""The portable sandbox of macOS and Windows (sandbox/portable.py), run here with the Linux layers
switched off (GRADER_SANDBOX=portable): the same calls, limits and verdicts, psutil's memory watch
and suspension, and nothing Linux-only imported on either side.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

import sandbox
from sandbox import Limits, Verdict

SHIM = "sandbox.module_shim"
ROOT = Path(__file__).resolve().parents[2]
LINUX_ONLY = ("resource", "fcntl", "termios", "pyseccomp", "seccomp", "sandbox.confine", "sandbox.landlock",
              "sandbox.seccomp_filter", "sandbox.child", "sandbox.prefork", "sandbox.zygote")

PLAYER = """
import os, sys, threading, time

ticks = [0]

def ping():
    return "pong"

def say(text):
    print(text)
    return len(text)

def boom():
    raise ValueError("bad move")

def sleep(s):
    time.sleep(s)
    return s

def spin():
    while True:
        pass

def hog(mb):
    chunks = []
    for _ in range(mb // 10):
        chunks.append(b"x" * (10 << 20))
    return len(chunks)

def leave(code):
    os._exit(code)

def start_ticking():
    out = os.open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "ticks"), os.O_WRONLY | os.O_CREAT)
    def tick():
        while True:
            ticks[0] += 1
            os.lseek(out, 0, os.SEEK_SET)             # (no pwrite on Windows, where this runs too)
            os.write(out, b"%12d" % ticks[0])         # readable from outside while it is stopped
            time.sleep(0.001)
    threading.Thread(target=tick, daemon=True).start()
    time.sleep(0.2)
    return ticks[0]

def ticked():
    return ticks[0]

def tick_on(n):
    start = ticks[0]
    while ticks[0] - start < n:
        time.sleep(0.01)
    return ticks[0] - start

def modules():
    return sorted(sys.modules)

def spawn_sleeper():
    import subprocess
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]).pid
"""


@pytest.fixture
def portable(monkeypatch, tmp_path):
    """portable(limits=None) -> a started player in the portable sandbox, closed at teardown."""
    monkeypatch.setenv("GRADER_SANDBOX", "portable")
    folder = tmp_path / "sub"
    folder.mkdir()
    (folder / "player.py").write_text(textwrap.dedent(PLAYER))
    made = []

    def make(limits: Limits | None = None):
        p = sandbox.PlayerProcess(SHIM, folder, limits or Limits(start_s=30.0, call_s=5.0, kill_after_s=1.0),
                                  prefork=True)
        made.append(p)
        r = p.start()
        assert r.ok, (r, p.close().output)
        return p
    yield make
    for p in made:
        p.close()


def call(p, function: str, soft: float | None = None, **args):
    return p.call("call", {"function": function, "args": args}, soft=soft)


def test_the_switch_chooses_the_portable_sandbox(monkeypatch):
    monkeypatch.setenv("GRADER_SANDBOX", "portable")
    assert sandbox.PlayerProcess.__name__ == "PortablePlayerProcess"
    prot = sandbox.protections()
    assert "stricter" in prot["sandbox"]
    assert prot["filesystem"].startswith("missing") and prot["network"].startswith("missing")
    assert "psutil" in prot["memory"] and "psutil" in prot["freeze"]
    monkeypatch.delenv("GRADER_SANDBOX")
    if sys.platform.startswith("linux"):
        assert sandbox.PlayerProcess.__name__ == "PlayerProcess" and "landlock" in sandbox.protections()


def test_answers_errors_and_output(portable):
    p = portable()
    assert p.started_by == "spawn"                     # no fork server: every player is spawned
    r = call(p, "ping")
    assert r.verdict is Verdict.OK and r.value == "pong"
    assert call(p, "say", text="hello from the player").value == 21
    r = call(p, "boom")
    assert r.verdict is Verdict.ERROR and "bad move" in r.message and "boom" in r.traceback
    assert call(p, "ping").ok                          # an exception leaves the process alive
    report = p.close()
    assert "hello from the player" in report.output
    assert report.exit_status == "exit 0" and report.peak_memory_mb and report.peak_memory_mb > 1


def test_late_then_killed_at_the_hard_limit(portable):
    p = portable(Limits(start_s=30.0, call_s=5.0, kill_after_s=1.5, clock="wall"))
    r = call(p, "sleep", soft=0.2, s=0.6)
    assert r.verdict is Verdict.LATE and r.value == 0.6
    r = call(p, "spin", soft=0.5)
    assert r.verdict is Verdict.KILLED and r.message.startswith("No answer after 2 s of wall-clock time"), r
    assert not p.alive
    assert call(p, "ping").verdict is Verdict.KILLED   # the death is repeated


def test_cpu_time_limits_in_the_portable_sandbox(portable):
    """The default clock counts the player's CPU time (psutil): sleeping is not late, spinning is."""
    p = portable(Limits(start_s=30.0, call_s=5.0, kill_after_s=1.5))
    assert call(p, "sleep", soft=0.2, s=0.6).verdict is Verdict.OK
    r = call(p, "spin", soft=0.5)
    assert r.verdict is Verdict.KILLED and "CPU" in r.message, r


def test_memory_watch_gives_the_memory_verdict(portable):
    p = portable(Limits(memory_mb=200, start_s=30.0, call_s=30.0, kill_after_s=1.0))
    r = call(p, "hog", mb=1500)
    assert r.verdict is Verdict.MEMORY and "200 MB" in r.message, r
    assert not p.alive
    assert p.close().peak_memory_mb > 200


def test_exit_and_crash_verdicts(portable):
    r = call(portable(), "leave", code=0)
    assert r.verdict is Verdict.EXITED
    r = call(portable(), "leave", code=3)
    assert r.verdict is Verdict.CRASHED and "status 3" in r.message


def test_suspended_between_calls(portable, tmp_path):
    """Its ticks are read from its file, not asked for: a call thaws it, and on a busy host the
    moments it is thawed around a call may last long enough for 100 ticks."""
    p = portable()
    assert call(p, "start_ticking").value > 0
    ticks = tmp_path / "sub" / "ticks"
    before = int(ticks.read_bytes())
    time.sleep(1.0)                    # suspended: its thread does not tick (running, it would ~1000 times)
    assert int(ticks.read_bytes()) == before
    after = call(p, "ticked").value
    running = call(p, "tick_on", soft=60.0, n=200)       # thawed during a call, it ticks (as fast as the
    assert running.ok and call(p, "ticked").value - after >= 200, running   # host lets it: no time bound)
    assert psutil.Process(p.proc.pid).status() == psutil.STATUS_STOPPED


def test_the_players_own_processes_die_with_it(portable):
    p = portable()
    sleeper = call(p, "spawn_sleeper").value
    assert psutil.pid_exists(sleeper)
    p.close()
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            if psutil.Process(sleeper).status() == psutil.STATUS_ZOMBIE:
                break
        except psutil.NoSuchProcess:
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"process {sleeper} started by the player outlived it")


def test_the_child_imports_nothing_linux_only(portable):
    loaded = set(call(portable(), "modules").value)
    assert "sandbox.callloop" in loaded                  # it is the portable child that answers
    assert not loaded & {*LINUX_ONLY, "sandbox.cgroup"}


def test_check_runs_with_linux_only_modules_unimportable(tmp_path):
    """The manager too: `grader check` with every Linux-only module made unimportable, as on Windows."""
    script = (f"import sys, psutil  # psutil itself needs resource on Linux\nfor m in {LINUX_ONLY!r}: sys.modules[m] = None\n"
              "from grader.cli import main\nsys.exit(main(sys.argv[1:]))\n")
    env = {**os.environ, "GRADER_SANDBOX": "portable", "GRADER_STAGE_DIR": str(tmp_path / "staged")}
    proc = subprocess.run([sys.executable, "-c", script, "--config", str(ROOT / "config.yaml"), "check",
                           str(ROOT / "submissions" / "quoridor" / "no_crossing"), "--assignment", "quoridor", "--json"],
                          capture_output=True, text=True, timeout=600, cwd=ROOT, env=env)
    assert proc.stdout.strip(), proc.stderr
    doc = json.loads(proc.stdout)
    assert proc.returncode == 1 and doc["points"] == 1                     # the same verdict as on the server
    assert {c["name"]: c["passed"] for c in doc["checks"]} == {
        "interface": True, "expand_player": True, "expand_obstacles": False, "smoke": True}
    assert "stricter" in doc["sandbox"]["sandbox"]


@pytest.mark.parametrize("io", ["none", "lines"])
def test_a_program_is_refused_in_one_sentence_never_a_traceback(monkeypatch, tmp_path, io):
    """A build (`run`) or a program player (`start`) in the portable sandbox, whose child only imports a
    Python shim: one sentence that blames the host, not the submission (it used to raise AttributeError
    from `run`, so `grader doctor` and every build ended in a traceback)."""
    from sandbox.command import Command

    monkeypatch.setenv("GRADER_SANDBOX", "portable")
    p = sandbox.PlayerProcess(SHIM, tmp_path, Limits(start_s=30.0, call_s=5.0), name="program",
                              program=Command(("/bin/true",), io=io))
    with p:
        res = p.run(30.0) if io == "none" else p.start()
    assert res.verdict is Verdict.INFRA and "portable sandbox runs Python players only" in res.message, res
    assert "not at fault" in res.message


def test_doctor_in_the_portable_sandbox_says_programs_cannot_run(monkeypatch, capsys):
    from grader.cli import main

    monkeypatch.setenv("GRADER_SANDBOX", "portable")
    main(["doctor"])
    said = capsys.readouterr()
    assert "Traceback" not in said.out + said.err
    assert "jdk" in said.out and "Python players only" in said.out, said.out
