"""Several graders on one machine never take each other's boxes (issue 33). The box uids and the
cgroup names are the machine's, so a second grader started with another GRADER_SANDBOX_RUN_DIR
must neither be handed a uid a live player holds nor remove (killing its tasks) a cgroup it did
not make: on main it did both, and the first grader's honest player died by SIGKILL."""
from __future__ import annotations

import os
import random

import pytest

from sandbox import box

PING = "def ping():\n    return 'pong'\n"


@pytest.mark.root
def test_another_run_dir_never_takes_a_live_box(player, monkeypatch, tmp_path):
    base = 1_700_200_000 + random.randrange(1000) * 7           # a box no other run on this machine uses
    monkeypatch.setattr(box, "UID_BASE", base)
    monkeypatch.setattr(box, "SLOTS", 1)
    first = player(PING, name="first")
    if first.slot is None or first.slot.uid != base:
        pytest.skip(f"the first player got no box of its own here: {first.protections.get('uid')}")
    monkeypatch.setattr(box, "RUN_DIR", tmp_path / "other-run")    # a second grader, configured apart
    second = player(PING, name="second")
    assert first.call("ping").value == "pong", first.close().exit_status
    assert second.call("ping").value == "pong"
    assert second.slot is None or second.slot.uid != first.slot.uid


@pytest.mark.root
def test_a_cgroup_of_the_same_box_name_is_never_taken_over(player):
    first = player(PING, name="first")
    if first.cgroup is None or first.slot is None:
        pytest.skip("no per-player cgroup or box here")
    second = player(PING, name="second")
    assert first.cgroup.memory != second.cgroup.memory
    assert os.path.basename(first.cgroup.memory).startswith(box.cgroup_prefix(first.slot.uid))
    assert first.call("ping").value == "pong" and second.call("ping").value == "pong"
