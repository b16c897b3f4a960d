"""What joining a cgroup costs at a player's start, and what clone3(CLONE_INTO_CGROUP) saves.

Two measurements. The mechanism, on this kernel: a child forked and then moved into a cgroup by
writing its pid to cgroup.procs (a migration: v1's waits for an RCU grace period unless
rcu_expedited is set), against a child created inside a cgroup v2 directory by clone3
(CLONE_INTO_CGROUP: no migration); medians of the fork call plus the child's own write, against the
clone3 call (what a child waits for a CPU is left out: the machine may be loaded). Then a
whole pre-forked player's start to its first reply, and a random-vs-random Colosseum game against
the same run's course simulator, with and without CLONE_INTO_CGROUP, where the players' cgroups
are v2 (the zygote creates the child in its cgroup, or forks it and the child joins it). Hosts without root, a cgroup2 mount, or v2 player cgroups say so in the row.
"""
from __future__ import annotations

import contextlib
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from sandbox import Limits, cgroup, cgroup_layout, confine, prefork

ROUNDS = 25
PAUSE_S = 0.1
STARTS = 15


def _median_ms(values: list[float]) -> float:
    return round(statistics.median(values) * 1000, 3)


def forked_then_joined(procs: Path | None) -> float:
    """Seconds a child's start costs when it is forked and then writes itself into `procs` (None:
    no cgroup): the fork call, in the parent, plus the write, timed by the child itself (so the
    time it waits for a CPU on a loaded machine is not counted)."""
    r, w = os.pipe()
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            t1 = time.perf_counter()
            if procs is not None:
                with open(procs, "w") as f:
                    f.write(str(os.getpid()))
            os.write(w, str(time.perf_counter() - t1).encode())
        finally:
            os._exit(0)
    forked = time.perf_counter() - t0
    os.close(w)
    with os.fdopen(r) as f:
        joined = float(f.read() or "nan")
    os.waitpid(pid, 0)
    return forked + joined


def created_inside(directory: Path) -> float:
    """Seconds the clone3(CLONE_INTO_CGROUP) call costs the parent (the child starts in its cgroup)."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        t0 = time.perf_counter()
        pid = confine.fork_into_cgroup(fd, False)
        if pid == 0:
            os._exit(0)
        took = time.perf_counter() - t0
    finally:
        os.close(fd)
    os.waitpid(pid, 0)
    return took


def _rows_of(label: str, runs: Callable[[], float]) -> dict[str, object]:
    """Median of ROUNDS runs, PAUSE_S apart: a migration right after another one finds the kernel's
    lock in its fast mode (0.4 ms against 11.7 ms, docs/BENCHMARKS.md); players start further apart."""
    times = []
    for _ in range(ROUNDS):
        time.sleep(PAUSE_S)
        times.append(runs())
    return {"what": label, "median ms": _median_ms(times), "child says": ""}


def mechanism_in_a_small_process() -> list[dict[str, object]]:
    """mechanism() in a fresh interpreter holding only the sandbox's cgroup modules: a fork costs
    what the forking process's memory map costs, and the benchmark runner's is large."""
    script = "import json, benchmarks.bench_cgroup_start as b; print(json.dumps(b.mechanism()))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1])
    rows: list[dict[str, object]] = json.loads(out.stdout)
    return rows


def mechanism() -> list[dict[str, object]]:
    """fork, fork + v1 migration, fork + v2 migration, clone3 into a v2 cgroup."""
    rows = [_rows_of("fork, no cgroup", lambda: forked_then_joined(None))]
    if os.geteuid() != 0:
        return rows + [{"what": "cgroups", "median ms": "not root: no cgroup can be made", "child says": ""}]
    layout = cgroup_layout.current()
    name = f"grader-bench-{secrets.token_hex(6)}"
    if "memory" in layout.v1:
        d = layout.v1["memory"] / name
        d.mkdir()
        try:
            rows.append(_rows_of("fork, then join a cgroup v1 memory cgroup (migration)",
                                 lambda: forked_then_joined(d / "cgroup.procs")))
        finally:
            cgroup.remove_dir(d)
    if layout.v2_dir is None:
        return rows + [{"what": "cgroup v2", "median ms": "no cgroup2 hierarchy mounted", "child says": ""}]
    base = cgroup.v2_base() if layout.memory_version() == 2 else layout.v2_mount.point if layout.v2_mount else None
    if base is None:
        return rows + [{"what": "cgroup v2", "median ms": "no cgroup v2 directory to make one in", "child says": ""}]
    d = base / name
    d.mkdir()
    try:
        rows.append(_rows_of("fork, then join a cgroup v2 cgroup (migration)", lambda: forked_then_joined(d / "cgroup.procs")))
        try:
            rows.append(_rows_of("clone3 CLONE_INTO_CGROUP into a cgroup v2 cgroup", lambda: created_inside(d)))
        except OSError as exc:
            rows.append({"what": "clone3 CLONE_INTO_CGROUP", "median ms": f"refused: {exc}", "child says": ""})
    finally:
        cgroup.kill_and_remove(d)
    return rows


@contextlib.contextmanager
def clone_into(enabled: bool) -> Iterator[None]:
    """Players started inside the block are created in their v2 cgroup (`enabled`), or forked and
    made to join it by cgroup.procs, as on a kernel without CLONE_INTO_CGROUP."""
    from sandbox.process import PlayerProcess  # here, not above: mechanism()'s small process must not hold it
    plain = PlayerProcess.child_config

    def config(self: PlayerProcess, uid_missing: str | None) -> object:
        cfg = plain(self, uid_missing)
        cfg.cgroup_dir = cfg.cgroup_dir if enabled else None
        return cfg

    PlayerProcess.child_config = config          # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        PlayerProcess.child_config = plain       # type: ignore[method-assign]


def one_start(pool: prefork.PreforkPool, folder: str) -> tuple[float, str]:
    """Seconds from a pre-forked player's start to its first reply, and what its cgroup step says."""
    from sandbox.process import PlayerProcess  # here, not above: as in clone_into
    p = PlayerProcess("sandbox.module_shim", folder, Limits(start_s=30.0, call_s=5.0), prefork=pool)
    t0 = time.perf_counter()
    assert p.start().ok and p.started_by == "prefork", pool.last_error
    took = time.perf_counter() - t0
    p.close()
    return took, p.protections.get("cgroup", "")


