"""First-turn files (readable until the first reply) are taken away from every thread of the player,
or the grader says plainly that they are not (issue 27.8, 38.8): as root they are covered in the
player's private root; without root Landlock binds only the thread that served the first move, so a
thread started before it still reads them, and a Python player can patch its bootstrap through a
frame so that not even that thread forgets them: `grader doctor`, the check's header
(sandbox.protections(), check_report.sandbox_summary) and the player's own report must then say
"not enforced for this user" instead of calling the protection active."""
from __future__ import annotations

from grader.check_report import sandbox_summary
from sandbox import Limits, protections

EARLY_THREAD = """
import threading

seen = {}
asked = threading.Event()
answered = threading.Event()

def early():
    asked.wait()
    try:
        with open("book.txt") as f:
            seen["early"] = "read " + f.read()
    except OSError as exc:
        seen["early"] = type(exc).__name__
    answered.set()

threading.Thread(target=early, daemon=True).start()     # at import: before the first move

def move():
    with open("book.txt") as f:
        return f.read()

def later():
    asked.set()
    answered.wait(10)
    return seen.get("early", "no answer")
"""


def first_turn_files_gone_or_said(player, code: str) -> None:
    """Play `code`'s first move (which reads book.txt), then ask `later()` whether it still can: if
    it can, every report says "not enforced for this user"; if not, none calls the rule missing."""
    limits = Limits(start_s=20.0, call_s=15.0, kill_after_s=5.0, readable_until_first_reply=("book.txt",))
    p = player(code, limits=limits, files={"book.txt": "opening"})
    first = p.call("move")
    assert first.ok and first.value == "opening", first
    late = p.call("later")
    assert late.ok, late
    host = protections()["first_turn"]
    own = p.protections.get("first_turn", "not reported")
    if late.value == "read opening":                      # it still reads them here ...
        assert host.startswith("missing: not enforced for this user") and "thread" in host, host   # ... said plainly
        assert own.startswith("missing"), own
        assert any("not enforced for this user" in line for line in sandbox_summary(protections()))
    else:
        assert late.value in ("PermissionError", "FileNotFoundError"), late
        assert not own.startswith("missing"), (host, own)


def test_first_turn_files_leave_every_thread_or_the_grader_says_so(player):
    first_turn_files_gone_or_said(player, EARLY_THREAD)


PATCHER = """
import sys

def move():
    frame = sys._getframe()
    while frame is not None:                 # up to the call loop, whose `boot` forgets the files
        boot = frame.f_locals.get("boot")
        if boot is not None and hasattr(boot, "forget_first_turn_paths"):
            boot.forget_first_turn_paths = lambda: None
        frame = frame.f_back
    with open("book.txt") as f:
        return f.read()

def later():
    try:
        with open("book.txt") as f:
            return "read " + f.read()
    except OSError as exc:
        return type(exc).__name__
"""


def test_a_player_that_patches_its_bootstrap_loses_the_files_or_the_grader_says_so(player):
    first_turn_files_gone_or_said(player, PATCHER)
