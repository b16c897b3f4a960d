"""cgroup v1 and v2: which hierarchy holds each controller (from /proc texts: v1, v2, hybrid hosts and
containers), the v2 subtree the grader sets up (on a folder laid out like a v2 tree, and on this
kernel's cgroup2 mount with a controller it offers), the v2 player cgroup's files, clone3
CLONE_INTO_CGROUP and cgroup.kill on the kernel, and `grader doctor`'s fixes. The verdicts
themselves (memory, CPU time, pids) are the same tests on either backend: test_resources.py,
test_time_limits.py, test_isolation.py run on whichever this host gives (GRADER_CGROUP forces one)."""
from __future__ import annotations

import errno
import os
import secrets
import signal
import time
from pathlib import Path

import pytest

from grader.terminal_views import print_doctor
from grader.usecases import Protections
from sandbox import Verdict, cgroup, cgroup_layout, cgroup_tree, confine, host
from sandbox.cputime import CpuMeter

# A Debian 12 / Ubuntu 24.04 host: only cgroup2, the grader in a systemd service's cgroup.
V2_CGROUP = "0::/system.slice/grader.service\n"
V2_MOUNTINFO = """\
22 28 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw
26 22 0:23 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot
"""
# This project's VM: v1 hierarchies for every controller, and an empty cgroup2 mount beside them.
HYBRID_CGROUP = """\
9:name=systemd:/
8:pids:/
4:memory:/process_api/779f
2:cpuacct:/
1:cpu:/
0::/
"""
HYBRID_MOUNTINFO = """\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
"""
# Docker on a v1 host without a cgroup namespace: the mounts show the container's own paths.
DOCKER_V1_CGROUP = "11:memory:/docker/abc\n10:cpu,cpuacct:/docker/abc\n3:pids:/docker/abc\n"
DOCKER_V1_MOUNTINFO = """\
700 690 0:40 /docker/abc /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup rw,memory
701 690 0:41 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro,nosuid - cgroup cgroup rw,cpu,cpuacct
702 690 0:42 /docker/abc /sys/fs/cgroup/pids ro,nosuid - cgroup cgroup rw,pids
"""
# Docker on a v2 host (Gradescope's shape): a private cgroup namespace, "/" is the container's cgroup.
DOCKER_V2_CGROUP = "0::/\n"
DOCKER_V2_MOUNTINFO = "800 790 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup rw\n"


def test_a_v2_host_holds_every_controller_in_the_unified_hierarchy():
    layout = cgroup_layout.layout_from(V2_CGROUP, V2_MOUNTINFO, offered="cpuset cpu io memory pids")
    assert layout.v1 == {}
    assert layout.v2_dir == Path("/sys/fs/cgroup/system.slice/grader.service")
    assert layout.owner("memory") == layout.owner("pids") == layout.memory_version() == 2
    assert layout.owner("cpuacct") is None                   # v2 has no cpuacct: cpu.stat serves
    assert layout.hierarchy_path(Path("/sys/fs/cgroup/system.slice/grader.service/grader-x")) == \
        "/system.slice/grader.service/grader-x"


def test_a_hybrid_host_keeps_memory_where_v1_holds_it():
    layout = cgroup_layout.layout_from(HYBRID_CGROUP, HYBRID_MOUNTINFO, offered="hugetlb")
    assert layout.v1["memory"] == Path("/sys/fs/cgroup/memory/process_api/779f")
    assert layout.v1["pids"] == Path("/sys/fs/cgroup/pids")
    assert "systemd" not in layout.v1 and "name=systemd" not in layout.v1
    assert layout.v2_dir == Path("/sys/fs/cgroup/unified")
    assert layout.owner("memory") == layout.memory_version() == 1
    assert layout.owner("hugetlb") == 2
    assert layout.hierarchy_path(Path("/sys/fs/cgroup/memory/process_api/779f/grader-x")) == "/process_api/779f/grader-x"
    assert layout.hierarchy_path(Path("/sys/fs/cgroup/unified/grader-x")) == "/grader-x"


