"""No predictable path for the box (sandbox/box.py): its run folder and uid locks never have a name
made up in a folder others can write (/tmp), where another account could make it first, whoever
runs the grader."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("uid", [0, 1000], ids=["root", "ordinary user"])
def test_the_box_folders_are_in_no_folder_others_can_write(uid):
    probe = (f"import os; os.geteuid = os.getuid = lambda: {uid}\n"
             "from sandbox import box; print(box.RUN_DIR); print(box.SLOTS_DIR)")
    env = {k: v for k, v in os.environ.items() if k != "GRADER_SANDBOX_RUN_DIR"}
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    for path in map(Path, out):
        for parent in path.parents:
            if parent.exists():
                assert not parent.stat().st_mode & stat.S_IWOTH, f"{path} is made in {parent}, which others can write"
