"""The grader's engines and probes are out of every player's reach in an installed copy (issue 27.7).

In a wheel installed into a fresh virtual environment (the README's student install; Gradescope's
/autograder/venv has the same shape), `rulesets/*/engine.py` and `probes.py` sit in the venv's
site-packages, beneath paths a player may read: a Python console program reads its interpreter's
prefix (the venv), and a native program whose read paths hold a system-wide install reads it too.
Each kind of player -- Python, a Python console program, a native program, a Java program -- in both
start modes, tries to read both files and gets an error.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import textwrap

import pytest

from sandbox import java

pytestmark = pytest.mark.slow

DRIVER = r'''
import json, os, shutil, subprocess, sys
from pathlib import Path

import rulesets
from grader.player_kinds import KINDS, RunJob
from sandbox import Limits, PlayerProcess
from sandbox.prefork import PreforkPool
from sandbox.command import Command, loader_paths

mode, work = sys.argv[1], Path(sys.argv[2])
game = Path(rulesets.__file__).resolve().parent / "quoridor"
targets = [str(game / "engine.py"), str(game / "probes.py")]
assert all(os.path.isfile(t) for t in targets) and str(game).startswith(sys.prefix), (game, sys.prefix)
limits = Limits(start_s=60, call_s=30, kill_after_s=5, clock="wall")
pool = PreforkPool() if mode == "prefork" else None


class Ask:
    def call(self, proc, method, args, soft):
        return proc.exchange_line([args["line"]], soft)


def readable(folder):
    for dirpath, dirnames, filenames in os.walk(folder):
        os.chmod(dirpath, 0o755)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), 0o755)
    return folder


def ask_lines(player, lines):
    res = player.start()
    assert res.ok, (res, player.close().output)
    assert player.started_by == mode, (player.started_by, pool and pool.last_error)
    got = [player.call("ask", {"line": line}) for line in lines]
    player.close()
    return [r.value if r.ok else f"{r.verdict.value}: {r.message}" for r in got]


out = {}
py = readable(work / "python-player")
p = PlayerProcess("sandbox.module_shim", py, limits, prefork=pool)
assert p.start().ok and p.started_by == mode, p.close().output
res = p.call("read", {"paths": targets})
out["python player"] = res.value if res.ok else res.message
p.close()

console = readable(work / "console")
program = KINDS["python"].run(RunJob(console, work / "console-out", 512))
out["python console program"] = ask_lines(
    PlayerProcess("sandbox.module_shim", console, limits, prefork=pool, lines=Ask(), program=program), targets)

native = readable(work / "native")
if shutil.which("gcc"):
    subprocess.run(["gcc", "-O1", "-o", str(native / "player"), str(native / "reader.c")], check=True)
    exe = str(native / "player")
    program = Command((exe,), execute=(exe, *loader_paths(exe)), read=(str(native), sys.prefix), io="lines")
    out["native program"] = ask_lines(
        PlayerProcess("sandbox.module_shim", native, limits, prefork=pool, lines=Ask(), program=program), targets)
from sandbox import java
jv = readable(work / "java")
if java.unavailable_reason() is None and (java.jdk_home() / "bin" / "javac").exists():
    subprocess.run([str(java.jdk_home() / "bin" / "javac"), "-d", str(jv), str(jv / "Reader.java")], check=True)
    readable(jv)
    tool = str(java.jdk_home() / "bin" / "java")
    argv = (tool, *java.memory_flags(limits.memory_mb), *java.JVM_FLAGS, "-cp", str(jv), "Reader")
    program = Command(argv, execute=(tool, *loader_paths(tool)), io="lines", address_space_mb=java.JVM_ADDRESS_SPACE_MB,
                      read=(*java.jdk_read_paths(java.jdk_home()), str(jv), sys.prefix))
    out["java program"] = ask_lines(
        PlayerProcess("sandbox.module_shim", jv, limits, prefork=pool, lines=Ask(), program=program), targets)
if pool is not None:
    pool.close()
print(json.dumps(out))
'''

PYTHON_PLAYER = '''
def read(paths):
    out = []
    for path in paths:
        try:
            with open(path, "rb") as f:
                out.append(f"read {len(f.read())} bytes")
        except OSError as exc:
            out.append(type(exc).__name__)
    return out
'''

CONSOLE = '''
import sys
for line in sys.stdin:
    try:
        with open(line.strip(), "rb") as f:
            print(f"read {len(f.read())} bytes", flush=True)
    except OSError as exc:
        print(type(exc).__name__, flush=True)
'''

NATIVE = r'''
#include <errno.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        FILE *f = fopen(line, "rb");
        if (!f) { printf("errno %d\n", errno); fflush(stdout); continue; }
        size_t n = 0; char buf[4096]; size_t k;
        while ((k = fread(buf, 1, sizeof buf, f)) > 0) n += k;
        fclose(f);
        printf("read %zu bytes\n", n);
        fflush(stdout);
    }
    return 0;
}
'''


JAVA = r'''
import java.io.*;
import java.nio.file.*;

public class Reader {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            try {
                System.out.println("read " + Files.readAllBytes(Paths.get(line.trim())).length + " bytes");
            } catch (Exception e) {
                System.out.println(e.getClass().getSimpleName());
            }
            System.out.flush();
        }
    }
}
'''


@pytest.fixture(scope="module")
def installed(wheel, venv_with, tmp_path_factory):
    return venv_with(wheel, tmp_path_factory.mktemp("reach") / "venv")


@pytest.mark.parametrize("mode", ["spawn", "prefork"])
def test_no_player_reads_the_engine_or_probes_of_an_installed_copy(installed, mode, tmp_path):
    for name, files in {"python-player": {"player.py": PYTHON_PLAYER}, "console": {"player.py": CONSOLE},
                        "native": {"reader.c": NATIVE}, "java": {"Reader.java": JAVA}}.items():
        (tmp_path / name).mkdir()
        for rel, text in files.items():
            (tmp_path / name / rel).write_text(textwrap.dedent(text))
    os.chmod(tmp_path, 0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GRADER_SANDBOX")}
    env["GRADER_STAGE_DIR"] = str(tmp_path / "staged")
    proc = subprocess.run([str(installed), "-c", DRIVER, mode, str(tmp_path)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    if shutil.which("gcc"):
        assert "native program" in seen
    if java.unavailable_reason() is None:
        assert "java program" in seen
    reached = {kind: got for kind, got in seen.items() if any(str(g).startswith("read ") for g in got)}
    assert reached == {}, seen