def test_forcing_v2_on_a_hybrid_host_says_why_it_cannot_be_used():
    layout = cgroup_layout.layout_from(HYBRID_CGROUP, HYBRID_MOUNTINFO, offered="hugetlb", forced="v2")
    assert layout.memory_version() == 2 and layout.owner("memory") == 1
    assert layout.memory_missing() == ("GRADER_CGROUP=v2, but the cgroup2 hierarchy at /sys/fs/cgroup/unified "
                                       "offers no memory controller (a cgroup v1 hierarchy holds it)")
    off = cgroup_layout.layout_from(V2_CGROUP, V2_MOUNTINFO, offered="memory", forced="off")
    assert off.memory_version() is None and off.memory_missing() == "GRADER_CGROUP=off"
    wrong = cgroup_layout.layout_from(V2_CGROUP, V2_MOUNTINFO, offered="memory", forced="v3")
    assert wrong.memory_version() is None and "none of v1, v2, off" in wrong.memory_missing()


def test_containers_find_their_own_cgroup_under_the_mount():
    v1 = cgroup_layout.layout_from(DOCKER_V1_CGROUP, DOCKER_V1_MOUNTINFO, offered="")
    assert v1.v1["memory"] == Path("/sys/fs/cgroup/memory")
    assert v1.v1["cpu"] == v1.v1["cpuacct"] == Path("/sys/fs/cgroup/cpu,cpuacct")
    assert v1.hierarchy_path(Path("/sys/fs/cgroup/memory/grader-x")) == "/docker/abc/grader-x"
    v2 = cgroup_layout.layout_from(DOCKER_V2_CGROUP, DOCKER_V2_MOUNTINFO, offered="memory pids")
    assert v2.v2_dir == Path("/sys/fs/cgroup") and v2.memory_version() == 2


def test_a_cgroup_outside_the_mounted_part_is_not_ours_to_use():
    layout = cgroup_layout.layout_from(
        "0::/elsewhere\n", "800 790 0:30 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", offered="memory")
    assert layout.v2_dir is None and layout.memory_version() is None
    assert cgroup_layout.unescape(r"/mnt/with\040space") == "/mnt/with space"


# ----------------------------------------------------------------- the v2 subtree, on a folder
def v2_folder(d: Path, *, controllers: str = "memory pids", enabled: str = "", procs: str = "",
              root: bool = False) -> Path:
    """A cgroup v2 directory as files: what the kernel would show."""
    d.mkdir(parents=True, exist_ok=True)
    (d / "cgroup.controllers").write_text(controllers + "\n")
    (d / "cgroup.subtree_control").write_text(enabled + "\n")
    (d / "cgroup.procs").write_text(procs)
    if not root:
        (d / "cgroup.type").write_text("domain\n")
    return d


def test_a_cgroup_holding_processes_moves_them_to_a_leaf_before_enabling(tmp_path):
    own = v2_folder(tmp_path / "grader.service", procs="4242\n")
    tree = cgroup_tree.set_up(own)
    assert tree.base == own and tree.controllers == {"memory", "pids"}
    assert (own / "grader-manager" / "cgroup.procs").read_text() == "4242"
    assert (own / "cgroup.subtree_control").read_text() == "+memory +pids"
    assert "moved 1 of its processes" in tree.note


def test_the_hierarchy_root_enables_controllers_without_moving_anyone(tmp_path):
    own = v2_folder(tmp_path / "root", procs="1\n", root=True)
    tree = cgroup_tree.set_up(own)
    assert tree.base == own and not (own / "grader-manager").exists()
    assert (own / "cgroup.subtree_control").read_text() == "+memory +pids"


def test_a_grader_started_inside_the_leaf_uses_the_subtree_already_set_up(tmp_path):
    parent = v2_folder(tmp_path / "grader.service", enabled="memory pids")
    leaf = v2_folder(parent / "grader-manager", controllers="memory pids", procs="77\n")
    tree = cgroup_tree.set_up(leaf)
    assert tree.base == parent and not (leaf / "grader-manager").exists()


