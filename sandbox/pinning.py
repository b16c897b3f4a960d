"""Which CPU a player is pinned to: every player runs on one CPU ("single CPU", as the courses'
rules say), whoever starts it (a check, `grader play`, a league's local pool or Dask worker).

The caller may name one (the local pool gives each worker its own core, `Limits.cpu`); else the
sandbox takes the next of the CPUs this process may use, in turn, so players started side by
side spread over the machine. The child pins itself before it restricts itself
(sandbox/child.py, step "cpu"), and the clock counts its threads as sharing one CPU
(sandbox/limits.py `own_time`). Where the host cannot pin (no sched_setaffinity), nothing is
picked and the clock spreads CPU time over every core the player may use.
"""
from __future__ import annotations

import itertools
import os
import threading

_turn = itertools.count()
_lock = threading.Lock()


def can_pin() -> bool:
    return hasattr(os, "sched_setaffinity")


def usable() -> list[int]:
    """The CPUs this process may use (every one the host has where it cannot tell)."""
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return list(range(os.cpu_count() or 1))


def cpu_for(named: int | None) -> int | None:
    """The CPU to pin a new player to: `named` if given, else the next usable one in turn; None
    where the host cannot pin."""
    if named is not None or not can_pin():
        return named
    cpus = usable()
    with _lock:
        return cpus[next(_turn) % len(cpus)]


def cores(pinned: int | None) -> int:
    """How many CPUs a player's threads may run on at once: 1 when pinned, else every usable one."""
    return 1 if pinned is not None else len(usable())
