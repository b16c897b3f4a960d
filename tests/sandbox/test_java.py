"""Java players in the sandbox: the same layers as Python players, against hostile JVM code.

Each player is a Bohnenspiel StudentPlayer compiled by javac inside the sandbox (sandbox/java.py)
and run by the Java shim; it reports what it saw by throwing RuntimeException("SAW ...").
"""
from __future__ import annotations

import hashlib
import os
import re
import time
from pathlib import Path

import psutil
import pytest

from rulesets.bohnenspiel import RULESET
from sandbox import Limits, PlayerProcess, Verdict, java, protections

pytestmark = pytest.mark.skipif(java.unavailable_reason() is not None, reason=java.unavailable_reason() or "")

SHIM = RULESET.shim
START = {"pits": [[6] * 6, [6] * 6], "scores": [0, 0], "credit": [2, 2], "barred": [0, 0], "turn_player": 0,
         "turn_number": 0, "ply": 0, "max_turns": 200, "end": None}
TEMPLATE = """package student_player;

import java.io.*;
import java.lang.reflect.*;
import java.util.*;

import bohnenspiel.BohnenspielBoardState;
import bohnenspiel.BohnenspielMove;
import bohnenspiel.BohnenspielPlayer;

public class StudentPlayer extends BohnenspielPlayer {
    static int moves = 0;
    public StudentPlayer() { super("260000000"); }
    public BohnenspielMove chooseMove(BohnenspielBoardState board_state) {
        moves++;
        try {
            if (moves > 0) {
                %s
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {                // an OutOfMemoryError goes through, as students' do
            throw new RuntimeException("SAW " + e);
        }
        return board_state.getLegalMoves().get(0);
    }
}
"""
_built: dict[str, tuple[Path, Path]] = {}


def compiled(body: str, tmp_root: Path) -> tuple[Path, Path]:
    """(submission folder, classes folder) for a chooseMove body, compiled once per body."""
    key = hashlib.sha256(body.encode()).hexdigest()[:16]
    if key not in _built:
        sub = tmp_root / f"java-{key}"
        (sub / "student_player").mkdir(parents=True)
        (sub / "student_player" / "StudentPlayer.java").write_text(TEMPLATE % body)
        api = java.api_classes(RULESET.java.sources, RULESET.java.bridge)
        out = tmp_root / f"classes-{key}"
        out.mkdir()
        os.chmod(out, 0o755)
        build = PlayerProcess(SHIM, sub, Limits(memory_mb=1024, start_s=120, freeze=False), name="javac",
                              program=java.compile_program(api, ["student_player/StudentPlayer.java"], out, 1024))
        res = build.run(120)
        assert res.ok, (res, build.close().output)
        build.close()
        _built[key] = (sub, out)
    return _built[key]


@pytest.fixture(scope="module")
def java_root(tmp_path_factory):
    return tmp_path_factory.mktemp("java")


@pytest.fixture
def jplayer(java_root, start_mode, request):
    """jplayer(body, memory_mb=500, **limits) -> a started Java PlayerProcess (spawned or pre-forked)."""
    made: list[PlayerProcess] = []
    pool = request.getfixturevalue("prefork_pool") if start_mode == "prefork" else None

    def make(body: str, memory_mb: int = 500, read_once: bool = False, **kw) -> PlayerProcess:
        sub, classes = compiled(body, java_root)
        if read_once:
            (sub / "data").mkdir(exist_ok=True)
            (sub / "data" / "table.txt").write_text("42\n")
            kw["readable_until_first_reply"] = ("data",)
        api = java.api_classes(RULESET.java.sources, RULESET.java.bridge)
        limits = Limits(**{"memory_mb": memory_mb, "start_s": 30.0, "call_s": 10.0, "kill_after_s": 2.0, **kw})
        p = PlayerProcess(SHIM, sub, limits, name="java", prefork=pool,
                          program=java.player_program(api, RULESET.java.bridge, classes, memory_mb,
                                                      read_once=read_once))
        made.append(p)
        r = p.start()
        assert r.ok, (r, p.close().output)
        assert p.started_by == start_mode
        assert p.call("setup", {"seat": 0}).ok
        return p

    yield make
    for p in made:
        p.close()


def move(p: PlayerProcess, **kw):
    return p.call("move", {"state": START, "last": []}, **kw)


