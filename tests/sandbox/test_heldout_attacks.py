"""Attacks written apart from the other sandbox tests, of the same classes (issue 16): each one
succeeded against the sandbox before its fix, or covers a path no other test takes. Both start
modes wherever a player runs."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from sandbox import Limits, wire

ROOT = Path(__file__).resolve().parents[2]
SLOW = Limits(start_s=20.0, call_s=15.0, kill_after_s=5.0)


def gone(pid: int | None) -> bool:
    try:
        return pid is None or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


# -- reaching other processes ---------------------------------------------------------------

OUTLIVER = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)

def clear_death_signal():
    return libc.prctl(1, 0, 0, 0, 0) == 0        # PR_SET_PDEATHSIG 0: survive the parent
"""

MANAGER = """
import json, sys, time
from sandbox import Limits, PlayerProcess, prefork

mode, folder = sys.argv[1], sys.argv[2]
p = PlayerProcess("sandbox.module_shim", folder, Limits(start_s=30, call_s=30),
                  prefork=True if mode == "prefork" else None)
assert p.start().ok and p.started_by == mode
r = p.call("clear_death_signal")                         # frozen (SIGSTOP) from here on
print(json.dumps({"player": p.proc.pid, "cleared": r.value}), flush=True)
time.sleep(600)
"""


def test_a_player_cannot_clear_its_death_signal_to_outlive_a_killed_manager(start_mode, write_submission):
    """A player that clears PR_SET_PDEATHSIG would stay behind (stopped, or spinning in a call)
    after `kill -9` of the manager until the next run's sweep; without root nothing sweeps it."""
    folder = write_submission(OUTLIVER)
    manager = subprocess.Popen([sys.executable, "-c", MANAGER, start_mode, str(folder)], cwd=ROOT,
                               stdout=subprocess.PIPE, text=True)
    try:
        line = manager.stdout.readline()
        if not line:
            pytest.skip(f"no {start_mode} player here")
        left = json.loads(line)
        manager.send_signal(signal.SIGKILL)
        manager.wait(10)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not gone(left["player"]):
            time.sleep(0.05)
        survived = not gone(left["player"])
        if survived:
            os.kill(left["player"], signal.SIGKILL)
        assert not survived and left["cleared"] is False, left
    finally:
        if manager.poll() is None:
            manager.kill()
            manager.wait()


RENICER = """
import ctypes, os, platform
libc = ctypes.CDLL(None, use_errno=True)
IOPRIO_SET = {"x86_64": 251, "aarch64": 30}[platform.machine()]

def renice_others():
    out = {}
    for which, name in ((os.PRIO_USER, "user"), (os.PRIO_PGRP, "group")):
        try:
            os.setpriority(which, 0, 19)          # who 0: every process of my uid / my group
            out[name] = "changed"
        except OSError as exc:
            out[name] = type(exc).__name__
    for which, name in ((3, "io user"), (2, "io group")):        # IOPRIO_WHO_USER, IOPRIO_WHO_PGRP
        ok = libc.syscall(IOPRIO_SET, which, 0, 3 << 13) == 0
        out[name] = "changed" if ok else os.strerror(ctypes.get_errno())
    try:
        os.setpriority(os.PRIO_PROCESS, 0, 5)     # on itself too: no player tunes its own scheduling (blame)
        out["self"] = "changed"
    except OSError as exc:
        out["self"] = type(exc).__name__
    return out
"""


def test_priority_calls_for_a_whole_user_or_group_are_closed(player):
    """setpriority and ioprio_set were allowed with who 0, which with PRIO_USER means every process
    of the caller's uid: without a uid of its own (an ordinary user's grader) that is the manager
    and the opponent, reniced to 19 by one call. PRIO_PROCESS on itself is closed as well (issue 38.1:
    no player changes its own priority; tests/sandbox/test_blame.py)."""
    import platform
    if platform.machine() not in ("x86_64", "aarch64"):
        pytest.skip(f"no ioprio numbers for {platform.machine()}")
    p = player(RENICER, limits=SLOW)
    if p.protections.get("uid", "missing").startswith("missing"):
        pytest.skip("without a uid of its own the attack would renice this machine's processes of our uid")
    got = p.call("renice_others").value
    assert got == {"user": "PermissionError", "group": "PermissionError", "io user": "Operation not permitted",
                   "io group": "Operation not permitted", "self": "PermissionError"}, got


OWNER = """
import fcntl, os, socket, struct

def own(target):
    out = {}
    r, w = os.pipe()
    a, b = socket.socketpair()
    for name, fn in (("F_SETOWN", lambda: fcntl.fcntl(r, fcntl.F_SETOWN, target)),
                     ("F_SETOWN_EX", lambda: fcntl.fcntl(r, 15, struct.pack("ii", 1, target))),
                     ("FIOSETOWN", lambda: fcntl.ioctl(a.fileno(), 0x8901, struct.pack("i", target))),
                     ("SIOCSPGRP", lambda: fcntl.ioctl(a.fileno(), 0x8902, struct.pack("i", target)))):
        try:
            fn()
            out[name] = "set"
        except OSError as exc:
            out[name] = type(exc).__name__
    return out
"""


