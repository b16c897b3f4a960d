"""A service process (a worker, a lease heartbeat) ends when the process that started it ends.

Its own module, importing nothing of the grader, so that the lease heartbeat — started once per job —
starts in milliseconds instead of importing the configuration's models.
"""
from __future__ import annotations

import ctypes
import os
import signal
import sys


def die_with_parent() -> None:
    """A worker ends when the server that started it ends (kill -9 included); Linux only."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)    # PR_SET_PDEATHSIG
        if os.getppid() == 1:
            os._exit(1)
