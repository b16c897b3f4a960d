"""Staging a submission as the user who runs the grader: root on the server, a student at home.

Run as an ordinary user (CI's second run, .ci/user-tests) these fail on a staging that makes the
copy read-only before moving it into place: moving a folder needs write permission on it.
"""
from __future__ import annotations

import stat

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