def test_an_undelegated_memory_controller_is_one_sentence(tmp_path):
    own = v2_folder(tmp_path / "session-1.scope", controllers="pids", procs="9\n")
    with pytest.raises(OSError) as caught:
        cgroup_tree.set_up(own)
    assert caught.value.strerror == (f"the cgroup v2 controller memory is not delegated to {own} "
                                     f"(its cgroup.controllers: pids)")
    assert not (own / "grader-manager").exists()


def test_only_offered_controllers_are_enabled(tmp_path):
    own = v2_folder(tmp_path / "c", controllers="memory")
    tree = cgroup_tree.set_up(own)
    assert tree.controllers == {"memory"} and (own / "cgroup.subtree_control").read_text() == "+memory"


# ----------------------------------------------------------------- a v2 player cgroup, on a folder
def test_a_v2_player_cgroup_sets_its_limits_and_reads_its_verdicts(tmp_path, monkeypatch):
    g = cgroup.V2Cgroup(300, "grader-box-1700000000-abc", base=tmp_path)
    d = tmp_path / "grader-box-1700000000-abc"
    assert g.memory == d and g.directories == [d] and g.start_in == str(d)
    assert (d / "memory.max").read_text() == str(300 * 1024 * 1024)
    assert (d / "memory.swap.max").read_text() == "0"
    assert (d / "pids.max").read_text() == str(cgroup.PIDS_MAX)
    assert g.procs_files == [str(d / "cgroup.procs")] and g.cpu_usage_file == d / "cpu.stat"
    assert g.describe() == f"cgroup v2 300 MB, pids.max {cgroup.PIDS_MAX}"
    (d / "memory.events").write_text("low 0\nhigh 0\nmax 12\noom 1\noom_kill 0\noom_group_kill 0\n")
    assert not g.hit_limit()                        # "oom 1" is a limit reached, not a kill
    (d / "memory.events").write_text("low 0\nhigh 0\nmax 40\noom 2\noom_kill 1\noom_group_kill 0\n")
    assert g.hit_limit()
    (d / "memory.peak").write_text(str(150 * 1024 * 1024) + "\n")
    assert g.peak_mb() == 150
    removed = []
    monkeypatch.setattr(cgroup, "remove_dir", lambda path: removed.append((path, (path / "cgroup.kill").read_text())))
    g.remove()
    assert removed == [(d, "1")]                    # every task killed at once, then the directory removed


def test_player_cgroup_is_the_kind_the_host_holds_memory_in(tmp_path, monkeypatch):
    monkeypatch.setattr(cgroup, "version", lambda: 2)
    monkeypatch.setattr(cgroup, "subtree", lambda: cgroup_tree.Subtree(tmp_path, frozenset({"memory"}), ""))
    g = cgroup.PlayerCgroup(300, "grader-y")
    assert isinstance(g, cgroup.V2Cgroup) and g.memory == tmp_path / "grader-y"
    with pytest.raises(FileExistsError):
        cgroup.PlayerCgroup(300, "grader-y")              # another's: never taken over
    monkeypatch.setattr(cgroup, "version", lambda: 1)
    monkeypatch.setattr(cgroup, "own_dir", lambda controller: None)
    with pytest.raises(OSError, match="no cgroup v1 memory controller"):
        cgroup.PlayerCgroup(300, "grader-z")


def test_cpu_stat_is_read_in_microseconds(tmp_path):
    stat = tmp_path / "cpu.stat"
    stat.write_text("usage_usec 1500042\nuser_usec 1000000\nsystem_usec 500042\n")
    meter = CpuMeter(os.getpid(), stat)
    try:
        assert meter.source == "cgroup cpu.stat usage_usec (µs)" and meter.seconds() == 1.500042
        stat.write_text("usage_usec 2000000\nuser_usec 2000000\nsystem_usec 0\n")
        assert meter.seconds() == 2.0                # the open descriptor sees the new value
    finally:
        meter.close()


# ----------------------------------------------------------------- this kernel's cgroup2 mount
def v2_mount() -> Path:
    if os.geteuid() != 0:
        pytest.skip("making cgroups needs root")
    mount = cgroup_layout.current().v2_mount
    if mount is None or not (mount.point / "cgroup.procs").exists():
        pytest.skip("no cgroup2 hierarchy is mounted here")
    return mount.point


