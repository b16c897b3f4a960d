"""Staging a submission as the user who runs the grader: root on the server, a student at home.

Run as an ordinary user (CI's second run, .ci/user-tests) these fail on a staging that makes the
copy read-only before moving it into place: moving a folder needs write permission on it.
"""
from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest

from grader import submissions


@pytest.fixture
def stage_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_STAGE_DIR", str(tmp_path / "staged"))
    return tmp_path / "staged"


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_folder_is_staged_read_only_for_its_owner(tmp_path, stage_dir):
    folder = tmp_path / "alice"
    (folder / "lib").mkdir(parents=True)
    (folder / "player.py").write_text("class Player: pass\n")
    (folder / "lib" / "util.py").write_text("X = 1\n")
    sub = submissions.load(folder, "player.py", 10.0)
    assert sub.problem is None
    assert sub.staged.parent == stage_dir
    assert (sub.staged / "lib" / "util.py").read_text() == "X = 1\n"
    assert mode(sub.staged) == mode(sub.staged / "lib") == 0o555
    assert mode(sub.staged / "player.py") == mode(sub.staged / "lib" / "util.py") == 0o444
    again = submissions.load(folder, "player.py", 10.0)           # the same content: the same copy
    assert again.problem is None and again.staged == sub.staged
    assert [p.name for p in stage_dir.iterdir() if p.name.startswith("incoming-")] == []


def test_a_shipped_submission_is_materialised_read_only(tmp_path, stage_dir):
    pytest.importorskip("dask")
    from grader.dask_executor import bundle, materialize

    folder = tmp_path / "bob"
    folder.mkdir()
    (folder / "player.py").write_text("class Player: pass\n")
    target = materialize("ab" * 32, bundle(folder))
    assert (target / "player.py").read_text() == "class Player: pass\n"
    assert mode(target) == 0o555 and mode(target / "player.py") == 0o444
    assert materialize("ab" * 32, b"not read again") == target


def test_trees_that_old_separators_confused_get_different_digests(tmp_path, stage_dir):
    """With `path\\0bytes\\0` and no lengths, a="1", b="2" hashed like one file a="1\\0b\\02": the second
    student was handed the first one's staged copy (and its verdict)."""
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    (one / "player.py").write_bytes(b"A = 1\n")
    (one / "q.py").write_bytes(b"B = 2\n")
    (two / "player.py").write_bytes(b"A = 1\n\0q.py\0B = 2\n")
    assert submissions.content_hash(one) != submissions.content_hash(two)
    first = submissions.load(one, "player.py", 10.0)
    second = submissions.load(two, "player.py", 10.0)
    assert first.staged != second.staged
    assert (second.staged / "player.py").read_bytes() == b"A = 1\n\0q.py\0B = 2\n"
    assert not (second.staged / "q.py").exists()


def test_the_staging_folder_is_private_to_its_user(tmp_path, monkeypatch):
    monkeypatch.delenv("GRADER_STAGE_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    (tmp_path / "home").mkdir()
    root = submissions.stage_root()
    assert root.is_relative_to(tmp_path / "home")          # not a fixed name under the shared /tmp
    assert mode(root) == 0o700 and root.stat().st_uid == os.geteuid()


def test_a_staging_folder_open_to_others_is_refused(tmp_path, stage_dir):
    stage_dir.mkdir(mode=0o777)
    os.chmod(stage_dir, 0o777)                               # pre-created by someone else, world-writable
    folder = tmp_path / "carol"
    folder.mkdir()
    (folder / "player.py").write_text("class Player: pass\n")
    sub = submissions.load(folder, "player.py", 10.0)
    assert sub.staged is None and "mode 777" in sub.problem and "chmod 700" in sub.problem
    assert list(stage_dir.iterdir()) == []


@pytest.mark.root
def test_a_staging_folder_of_another_owner_is_refused(tmp_path, stage_dir):
    stage_dir.mkdir(mode=0o700)
    os.chown(stage_dir, 65534, 65534)                        # another account got there first
    folder = tmp_path / "dave"
    folder.mkdir()
    (folder / "player.py").write_text("class Player: pass\n")
    sub = submissions.load(folder, "player.py", 10.0)
    assert sub.staged is None and "belongs to uid 65534" in sub.problem


def test_a_tampered_staged_copy_is_not_reused(tmp_path, stage_dir):
    folder = tmp_path / "erin"
    folder.mkdir()
    (folder / "player.py").write_text("class Player: pass\n")
    sub = submissions.load(folder, "player.py", 10.0)
    os.chmod(sub.staged, 0o777)
    os.chmod(sub.staged / "player.py", 0o644)
    (sub.staged / "player.py").write_text("import os; os.system('boom')\n")
    again = submissions.load(folder, "player.py", 10.0)
    assert again.staged == sub.staged
    assert (again.staged / "player.py").read_text() == "class Player: pass\n"
    assert mode(again.staged) == 0o555


@pytest.mark.root
def test_another_uid_reads_nothing_staged(tmp_path, stage_dir):
    folder = tmp_path / "frank"
    folder.mkdir()
    (folder / "player.py").write_text("SECRET = 42\n")
    sub = submissions.load(folder, "player.py", 10.0)
    opened = [p for p in stage_dir.parents if p != Path("/")]
    modes = {p: mode(p) for p in opened}
    made = mode(stage_dir)                                   # as the grader left it

    def read_as_nobody():
        return subprocess.run(["cat", str(sub.staged / "player.py")], user=65534, group=65534, capture_output=True)
    try:
        for p in opened:                                     # only the staging folder itself stands in the way
            os.chmod(p, modes[p] | 0o005)
        os.chmod(stage_dir, 0o755)
        assert read_as_nobody().returncode == 0              # the control: the way there is open
        os.chmod(stage_dir, made)
        denied = read_as_nobody()
        assert denied.returncode != 0 and b"Permission denied" in denied.stderr
    finally:
        os.chmod(stage_dir, made)
        for p, m in modes.items():
            os.chmod(p, m)


def test_a_copy_being_published_by_another_run_is_reused_not_removed(tmp_path, stage_dir):
    """Between publish()'s rename and its chmod the top folder is still its owner's to write: a
    second run staging the same content then must use that copy, not remove it under the first."""
    folder = tmp_path / "gina"
    folder.mkdir()
    (folder / "player.py").write_text("class Player: pass\n")
    sub = submissions.load(folder, "player.py", 10.0)
    os.chmod(sub.staged, 0o755)                              # as the first run leaves it for a moment
    inode = sub.staged.stat().st_ino
    again = submissions.load(folder, "player.py", 10.0)
    assert again.staged == sub.staged and again.staged.stat().st_ino == inode
    assert mode(again.staged) == 0o555
