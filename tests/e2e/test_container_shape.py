"""`grader check` as Gradescope runs it: root in a Docker container with Docker's default
capabilities and seccomp profile (tests/docker_default.py recreates both on this host), where no
new mount, pid or network namespace can be made. The check still gives the same verdicts as
outside, for an honest player and for one that tries to escape; its --json and the results.json
line name exactly the layers that held (those three missing, and the player's own uid, which
without a private root cannot reach the grader's 0700 staging folder); and a course that requires
a pid namespace is refused with the sentence saying how to get it."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from grader.gradescope import results_json
from grader.validation import ValidationReport

pytestmark = [pytest.mark.root, pytest.mark.skipif(shutil.which("setpriv") is None, reason="no setpriv (util-linux)")]

ROOT = Path(__file__).resolve().parents[2]
STUDENT = ROOT / "submissions" / "colosseum" / "baseline_student"
DOCKER = ROOT / "tests" / "docker_default.py"
# Raised at import when any attack succeeds, so the check's verdict itself says whether one did.
ATTACKS = '''
import os, socket
def _escaped():
    done = []
    try:
        open("/etc/shadow").read(1); done.append("read /etc/shadow")
    except OSError:
        pass
    try:
        open("/tmp/escaped-by-a-player", "w").write("x"); done.append("wrote /tmp")
    except OSError:
        pass
    try:
        socket.create_connection(("127.0.0.1", PORT), timeout=2).close(); done.append("TCP connect")
    except OSError:
        pass
    try:
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        done.append("fork")
    except OSError:
        pass
    return done
if _escaped():
    raise RuntimeError("escaped: " + ", ".join(_escaped()))
'''


def course(tmp_path: Path, require: list[str]) -> Path:
    block = {"ruleset": "colosseum", "submissions": "subs", "reports": "out", "game": {"board_size": 6},
             "validation": {"smoke_games": 0}, "sandbox": {"require": require}}
    (tmp_path / "subs").mkdir(exist_ok=True)
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump({"assignments": {"a": block}}), encoding="utf-8")
    return path


def check(config: Path, submission: Path, container: bool) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "grader.cli", "--config", str(config), "check", str(submission),
            "--assignment", "a", "--json", "--seed", "7"]      # the same positions inside and outside
    if container:
        argv = [sys.executable, str(DOCKER), *argv]
    return subprocess.run(argv, capture_output=True, text=True, timeout=900, cwd=ROOT)


def verdicts(done: subprocess.CompletedProcess[str]) -> tuple[bool, list[tuple[str, bool, str]]]:
    assert done.stdout.strip(), done.stderr
    doc = json.loads(done.stdout)
    return doc["passed"], [(c["name"], c["passed"], c["message"]) for c in doc["checks"]]


@pytest.fixture
def attacker(tmp_path):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    folder = tmp_path / "attacker"
    shutil.copytree(STUDENT, folder)
    entry = folder / "student_agent.py"
    entry.write_text(ATTACKS.replace("PORT", str(listener.getsockname()[1])) + entry.read_text())
    yield folder
    listener.close()
    assert not os.path.exists("/tmp/escaped-by-a-player")


def test_the_docker_shape_is_dockers():
    script = "grep -E '^(CapEff|CapBnd|Seccomp):' /proc/self/status; unshare --pid --fork true"
    done = subprocess.run([sys.executable, str(DOCKER), "sh", "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert "CapEff:\t00000000a80425fb" in done.stdout and "CapBnd:\t00000000a80425fb" in done.stdout
    assert "Seccomp:\t2" in done.stdout and "Operation not permitted" in done.stderr


def test_a_check_in_the_container_gives_the_verdicts_given_outside(tmp_path, attacker):
    config = course(tmp_path, [])
    for submission in (STUDENT, attacker):
        outside, inside = check(config, submission, False), check(config, submission, True)
        assert verdicts(inside) == verdicts(outside), inside.stderr
        assert verdicts(inside)[0], verdicts(inside)          # every attack failed, in both
    held = json.loads(inside.stdout)["sandbox"]
    for layer in ("pid_namespace", "private_root", "first_turn", "network", "uid"):
        assert held[layer].startswith("missing"), (layer, held[layer])
    assert "Operation not permitted" in held["pid_namespace"]
    for layer in ("landlock", "seccomp", "memory", "no_new_privs", "rlimits"):
        assert not held[layer].startswith("missing"), (layer, held[layer])
    line = results_json(ValidationReport(submission="s", sandbox=held))["output"]
    assert ("Sandbox protections that held for this run: landlock, seccomp, memory, capabilities, parent_death "
            "(partly), no_new_privs, rlimits, cpu, cpu_time, freeze, self_tuning, blame; missing: uid, pid_namespace, "
            "private_root, first_turn, network.") in line     # a build's compilers need a pid namespace to die with it


def test_a_required_pid_namespace_is_refused_in_the_container(tmp_path):
    done = check(course(tmp_path, ["pid_namespace"]), STUDENT, True)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "sandbox.require names protections this machine cannot apply" in done.stderr
    assert "pid_namespace (unshare(CLONE_NEWNS|CLONE_NEWPID|CLONE_NEWNET): Operation not permitted" in done.stderr
    assert "--cap-add SYS_ADMIN" in done.stderr
    assert check(course(tmp_path, ["pid_namespace"]), STUDENT, False).returncode in (0, 1)


# A player started in the container by each start mode: its attacks are the module's functions.
PLAYER = ATTACKS.replace("if _escaped():\n    raise RuntimeError(\"escaped: \" + \", \".join(_escaped()))\n", "") + '''
def escaped():
    return _escaped()
'''
IN_CONTAINER = '''
import json, sys
from sandbox import Limits, PlayerProcess, prefork
pool = prefork.PreforkPool() if sys.argv[2] == "prefork" else None
p = PlayerProcess("sandbox.module_shim", sys.argv[1], Limits(start_s=60.0, call_s=30.0), name="sub", prefork=pool)
start = p.start()
escaped = p.call("escaped", {})
report = p.close()
print(json.dumps({"started_by": p.started_by, "start": start.verdict.value, "escaped": escaped.value,
                  "verdict": escaped.verdict.value, "protections": report.protections}))
'''


@pytest.mark.parametrize("mode", ["spawn", "prefork"])
def test_each_start_mode_in_the_container_blocks_the_attacks_and_says_what_held(tmp_path, mode):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    folder = tmp_path / "sub"
    folder.mkdir()
    (folder / "player.py").write_text(PLAYER.replace("PORT", str(listener.getsockname()[1])))
    os.chmod(folder, 0o755)
    (folder / "player.py").chmod(0o644)
    done = subprocess.run([sys.executable, str(DOCKER), sys.executable, "-c", IN_CONTAINER, str(folder), mode],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    listener.close()
    assert done.stdout.strip(), done.stderr
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert (got["started_by"], got["start"], got["verdict"], got["escaped"]) == (mode, "ok", "ok", [])
    held = got["protections"]
    for layer in ("pid_namespace", "private_root", "netns", "uid"):
        assert held[layer].startswith("missing"), (layer, held[layer])
    assert "Operation not permitted" in held["pid_namespace"] + held["private_root"]
    for layer in ("landlock", "seccomp", "no_new_privs", "capabilities"):
        assert not held[layer].startswith("missing"), (layer, held[layer])
    assert not os.path.exists("/tmp/escaped-by-a-player")