CHILDREN: list[int] = []         # forked by started_in, reaped by clear() (a zombie keeps its cgroup busy)


def clear(d: Path) -> None:
    """Kill every task in and under cgroup `d`, reap the ones this test forked, remove the cgroups under `d`."""
    below = sorted((p for p in d.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts))
    for leaf in [*below, d]:
        if leaf.exists():
            (leaf / "cgroup.kill").write_text("1")
    while CHILDREN:
        try:
            os.waitpid(CHILDREN.pop(), 0)
        except ChildProcessError:
            pass
    for leaf in below:
        cgroup.kill_and_remove(leaf)


@pytest.fixture
def v2_scratch():
    """A new cgroup at the top of this host's cgroup2 hierarchy, removed (its tasks killed and
    reaped) after."""
    d = v2_mount() / f"grader-test-{secrets.token_hex(6)}"
    d.mkdir()
    yield d
    if d.exists():
        clear(d)
        cgroup.kill_and_remove(d)
    assert not d.exists()


@pytest.fixture
def v2_controller(v2_scratch):
    """A controller the cgroup2 hierarchy offers, enabled at its root for the test (then restored)."""
    root = v2_scratch.parent
    offered = sorted(cgroup_tree.words(root / "cgroup.controllers"))
    pick = "hugetlb" if "hugetlb" in offered else next(iter(offered), None)
    if pick is None:
        pytest.skip("the cgroup2 hierarchy offers no controller here")
    added = pick not in cgroup_tree.words(root / "cgroup.subtree_control")
    if added:
        cgroup_tree.enable(root, [pick])
    yield pick
    clear(v2_scratch)
    (v2_scratch / "cgroup.subtree_control").write_text(f"-{pick}")
    if added:
        cgroup.kill_and_remove(v2_scratch)
        (root / "cgroup.subtree_control").write_text(f"-{pick}")


def started_in(d: Path, new_pid_namespace: bool, stay: bool = False) -> tuple[int, str]:
    """A child created inside `d`: (its pid, what it reported: "<its pid inside> <its cgroup line>").
    It exits after reporting or, with `stay`, sleeps until killed."""
    r, w = os.pipe()
    fd = os.open(d, os.O_RDONLY | os.O_DIRECTORY)
    try:
        pid = confine.fork_into_cgroup(fd, new_pid_namespace)
    finally:
        os.close(fd)
    CHILDREN.append(pid)
    if pid == 0:
        try:
            os.close(r)
            with open("/proc/self/cgroup") as f:
                line = next(x for x in f.read().splitlines() if x.startswith("0::"))
            os.write(w, f"{os.getpid()} {line}".encode())
            os.close(w)
            while stay:
                time.sleep(1)
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        return pid, f.read()


@pytest.mark.root
def test_clone_into_cgroup_creates_the_child_in_its_cgroup_with_no_migration(v2_scratch):
    _, report = started_in(v2_scratch, new_pid_namespace=True)
    _, status = os.waitpid(CHILDREN.pop(), 0)
    inside_pid, line = report.split(" ", 1)
    assert os.waitstatus_to_exitcode(status) == 0
    assert line == f"0::{cgroup_layout.current().hierarchy_path(v2_scratch)}"
    assert inside_pid == "1"                                     # and pid 1 of its own namespace
    usage = cgroup.read_key(v2_scratch / "cpu.stat", "usage_usec")
    assert usage is not None and usage > 0                       # its CPU time, counted by the cgroup


@pytest.mark.root
def test_cgroup_kill_ends_every_task_and_the_directory_goes(v2_scratch):
    pids = [started_in(v2_scratch, new_pid_namespace=False, stay=True)[0] for _ in range(2)]
    assert sorted(int(p) for p in (v2_scratch / "cgroup.procs").read_text().split()) == sorted(pids)
    cgroup.kill_and_remove(v2_scratch)
    for pid in pids:
        CHILDREN.remove(pid)
        _, status = os.waitpid(pid, 0)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    assert not v2_scratch.exists()


