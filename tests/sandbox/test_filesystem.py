"""Landlock: no writes anywhere, reads only beneath the interpreter, libraries, sandbox and the submission."""
from __future__ import annotations

import os
import uuid

import pytest

from sandbox import Verdict

# Landlock answers EPERM/EACCES; a path outside the private root (sandbox/box.py) does not exist.
DENIED = ("PermissionError", "FileNotFoundError")

WRITER = """
def write(path):
    with open(path, "w") as f:
        f.write("pwned")
    return "written"
"""

READER = """
def read(path):
    with open(path) as f:
        return f.read()
"""


@pytest.mark.parametrize("where", ["/tmp", "/dev/shm", "own folder", "cwd"])
def test_writing_a_file_fails(player, require, tmp_path, where):
    require("landlock")
    p = player(WRITER)
    name = f"sandbox-escape-{uuid.uuid4().hex}"
    target = {"/tmp": f"/tmp/{name}", "/dev/shm": f"/dev/shm/{name}",
              "own folder": str(tmp_path / "sub" / name), "cwd": name}[where]
    r = p.call("write", {"path": target})
    on_disk = tmp_path / "sub" / name if where == "cwd" else target
    assert not os.path.exists(on_disk)
    assert r.verdict is Verdict.ERROR and r.message.startswith(DENIED), r
    assert p.alive and p.call("write", {"path": "/dev/null"}).verdict is Verdict.ERROR


def test_reading_etc_passwd_fails(player, require):
    require("landlock")
    p = player(READER)
    r = p.call("read", {"path": "/etc/passwd"})
    assert r.verdict is Verdict.ERROR and r.message.startswith(DENIED), r
    assert r.value is None


def test_reading_another_submission_fails(player, require, write_submission):
    require("landlock")
    other = write_submission("SECRET = 'opponent strategy'\n", name="other", files={"notes.txt": "secret"})
    p = player(READER + "\nimport os\ndef listing(path):\n    return os.listdir(path)\n")
    for path in (other / "player.py", other / "notes.txt"):
        r = p.call("read", {"path": str(path)})
        assert r.verdict is Verdict.ERROR and r.message.startswith(DENIED), r
    listing = p.call("listing", {"path": str(other)})
    assert listing.verdict is Verdict.ERROR and listing.message.startswith(DENIED), listing
    assert p.call("listing", {"path": "."}).value == ["player.py"]


def test_the_project_itself_is_not_readable(player, require):
    """Only the sandbox package (and the shim's) are granted, not the checkout holding other submissions."""
    require("landlock")
    import sandbox
    project = os.path.dirname(os.path.dirname(os.path.abspath(sandbox.__file__)))
    p = player(READER)
    r = p.call("read", {"path": os.path.join(project, "pyproject.toml")})
    assert r.verdict is Verdict.ERROR and r.message.startswith(DENIED), r
    assert p.call("read", {"path": sandbox.__file__}).ok                # while the sandbox code is readable


def test_reading_a_data_file_in_its_own_folder_works(player):
    p = player(READER, files={"weights.txt": "0.5 0.25"})
    r = p.call("read", {"path": "weights.txt"})
    assert r.verdict is Verdict.OK and r.value == "0.5 0.25"


def test_files_readable_only_during_the_first_move(player, require, limits, tmp_path):
    require("landlock")
    data = tmp_path / "data"
    data.mkdir()
    (data / "book.txt").write_text("opening book")
    code = READER + "\ndef move(path):\n    return read(path)\n"
    p = player(code, limits=limits(readable_until_first_reply=(str(data),)))
    path = str(data / "book.txt")
    assert p.call("read", {"path": path}).value == "opening book"      # before the first move: readable
    first = p.call("move", {"path": path})
    assert first.verdict is Verdict.OK and first.value == "opening book"
    second = p.call("move", {"path": path})
    assert second.verdict is Verdict.ERROR and second.message.startswith(DENIED), second
    assert p.call("read", {"path": "player.py"}).ok                       # its own folder still readable


def test_a_data_folder_inside_the_submission_is_readable_only_during_the_first_move(player, require, limits):
    require("landlock")
    code = READER + "\ndef move(path):\n    return read(path)\n"
    p = player(code, files={"data/book.txt": "opening book", "helper.py": "X = 1"},
               limits=limits(readable_until_first_reply=("data",)))
    assert p.call("move", {"path": "data/book.txt"}).value == "opening book"
    second = p.call("move", {"path": "data/book.txt"})
    assert second.verdict is Verdict.ERROR and second.message.startswith(DENIED), second
    assert p.call("read", {"path": "helper.py"}).value == "X = 1"      # the rest of its folder still readable
    assert p.call("read", {"path": "player.py"}).ok


def test_extra_read_paths_are_readable_but_not_writable(player, require, limits, tmp_path):
    require("landlock")
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "table.txt").write_text("42")
    p = player(READER + WRITER, limits=limits(read_paths=(str(shared),)))
    assert p.call("read", {"path": str(shared / "table.txt")}).value == "42"
    assert p.call("write", {"path": str(shared / "table.txt")}).verdict is Verdict.ERROR
    assert (shared / "table.txt").read_text() == "42"
