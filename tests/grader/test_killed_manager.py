"""Nothing outlives a killed grader (issue 38.7): after `kill -9` of the manager alone (`grader run`,
not its process group) at several moments, every process it had started -- players, pre-fork
templates, pool workers -- is gone, checked by identity (pid and start time in clock ticks, recorded
while they ran), never by counting processes; and the resumed league plays exactly the games an
uninterrupted run plays (same keys, same moves, same points)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from grader.assignment import load_assignments
from grader.league import run_league
from grader.store import Store
from tests.grader.test_league import _count_done as done_count
from tests.grader.test_league import make_config

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process identity from /proc")
GIVE_UP_S = 200                   # a failure bound only (below pytest-timeout): every wait ends once its condition holds


def identity(pid: int) -> tuple[int, int] | None:
    """(pid, start time in clock ticks since boot), or None when the process is gone or a zombie."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return None if fields[0] in ("Z", "X") else (pid, int(fields[19]))


def descendants(root: int) -> set[tuple[int, int]]:
    """The identities of every live process below `root` (through any pid namespace: read from ours)."""
    parent: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                for line in Path(f"/proc/{name}/status").read_text().splitlines():
                    if line.startswith("PPid:"):
                        parent[int(name)] = int(line.split()[1])
                        break
            except OSError:
                pass
    out = set()
    for pid in parent:
        p = pid
        while p in parent and p != root:
            p = parent[p]
        if p == root and pid != root and (ident := identity(pid)) is not None:
            out.add(ident)
    return out


def games(assignment) -> dict[str, tuple]:
    with Store(assignment.store_path) as store:
        return {g.key: (g.points0, g.points1, json.loads(g.moves_json)["moves"], g.status)
                for g in store.games(assignment.name)}


def league_in(folder: Path) -> Path:
    folder.mkdir()
    config = make_config(folder, ["baseline_student", "raises"], league={
        "format": "round_robin", "games_per_pair": 2, "seed": 11, "builtins": ["random"], "concurrency": 2,
        "prefork": True})
    secret = load_assignments(config)["arena"].store_path.parent / "league-secret"
    secret.parent.mkdir(parents=True, exist_ok=True)
    secret.write_text("cd" * 32)                   # the same league secret (seat seeds) in both folders
    return config


def grader_run(config: Path) -> subprocess.Popen:
    code = textwrap.dedent(f"""
        import sys
        from grader.cli import main
        sys.exit(main(["--config", {str(config)!r}, "run", "arena", "--quiet", "--no-report"]))
    """)
    return subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def wait_for(condition, what: str, proc: subprocess.Popen | None = None) -> None:
    give_up = time.monotonic() + GIVE_UP_S
    while not condition():
        if proc is not None:
            assert proc.poll() is None, proc.stderr.read().decode()[-2000:] if proc.stderr else "it ended"
        assert time.monotonic() < give_up, what
        time.sleep(0.02)


@pytest.mark.timeout(1200)     # two leagues of six games and a kill: about 50 s alone, beyond 300 s at load 30
@pytest.mark.parametrize("when", ["first_player", "mid_league"])
def test_kill_9_of_the_manager_leaves_no_process_and_the_resumed_league_is_the_uninterrupted_one(tmp_path, when):
    whole = league_in(tmp_path / "whole")
    assignment_whole, run = load_assignments(whole)["arena"], None
    run = run_league(assignment_whole, progress=False)
    assert run.played == 6 and run.infra_failed == 0

    config = league_in(tmp_path / "killed")
    assignment = load_assignments(config)["arena"]
    manager = grader_run(config)
    seen: set[tuple[int, int]] = set()
    try:
        def ready() -> bool:
            seen.update(descendants(manager.pid))
            players = any("sandbox.child" in _cmdline(pid) or _in_template(pid) for pid, _ in seen)
            return players and (when == "first_player" or done_count(assignment.store_path) >= 2)
        wait_for(ready, f"the league never reached {when}", manager)
        seen.update(descendants(manager.pid))
        os.kill(manager.pid, signal.SIGKILL)       # the manager alone: its players are in sessions of their own
        manager.wait()
    finally:
        if manager.poll() is None:
            manager.kill()
            manager.wait()
    assert seen
    wait_for(lambda: all(identity(pid) != (pid, start) for pid, start in seen),
             f"still alive after the manager's kill -9: {[p for p in seen if identity(p[0]) == p]}")

    resumed = run_league(assignment, progress=False)
    assert resumed.infra_failed == 0
    assert games(assignment) == games(assignment_whole)


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _in_template(pid: int) -> bool:
    """A pre-forked player: a process whose parent is a template (sandbox.zygote)."""
    try:
        ppid = next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                    if line.startswith("PPid:"))
    except (OSError, StopIteration):
        return False
    return "sandbox.zygote" in _cmdline(ppid) and "sandbox.zygote" in _cmdline(pid)


# Each assertion keeps cc1plus busy for seconds (4e6 constexpr steps, under GCC's limits; every call
# has new arguments, so none is memoised): minutes in all, longer than the wait below, so a compiler
# that outlived the manager is seen alive, not mistaken for one that finished.
SLOW_SUM = ("constexpr long slow_sum(long n) { long s = 0; for (long i = 0; i < n; ++i) "
            "for (long j = 0; j < n; ++j) s += (i ^ j) & 7; return s; }\n")
SLOW_TO_COMPILE = SLOW_SUM + "".join(f"static_assert(slow_sum({2000 + k}L) > 0, \"busy\");\n" for k in range(200))


def test_kill_9_of_grader_check_during_a_build_leaves_no_compiler(tmp_path):
    if not Path("/usr/bin/g++").exists():
        pytest.skip("no g++ here")
    folder = tmp_path / "prog"
    folder.mkdir()
    source = (ROOT / "submissions" / "doublecard" / "cpp_random" / "player.cpp").read_text()
    (folder / "player.cpp").write_text(source + SLOW_TO_COMPILE + f"// {os.urandom(8).hex()}\n")   # not cached
    manager = subprocess.Popen([sys.executable, "-m", "grader.cli", "--config", str(ROOT / "config.yaml"), "check",
                                str(folder / "player.cpp"), "--assignment", "doublecard"], cwd=ROOT,
                               start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env={**os.environ, "GRADER_STAGE_DIR": str(tmp_path / "staged")})
    seen: set[tuple[int, int]] = set()
    try:
        def compiling() -> bool:
            seen.update(descendants(manager.pid))
            return any("cc1plus" in _cmdline(pid) for pid, _ in seen)
        wait_for(compiling, "the build never started cc1plus", manager)
        os.kill(manager.pid, signal.SIGKILL)
        manager.wait()
    finally:
        if manager.poll() is None:
            manager.kill()
            manager.wait()
    try:
        wait_for(lambda: all(identity(pid) != (pid, start) for pid, start in seen),
                 f"still alive after the manager's kill -9: {[_cmdline(p) for p, s in seen if identity(p) == (p, s)]}")
    finally:
        for pid, start in seen:                    # a failure leaves no compiler busy for minutes
            try:
                pidfd = os.pidfd_open(pid)
            except OSError:
                continue
            if identity(pid) == (pid, start):      # pinned by the pidfd: never a reused pid
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
            os.close(pidfd)
