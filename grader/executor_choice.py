"""Which executor plays a league's games, from the assignment's league settings: inline (one
core), the local process pool, or a Dask cluster. Apart from both executors' modules, which
each import the shared parts of executors.py, so neither has to import the other."""
from __future__ import annotations

from .assignment import Assignment
from .executors import Executor, InlineExecutor, LocalExecutor, concurrency


def make_executor(assignment: Assignment) -> Executor:
    lg = assignment.config.league
    if lg.executor == "dask":
        # here, not above: Dask is an optional extra, and importing the module without it is
        # the one-sentence ConfigError that says how to install it
        from .dask_executor import DaskExecutor

        return DaskExecutor(assignment, **lg.dask)
    n = concurrency(assignment)
    return InlineExecutor() if n == 1 else LocalExecutor(n)
