"""The players of a dead worker are killed, and only those (issue 33): whether a worker is alive is
read from a lock it holds for each player's whole life, never from a pid or a wall-clock start
time; the kill names its player by start ticks through a pidfd. Another grader of the same user
reaping at the same time, or the clock moving, never touches a live worker's player."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from grader import executors

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="notes need flock and /proc")


@pytest.fixture
def stage_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_STAGE_DIR", str(tmp_path / "staged"))
    return tmp_path / "staged"


def sleeper() -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])


def run(code: str, env_stage: Path) -> subprocess.CompletedProcess:
    """Another process of this user (a worker, another grader) running `code`."""
    env = {**os.environ, "GRADER_STAGE_DIR": str(env_stage), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True,
                          timeout=120)


class FakePlayer:
    """What the tracker needs of a PlayerProcess: start(), close() and the process it started."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc = proc

    def start(self):
        return "started"

    def close(self):
        self.proc.kill()
        self.proc.wait()


def test_a_live_workers_player_survives_another_graders_reap_after_a_clock_step(stage_dir):
    proc = sleeper()
    player = executors.tracked(lambda: FakePlayer(proc))()
    try:
        player.start()
        # Another grader of this user reaps while the wall clock has moved by a second (NTP): a start
        # time in wall-clock seconds then no longer matches, and the live worker looked dead.
        done = run("""
            import psutil, psutil._pslinux as linux
            real = linux.boot_time
            linux.boot_time = lambda: real() + 1.0
            from grader import executors
            print(executors.reap_orphaned_players())
        """, stage_dir)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "0"
        assert proc.poll() is None
        assert len(list((stage_dir / ".players").iterdir())) == 1      # still on file: still reapable
    finally:
        player.close()
    assert list((stage_dir / ".players").iterdir()) == []


def test_a_dead_workers_player_is_killed_and_a_reused_pid_is_not(stage_dir):
    orphan, reused = sleeper(), sleeper()
    try:
        done = run(f"""
            import json, os
            from grader import executors
            executors._note_player({orphan.pid})
            fd, note = executors._note_player({reused.pid})
            data = json.loads(os.pread(fd, 4096, 0))
            data["start"] -= 1                     # as if {reused.pid} were a new process with that pid
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(data).encode(), 0)
            os._exit(0)                            # the worker dies without closing its players
        """, stage_dir)
        assert done.returncode == 0, done.stderr
        assert executors.reap_orphaned_players() == 1
        assert orphan.wait(10) == -9
        assert reused.poll() is None
        assert list((stage_dir / ".players").iterdir()) == []
    finally:
        for p in (orphan, reused):
            p.kill()
            p.wait()


def test_a_note_names_its_player_by_start_ticks_boot_and_namespace(stage_dir):
    proc = sleeper()
    try:
        fd, note = executors._note_player(proc.pid)
        data = json.loads(note.read_text())
        assert data["pid"] == proc.pid and data["start"] == executors._start_ticks(proc.pid)
        assert data["boot"] and data["pidns"]
        os.close(fd)
    finally:
        proc.kill()
        proc.wait()