def test_a_plain_java_player_moves_under_every_layer(jplayer):
    p = jplayer("")
    r = move(p)
    assert r.verdict is Verdict.OK and r.value == "PIT 0 0", r
    prot = p.protections
    assert "execve for" in prot["seccomp"] and "EXECUTE only" in prot["landlock"], prot
    assert prot.get("cgroup", True)


def test_writes_are_refused(jplayer):
    p = jplayer('''
        String out = "";
        for (String path : new String[] {"mine.txt", "/tmp/java-was-here", "student_player/x.class"}) {
            try { new FileOutputStream(path).close(); out += path + " written; "; }
            catch (IOException e) { out += path + " refused; "; }
        }
        throw new RuntimeException("SAW " + out);''')
    r = move(p)
    assert r.verdict is Verdict.ERROR and r.message.count("refused") == 3, r
    assert not os.path.exists("/tmp/java-was-here")


def test_network_is_refused(jplayer):
    p = jplayer('''
        String out = "";
        try { new java.net.Socket("127.0.0.1", 22).close(); out += "tcp connected; "; }
        catch (IOException e) { out += "tcp refused; "; }
        try { new java.net.DatagramSocket().close(); out += "udp opened; "; }
        catch (IOException e) { out += "udp refused; "; }
        throw new RuntimeException("SAW " + out);''')
    r = move(p)
    assert r.verdict is Verdict.ERROR and "tcp refused; udp refused" in r.message, r


def test_runtime_exec_starts_nothing(jplayer):
    p = jplayer('''
        String out = "";
        try { Runtime.getRuntime().exec(new String[] {"/bin/sleep", "30"}); out += "exec started; "; }
        catch (IOException e) { out += "exec refused; "; }
        try { new ProcessBuilder("/usr/lib/jvm/default-java/bin/java", "-version").start(); out += "jvm started; "; }
        catch (IOException e) { out += "jvm refused; "; }
        throw new RuntimeException("SAW " + out);''')
    r = move(p)
    assert r.verdict is Verdict.ERROR and "exec refused; jvm refused" in r.message, r
    assert psutil.Process(p.proc.pid).children(recursive=True) == []


def test_a_thread_spinning_while_frozen_gets_no_cpu(jplayer):
    p = jplayer('''
        if (moves == 1) {
            Thread t = new Thread(() -> { long n = 0; while (true) { n++; } });
            t.setDaemon(true);
            t.start();
        }''')
    assert move(p).ok
    proc = psutil.Process(p.proc.pid)
    before = sum(proc.cpu_times()[:2])
    time.sleep(0.8)
    assert sum(proc.cpu_times()[:2]) - before <= 0.02      # one or two clock ticks: stopped means stopped


def test_heap_beyond_the_limit_is_the_memory_verdict(jplayer):
    p = jplayer('''
        List<long[]> hoard = new ArrayList<>();
        while (true) { hoard.add(new long[1 << 20]); }''', memory_mb=300)
    r = move(p)
    assert r.verdict is Verdict.MEMORY and "memory" in r.message, r
    assert p.close().peak_memory_mb < 400


def test_native_memory_beyond_the_cgroup_is_the_memory_verdict(jplayer, require):
    require("cgroup")
    p = jplayer('''
        Field f = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
        f.setAccessible(true);
        sun.misc.Unsafe unsafe = (sun.misc.Unsafe) f.get(null);
        while (true) { long a = unsafe.allocateMemory(1 << 24); unsafe.setMemory(a, 1 << 24, (byte) 1); }''',
                memory_mb=300)
    r = move(p)
    assert r.verdict is Verdict.MEMORY, r


def test_reflection_into_the_shim_finds_no_game_state(jplayer):
    """Everything static a player can reach in the shim's classes: constants, nothing told or untold."""
    p = jplayer('''
        String out = "";
        for (String name : new String[] {"grader_shim.Main", "grader_shim.Json", "bohnenspiel.GraderBridge"}) {
            for (Field f : Class.forName(name).getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) continue;
                f.setAccessible(true);
                out += name + "." + f.getName() + "=" + f.get(null) + "; ";
            }
        }
        throw new RuntimeException("SAW " + out);''')
    r = move(p)
    assert r.verdict is Verdict.ERROR, r
    seen = r.message.split("SAW ", 1)[1]
    fields = sorted(item.split("=")[0] for item in seen.split("; ") if item)
    assert fields == ["bohnenspiel.GraderBridge.ENTRY", "grader_shim.Main.MEMORY_EXIT"], seen