def test_no_process_can_be_made_a_descriptors_owner(player):
    """F_SETOWN (and its ioctl forms) with O_ASYNC makes the kernel signal the owner -- SIGIO, or
    any signal F_SETSIG picks -- whenever the descriptor is ready: a kill that the seccomp rule on
    `kill` never sees, open between processes of one uid where Landlock has no signal scope.
    Closed for every target, itself included (nothing a player needs)."""
    p = player(OWNER, limits=SLOW)
    got = p.call("own", {"target": 1}).value
    assert got == dict.fromkeys(("F_SETOWN", "F_SETOWN_EX", "FIOSETOWN", "SIOCSPGRP"), "PermissionError"), got


TAKEOVER = """
import fcntl, json, os, stat, struct, sys

def read(path):
    with open(path) as f:
        return f.read()

def pipes():
    req = rep = None
    for fd in range(3, 64):
        try:
            st = os.fstat(fd)
        except OSError:
            continue
        if stat.S_ISFIFO(st.st_mode):
            if fcntl.fcntl(fd, fcntl.F_GETFL) & 3 == 0:
                req = fd
            elif st.st_ino != os.fstat(1).st_ino:
                rep = fd
    return req, rep

def move(path):
    req, rep = pipes()
    frame = sys._getframe(1)
    while "msg" not in frame.f_locals:
        frame = frame.f_back
    def send(obj):
        body = json.dumps(obj).encode()
        os.write(rep, struct.pack(">I", len(body)) + body)
    send({"ok": read(path), "id": frame.f_locals["msg"]["id"]})
    while True:                      # this thread, which read in the first move, answers every call
        head = os.read(req, 4)
        if len(head) < 4:
            os._exit(0)
        n, body = struct.unpack(">I", head)[0], b""
        while len(body) < n:
            body += os.read(req, n - len(body))
        m = json.loads(body)
        try:
            send({"ok": read(m["args"]["path"]), "id": m["id"]})
        except OSError as exc:
            send({"error": {"type": type(exc).__name__, "message": str(exc), "traceback": ""}, "id": m["id"]})
"""


@pytest.mark.parametrize("granted", ["folder", "file"])
def test_a_player_that_keeps_serving_from_its_first_move_cannot_read_first_turn_files_later(player, tmp_path,
                                                                                             granted):
    """The child forgets the first-turn files by stacking a Landlock domain on the thread that
    served the first move, after that move returns. A player whose first move never returns, and
    which answers every later call itself from the reply pipe, kept reading them; the manager now
    covers them in the player's root from outside (root only: a private root)."""
    from sandbox import Verdict
    data = tmp_path / "data"
    data.mkdir()
    (data / "book.txt").write_text("opening book")
    first_turn = str(data if granted == "folder" else data / "book.txt")
    p = player(TAKEOVER, limits=Limits(start_s=20.0, call_s=15.0, kill_after_s=5.0,
                                       readable_until_first_reply=(first_turn,)))
    if p.protections.get("private_root", "missing").startswith("missing") or os.geteuid() != 0:
        pytest.skip("the manager covers first-turn files from outside only as root (a private root it may enter)")
    path = str(data / "book.txt")
    assert p.call("move", {"path": path}).value == "opening book"
    later = p.call("move", {"path": path})
    assert later.verdict is Verdict.ERROR and later.message.startswith("PermissionError"), later


# -- the grader through bytes ---------------------------------------------------------------

SLOW_TO_CHECK = """
import fcntl, os, stat, struct, time

def reply_fd():
    for fd in range(3, 64):
        try:
            st = os.fstat(fd)
        except OSError:
            continue
        if stat.S_ISFIFO(st.st_mode) and fcntl.fcntl(fd, fcntl.F_GETFL) & 3 == 1 and st.st_ino != os.fstat(1).st_ino:
            return fd

def move():
    body = b'"' + b'\\\\"' * 32000 + b'[]' * 40
    os.write(reply_fd(), struct.pack(">I", len(body)) + body)
    time.sleep(60)
"""


def test_a_reply_built_to_be_slow_to_check_is_a_quick_protocol_verdict(player):
    """The same frame written by a real player to its reply pipe, in both start modes."""
    from sandbox import Verdict
    p = player(SLOW_TO_CHECK, limits=SLOW)
    t0 = time.process_time()
    r = p.call("move")
    assert r.verdict is Verdict.PROTOCOL and "not JSON" in r.message, r
    assert time.process_time() - t0 < 5.0             # the manager's own CPU time: ~26 s before