@pytest.mark.root
def test_a_cgroup_holding_processes_cannot_enable_controllers_for_its_children(v2_scratch, v2_controller):
    started_in(v2_scratch, new_pid_namespace=False, stay=True)
    with pytest.raises(OSError) as caught:
        cgroup_tree.enable(v2_scratch, [v2_controller])
    assert caught.value.errno == errno.EBUSY                     # the rule set_up works around


@pytest.mark.root
def test_set_up_moves_the_processes_and_enables_a_controller_on_this_kernel(v2_scratch, v2_controller):
    pick = v2_controller
    pid, _ = started_in(v2_scratch, new_pid_namespace=False, stay=True)
    tree = cgroup_tree.set_up(v2_scratch, controllers=(pick,), required=(pick,))
    assert tree.base == v2_scratch and tree.controllers == {pick}
    assert (v2_scratch / "grader-manager" / "cgroup.procs").read_text().split() == [str(pid)]
    assert (v2_scratch / "cgroup.procs").read_text() == ""
    player = v2_scratch / "player"
    player.mkdir()
    assert any(f.name.startswith(pick + ".") for f in player.iterdir())   # the controller applies there
    again = cgroup_tree.set_up(v2_scratch / "grader-manager", controllers=(pick,), required=(pick,))
    assert again.base == v2_scratch                              # a second grader started inside the leaf


# ----------------------------------------------------------------- grader doctor
def test_doctor_gives_the_fix_for_each_missing_layer(monkeypatch):
    monkeypatch.setattr(host, "userns_reason", lambda: "not root, and kernel.unprivileged_userns_clone is 0")
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(cgroup_layout, "current", lambda: cgroup_layout.layout_from(
        V2_CGROUP, V2_MOUNTINFO, offered="memory pids"))
    prot = {"memory": "RLIMIT_AS 500 MB; missing: a memory cgroup (not root, and …)",
            "pid_namespace": "missing: not root, and kernel.unprivileged_userns_clone is 0",
            "landlock": "ABI 4: …", "uid": "missing: not root"}
    fixes = host.fixes(prot)
    assert fixes == {"memory": host.DELEGATE + ", or run it as root",
                     "pid_namespace": "sysctl -w kernel.unprivileged_userns_clone=1",
                     "uid": host.AS_ROOT}
    assert "Delegate=yes" in fixes["memory"]


def test_doctor_prints_each_fix_under_its_layer():
    from io import StringIO

    from rich.console import Console
    out = StringIO()
    print_doctor(Console(file=out, width=200, color_system=None), Protections(
        {"memory": "RLIMIT_AS 500 MB; missing: a memory cgroup (x)", "landlock": "ABI 4"}, {}, {}, False,
        {"memory": "run the grader in a systemd unit with Delegate=yes"}, ["echo 1 > /sys/kernel/rcu_expedited"]))
    lines = out.getvalue().splitlines()
    at = next(i for i, line in enumerate(lines) if "memory" in line and "RLIMIT_AS" in line)
    assert "fix: run the grader in a systemd unit with Delegate=yes" in lines[at + 1]
    assert any("faster: echo 1 > /sys/kernel/rcu_expedited" in line for line in lines)


def test_the_cgroup_fix_follows_the_host(monkeypatch):
    hybrid = cgroup_layout.layout_from(HYBRID_CGROUP, HYBRID_MOUNTINFO, offered="hugetlb", forced="v2")
    monkeypatch.setattr(cgroup_layout, "current", lambda: hybrid)
    assert host.cgroup_fix() == "unset GRADER_CGROUP (it is 'v2')"
    monkeypatch.setattr(cgroup_layout, "current", lambda: cgroup_layout.layout_from(
        HYBRID_CGROUP, HYBRID_MOUNTINFO, offered="hugetlb"))
    assert host.cgroup_fix().startswith(host.AS_ROOT)


