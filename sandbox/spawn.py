"""Starting a player's child afresh: `python -s -P -m sandbox.child`, as pid 1 of a pid namespace.

The other way in is forking a pre-imported template (sandbox/prefork.py); both give PlayerProcess
a `Child` (sandbox/player.py) with the same methods. Linux only (namespaces, wait4).
"""
from __future__ import annotations

import os
import subprocess
import time
from typing import Any

from . import host
from .confine import in_new_pid_namespace
from .interpreter import CHILD_ENV, PYTHON
from .player import Ended
from .wire import ChildConfig


class SpawnedChild(subprocess.Popen[bytes]):
    """The spawn path's child: the manager's own child, signalled through its process group
    (its own session) and reaped with wait4. sandbox.prefork.ForkedChild has the same methods."""

    def release(self) -> None:
        """Nothing to let go of: the manager reaped its own child."""

    def signal_group(self, sig: Any) -> None:
        try:
            os.killpg(self.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def wait_stop(self) -> Ended | None:
        """Block until the child is stopped (None) or has ended ((status, rusage)).
        ChildProcessError when it cannot be waited for."""
        _, status, rusage = os.wait4(self.pid, os.WUNTRACED)
        return None if os.WIFSTOPPED(status) else (status, rusage)

    def wait_end(self, timeout: float | None) -> Ended | None:
        """(status, rusage) once the child has ended; None if it still runs after `timeout`
        seconds (None: no limit). ChildProcessError when it cannot be waited for."""
        end = None if timeout is None else time.perf_counter() + timeout
        while True:
            pid, status, rusage = os.wait4(self.pid, 0 if end is None else os.WNOHANG)
            if pid and (os.WIFEXITED(status) or os.WIFSIGNALED(status)):
                return status, rusage
            if end is not None:
                if time.perf_counter() >= end:
                    return None
                time.sleep(0.005)


def spawn_child(cfg: ChildConfig, req_r: int, rep_w: int, out_w: int) -> SpawnedChild:
    """`python -s -P -m sandbox.child <request fd> <reply fd>`, as root pid 1 of a new pid namespace
    (`cfg.pid_namespace_missing` says why not)."""
    argv = [*PYTHON, "-m", "sandbox.child", str(req_r), str(rep_w)]

    def start() -> SpawnedChild:
        return SpawnedChild(argv, stdin=subprocess.DEVNULL, stdout=out_w, stderr=out_w, pass_fds=(req_r, rep_w),
                            close_fds=True, start_new_session=True, cwd="/", env=CHILD_ENV)

    if host.pid_namespace_reason() is not None or os.geteuid() != 0:
        cfg.pid_namespace_missing = host.pid_namespace_reason() or \
            "not root: only a pre-forked player gets a pid namespace (in a user namespace)"
        return start()
    child, cfg.pid_namespace_missing = in_new_pid_namespace(start)
    return child
