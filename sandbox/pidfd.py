"""Signalling a process by a pidfd, so a pid that ended and was reused is never hit.

A module of its own because the grader's portable side uses it (grader/executors.py reaps the
players of a dead pool worker) and must import on a machine without the box's Linux-only modules
(sandbox/box.py needs fcntl); there, os.pidfd_open does not exist and nothing is killed.
"""
from __future__ import annotations

import os
import signal
from collections.abc import Callable


def kill_if(pid: int, still: Callable[[], bool]) -> bool:
    """SIGKILL `pid` if `still()` holds once a pidfd pins it (so a pid that ended and was reused
    between the listing and the kill is never hit). True if the signal was sent."""
    try:
        pidfd = os.pidfd_open(pid)
    except (OSError, AttributeError):          # gone already, or no pidfds on this system
        return False
    try:
        if not still():
            return False
        signal.pidfd_send_signal(pidfd, signal.SIGKILL)
        return True
    except OSError:
        return False
    finally:
        os.close(pidfd)