# ----------------------------------------------------------------- a player started in a v2 cgroup
@pytest.mark.root
def test_a_player_is_created_in_its_v2_cgroup_when_pre_forked_and_joins_it_when_spawned(
        v2_scratch, player, start_mode, monkeypatch):
    """Where players' cgroups are v2, its own; on a v1 or hybrid host a cgroup2 directory is added
    to the player's: the template creates the child inside it (clone3), a spawned child joins it."""
    from sandbox.process import PlayerProcess
    plain = PlayerProcess.child_config

    def with_v2(self, uid_missing):
        cfg = plain(self, uid_missing)
        cfg.cgroup_procs = [*cfg.cgroup_procs, str(v2_scratch / "cgroup.procs")]
        cfg.cgroup_dir = str(v2_scratch)
        return cfg

    if cgroup.version() != 2:
        monkeypatch.setattr(PlayerProcess, "child_config", with_v2)
    p = player("def ping():\n    return 'pong'\n")
    assert p.call("ping").value == "pong"
    expected = p.cgroup.memory if cgroup.version() == 2 else v2_scratch
    with open(f"/proc/{p.proc.pid}/cgroup") as f:
        line = next(x for x in f.read().splitlines() if x.startswith("0::"))
    assert line == f"0::{cgroup_layout.current().hierarchy_path(expected)}"
    created = "cgroup v2 (created in it: clone3 CLONE_INTO_CGROUP)"
    joined = p.protections["cgroup"]
    assert (created in joined) == (start_mode == "prefork"), joined
    assert "cgroup v2" in joined and str(expected) not in joined


ESCAPE = """
import os

def leave(paths):
    out = {}
    for path in paths:
        try:
            with open(path, "w") as f:
                f.write("0")                        # "0": the writer itself, whatever its pid is here
            out[path] = "moved"
        except Exception as exc:
            out[path] = type(exc).__name__
    for path in paths:                              # a cgroup of its own, with no limit
        try:
            os.mkdir(os.path.join(os.path.dirname(path), "mine"))
            out[path + " mkdir"] = "made"
        except Exception as exc:
            out[path + " mkdir"] = type(exc).__name__
    return out

def grow(mb):
    blocks = [bytearray(1 << 20) for _ in range(mb)]
    return len(blocks)
"""


@pytest.mark.root
def test_a_player_cannot_leave_its_cgroup_or_make_one(player, require, limits):
    """It writes itself into every cgroup it could name (its cgroup's parent, the grader's own, the
    hierarchies' roots) and tries to make a cgroup of its own; it stays in its cgroup and still gets
    the memory verdict."""
    require("cgroup")
    p = player(ESCAPE, limits=limits(memory_mb=200, call_s=10))
    layout = cgroup_layout.current()
    mine = p.cgroup.directories
    targets = {d.parent / "cgroup.procs" for d in mine} | {m.point / "cgroup.procs" for m in layout.mounts}
    targets |= {d / "cgroup.procs" for d in [*layout.v1.values(), layout.v2_dir] if d is not None}
    got = p.call("leave", {"paths": sorted(map(str, targets))}).value
    assert not {"moved", "made"} & set(got.values()), got
    with open(f"/proc/{p.proc.pid}/cgroup") as f:
        paths = {line.split(":", 2)[2] for line in f.read().splitlines()}
    assert {layout.hierarchy_path(d) for d in mine} <= paths
    r = p.call("grow", {"mb": 400})
    assert r.verdict is Verdict.MEMORY, r


@pytest.mark.root
def test_a_forced_backend_is_the_one_players_get(player):
    """GRADER_CGROUP=v2 (a v2 guest's run) fails here, rather than skipping every cgroup test, when
    its players do not get cgroup v2."""
    want = os.environ.get(cgroup_layout.FORCE_ENV, "")
    if want not in ("v1", "v2"):
        pytest.skip(f"{cgroup_layout.FORCE_ENV} forces no backend in this run")
    assert host.protections()["memory"].startswith(f"cgroup {want} "), host.protections()["memory"]
    p = player("def ping():\n    return 'pong'\n")
    assert p.protections["memory"].startswith(f"cgroup {want} "), p.protections
