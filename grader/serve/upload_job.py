"""One evaluation run in a forked child of the worker, so that it can be stopped at its bound.

Why a fork and not a thread: a thread cannot be stopped, and an evaluation stuck in C holds the
interpreter. The child runs the evaluation and sends its result back on a pipe as JSON; the worker
watches two clocks meanwhile (grader/job_bound.py):

- the processor time of the child's descendants (the players, the pre-fork templates they are forked
  from, builds), over the cores they may use: the player's own charged time, which a busy machine
  does not stretch. The grader's own work in the child is not counted;
- the wall clock, the backstop for a machine too slow to finish.

Stopping kills every descendant by identity (psutil checks each one's start time) and the child; the
players die with their manager anyway (PR_SET_PDEATHSIG), and the child dies with the worker.
Where there is no fork (Windows) the evaluation runs in the worker, unbounded.
"""
from __future__ import annotations

import json
import os
import select
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psutil

from sandbox import prefork

from ..job_bound import JobBound
from ..validation import cores
from .parent_death import die_with_parent

POLL_S = 0.25


@dataclass(frozen=True)
class JobEnd:
    """How a bounded evaluation ended: its result (or the grader's error, with its traceback), or
    stopped at a bound; with the players' processor time over their cores and the wall time."""

    result: Any = None
    error: str | None = None
    trace: str = ""
    stopped: bool = False
    charged_s: float = 0.0
    wall_s: float = 0.0


def players_cpu(pid: int) -> float:
    """The processor seconds of `pid`'s descendants, living and ended, over the cores they may use;
    not `pid`'s own."""
    try:
        root = psutil.Process(pid)
        own = root.cpu_times()
        total = own.children_user + own.children_system
        for child in root.children(recursive=True):
            try:
                t = child.cpu_times()
            except psutil.Error:              # ended meanwhile: its time is its parent's now
                continue
            total += t.user + t.system + t.children_user + t.children_system
    except psutil.Error:
        return 0.0
    return total / cores()


def run_bounded(evaluate: Callable[[], Any], bound: JobBound) -> JobEnd:
    """`evaluate()` run in a forked child; its result (JSON-able), or stopped past `bound`."""
    started = time.monotonic()
    if not hasattr(os, "fork"):           # Windows: no fork, so the check runs here, unbounded as it was
        try:
            return JobEnd(result=evaluate(), wall_s=time.monotonic() - started)
        except Exception as exc:
            return JobEnd(error=f"{type(exc).__name__}: {exc}", trace=traceback.format_exc(),
                          wall_s=time.monotonic() - started)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:                                                      # the child
        os.close(read_end)
        _child(evaluate, write_end)
    os.close(write_end)
    data, charged, done = b"", 0.0, False
    try:
        while not done:
            ready, _, _ = select.select([read_end], [], [], POLL_S)
            if ready:
                chunk = os.read(read_end, 1 << 16)
                data += chunk
                done = not chunk
                continue
            charged = max(charged, players_cpu(pid))
            wall = time.monotonic() - started
            if charged > bound.charged_s or wall > bound.wall_s:
                _stop(pid)
                return JobEnd(stopped=True, charged_s=charged, wall_s=wall)
    finally:
        os.close(read_end)
        _reap(pid)
    sent: dict[str, Any] = (json.loads(data) if data else
                            {"error": "the evaluation ended without a result", "charged_s": charged})
    return JobEnd(result=sent.get("result"), error=sent.get("error"), trace=sent.get("trace", ""),
                  charged_s=max(charged, sent.get("charged_s", 0.0)), wall_s=time.monotonic() - started)


def _child(evaluate: Callable[[], Any], write_end: int) -> None:
    """Run the evaluation and send what it gave; never returns into the worker's loop."""
    code = 0
    try:
        die_with_parent()
        prefork.forget_inherited()
        try:
            sent: dict[str, Any] = {"result": evaluate()}
        except Exception as exc:         # the grader's own failure: the worker decides what it means
            sent = {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc()}
        sent["charged_s"] = players_cpu(os.getpid())
        payload = json.dumps(sent).encode()
        while payload:
            payload = payload[os.write(write_end, payload):]
    except BaseException:
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)


def _stop(pid: int) -> None:
    """Kill the child and every descendant of it, each by identity."""
    try:
        family = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        family = []
    try:
        os.kill(pid, 9)
    except ProcessLookupError:
        pass
    for proc in family:
        try:
            proc.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(family, timeout=5)


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