def with_and_without() -> list[dict[str, object]]:
    """A pre-forked player's start, and a random-vs-random Colosseum game against the same run's course
    simulator, with and without CLONE_INTO_CGROUP (players' cgroups must be v2)."""
    if cgroup.version() != 2 or cgroup.unavailable_reason() is not None:
        why = cgroup.unavailable_reason() or f"players' cgroups are v{cgroup.version()} here"
        return [{"what": "pre-forked player start and a game, with and without CLONE_INTO_CGROUP",
                 "median ms": f"n/a: {why}", "child says": ""}]
    from benchmarks import (
        bench_harness,  # here, not above: NumPy and the grader, which mechanism()'s process must not hold
    )
    rows: list[dict[str, object]] = []
    course_s = bench_harness._course_simulator(5 * bench_harness.GAMES)
    with tempfile.TemporaryDirectory() as tmp, prefork.PreforkPool() as pool:
        Path(tmp, "player.py").write_text("def ping():\n    return 'pong'\n")
        for label, enabled in (("with CLONE_INTO_CGROUP", True), ("without (joins by cgroup.procs)", False)):
            with clone_into(enabled):
                one_start(pool, tmp)                                  # the template starts once
                starts = [one_start(pool, tmp) for _ in range(STARTS)]
                game_s, _ = bench_harness._games(bench_harness.colosseum(game={"board_size": 8}), None)
            rows.append({"what": f"pre-forked player start, {label}", "median ms": _median_ms([t for t, _ in starts]),
                         "child says": starts[-1][1]})
            rows.append({"what": f"random v random 8x8 game, pre-forked, {label}",
                         "median ms": f"{game_s * 1000:.1f} ({game_s / course_s:.1f}x the course simulator's "
                                      f"{course_s * 1000:.1f})", "child says": ""})
    return rows


def run() -> tuple[str, list[dict[str, object]]]:
    title = (f"Joining a cgroup at a player's start (medians: {ROUNDS} children, {STARTS} players; "
             f"cgroup v{cgroup.version()} players here)")
    return title, mechanism_in_a_small_process() + with_and_without()