TOLD = '''
        java.lang.management.ThreadMXBean own = java.lang.management.ManagementFactory.getThreadMXBean();
        long t = own.getCurrentThreadCpuTime();
        while (own.getCurrentThreadCpuTime() - t < 50_000_000L) { }     // 0.05 s of its own CPU, on either clock
        throw new RuntimeException("SAW " + grader_shim.CallTime.limitSeconds() + " " + grader_shim.CallTime.clock()
                + " " + grader_shim.CallTime.leftSeconds());'''


def told(r) -> tuple[float, str, float]:
    """What a TOLD player said it was told: (limit, clock, left)."""
    said = re.search(r"SAW (\S+) (\S+) (\S+)", r.message)
    assert r.verdict is Verdict.ERROR and said, r
    return float(said[1]), said[2], float(said[3])


@pytest.mark.parametrize("clock", ["wall", "cpu"])
def test_a_java_player_is_told_each_calls_limit_and_clock(jplayer, clock):
    """What a course API that hands the agent its time needs, as a Python shim's
    (tests/sandbox/test_clock_attribution.py): the first move is told what remains of the
    first-move allowance (here 7.25 s), a later one the per-move limit, on the assignment's clock;
    what is left after 0.05 s of the player's CPU is at most the limit less that."""
    p = jplayer(TOLD, clock=clock, call_s=5.0)
    limit, told_clock, left = told(move(p, soft=7.25))
    assert (limit, told_clock) == (7.25, clock)
    assert 0 < left <= 7.2
    limit, told_clock, left = told(move(p))
    assert (limit, told_clock) == (5.0, clock)
    assert 0 < left <= 4.95


def test_reading_the_console_does_not_touch_the_protocol(jplayer):
    p = jplayer('''
        int got = System.in.read();
        System.out.println("printed to the console");
        if (got != -1) throw new RuntimeException("SAW a byte");''')
    r = move(p)
    assert r.ok, r
    assert move(p).ok
    assert "printed to the console" in p.close().output


def test_data_is_readable_in_the_first_turn_only(jplayer):
    p = jplayer('''
        String got;
        try (BufferedReader in = new BufferedReader(new FileReader("data/table.txt"))) { got = in.readLine(); }
        catch (IOException e) { got = "refused"; }
        if (moves == 2 || !got.equals("42")) throw new RuntimeException("SAW move " + moves + ": " + got);''',
                read_once=True)
    assert move(p).ok                                  # the first move reads the table
    r = move(p)
    assert r.verdict is Verdict.ERROR and "SAW move 2: refused" in r.message, r



EARLY_THREAD = '''
        if (moves == 1) {                          // a thread started before the first reply ...
            final String[] seen = {null};
            Thread t = new Thread(() -> {
                while (moves < 2) { try { Thread.sleep(5); } catch (InterruptedException e) { return; } }
                try (BufferedReader in = new BufferedReader(new FileReader("data/table.txt"))) {
                    seen[0] = "read " + in.readLine();
                } catch (IOException e) { seen[0] = "refused"; }
            });
            t.setDaemon(true);
            t.start();
            System.getProperties().put("test.early", t);
            System.getProperties().put("test.seen", seen);
        } else {                                   // ... reads the first-turn files after it
            ((Thread) System.getProperties().get("test.early")).join(10000);
            throw new RuntimeException("EARLY " + ((String[]) System.getProperties().get("test.seen"))[0]);
        }'''


def test_a_java_thread_started_before_the_first_reply_loses_the_files_or_the_grader_says_so(jplayer):
    """Issue 38.8: as root the files are covered in the player's private root (every thread); without
    root only the thread that served the first move forgets them, and every report says so."""
    p = jplayer(EARLY_THREAD, read_once=True)
    assert move(p).ok
    r = move(p)
    assert r.verdict is Verdict.ERROR and "EARLY " in r.message, r
    own = p.protections.get("first_turn", "not reported")
    if "EARLY read 42" in r.message:               # the early thread still reads them here ...
        assert protections()["first_turn"].startswith("missing: not enforced for this user"), protections()
        assert own.startswith("missing"), own      # ... and that is said plainly
    else:
        assert "EARLY refused" in r.message, r
        assert not own.startswith("missing"), own