@pytest.mark.parametrize("body", [
    '"' + '\\"' * 32000 + "[]" * 40,                   # an unclosed string of escaped quotes
    "[" * 20 + '"' + '\\\\\\"' * 16000 + "{}" * 20,
])
def test_decoding_a_hostile_reply_takes_time_linear_in_its_size(body):
    """The nesting check ran in time quadratic in the number of quotes: one 64 KB reply held the
    manager for about 26 s of its own CPU, on every move of a game."""
    assert len(body.encode()) <= Limits().message_kb * 1024 + 64
    t0 = time.process_time()
    with pytest.raises(wire.WireError):
        wire.decode_reply(body.encode())
    assert time.process_time() - t0 < 2.0             # linear: a few ms; quadratic: tens of seconds


@pytest.mark.parametrize("name", ["\ufeff=HYPERLINK(\"http://x\")", "\u200b=1+1", "\x00@SUM(A1)", "\u3000+1",
                                  " \u2028-2+3", "＝cmd|'/c calc'!A0", "\u2066=1"])
def test_a_formula_behind_invisible_characters_is_neutralised_in_csv(name):
    """A submission's name reaches grades.csv and the LMS sheets through csv_cell: a formula sign
    behind a BOM, a zero-width or ideographic space, a NUL or an isolate, or a full-width one, is
    a formula to some spreadsheet as much as one at the start."""
    from grader.safetext import csv_cell
    assert csv_cell(name) == "'" + name


def test_a_submission_named_with_bytes_that_are_not_utf8_is_refused_and_the_run_goes_on(tmp_path):
    """A folder unpacked from an old zip can be named with bytes that are not UTF-8: Python holds
    them as surrogates, which the store could not encode, so `grader run` stopped with a traceback
    and nobody was graded. Now that submission is refused with a sentence, under a visible name."""
    import yaml

    from grader.assignment import load_assignments
    from grader.league import run_league
    subs = tmp_path / "subs"
    subs.mkdir()
    bad = os.fsdecode(os.fsencode(str(subs)) + b"/stud\xffent")
    os.mkdir(bad)
    Path(bad, "agent.py").write_text("x = 1\n")
    (tmp_path / "config.yaml").write_text(yaml.safe_dump({"assignments": {"arena": {
        "ruleset": "colosseum", "submissions": "subs", "game": {"board_size": 6},
        "validation": {"smoke_games": 0}, "league": {"format": "round_robin", "builtins": []}}}}))
    assignment = load_assignments(tmp_path / "config.yaml")["arena"]
    run = run_league(assignment, progress=False)
    (sub,) = run.submissions
    assert sub.id == "stud\\xffent" and "not UTF-8" in sub.problem
    from grader.store import Store
    with Store(assignment.store_path) as store:
        assert [r.id for r in store.submissions("arena")] == ["stud\\xffent"]


# -- a file name read as an option -----------------------------------------------------------

def test_a_source_file_named_like_an_option_is_compiled_as_a_file(tmp_path):
    """Every source file goes on the compiler's command line: a zip entry named `-DINJECTED=1.cpp`
    (or `@opts.cpp`, `-fplugin=x.cpp`) was read as an option, so a submission set the compiler's
    options (a plugin runs the student's code inside the compiler). Sources are passed as `./name`."""
    import shutil as sh

    from grader.builds import build_kind
    from grader.config import ProgramsConfig
    from grader.player_kinds import detect, program_needs, single_file_suffixes
    from grader.submissions import Programs, load
    if sh.which("g++") is None:
        pytest.skip("no g++ here")
    folder = tmp_path / "cpp"
    folder.mkdir()
    (folder / "main.cpp").write_text('#include <cstdio>\nint main() {\n#ifdef INJECTED\n  std::puts("injected");\n'
                                     '#else\n  std::puts("clean");\n#endif\n}\n')
    (folder / "-DINJECTED=1.cpp").write_text("static int unused_by_anyone = 0;\n")
    sub = load(folder, "player.py", 10.0, program=Programs(detect, program_needs(), single_file_suffixes()))
    assert sub.problem is None, sub.problem
    built = build_kind("g++", sub.staged, "sandbox.module_shim", ProgramsConfig(), key=None)
    assert built.ok and built.folder is not None, (built.message, built.compiler)
    out = subprocess.run([str(built.folder / "player")], capture_output=True, text=True, timeout=30)
    sh.rmtree(built.folder)
    assert out.stdout.strip() == "clean"


def test_a_zip_cannot_declare_its_own_upload_time_or_count(tmp_path):
    """Late penalties read `uploaded_at` and `uploads` from a submission's metadata. A student's own
    zip holding a `.submission.json` declared them itself (uploaded in time, first try) when the
    zips were graded as they came; only its name is the student's to give."""
    import zipfile

    from grader.submissions import load
    archive = tmp_path / "late_student.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("player.py", "x = 1\n")
        z.writestr(".submission.json", json.dumps({"name": "Late Student", "uploaded_at": "2000-01-01T00:00:00",
                                                   "uploads": 1, "login": "someone_else"}))
    sub = load(archive, "player.py", 10.0)
    assert sub.problem is None and sub.name == "Late Student"
    assert sub.metadata == {"name": "Late Student"}, sub.metadata
