"""Asking a player and reading its reply: the reply's shape is checked before ruleset code sees it.

A player can write any JSON value to its reply pipe (bypassing the shim). `ask` checks each
answered reply against the shape its ruleset declares for the RPC (rulesets/replies.py); a wrong
shape is the player's PROTOCOL verdict, and its process is closed. `read` runs ruleset code on a
reply that has the right shape (parse_move, a probe's check) and turns anything it raises into a
sentence about the reply, so no reply can make the grader fail (logged, in case it is our bug).
"""
from __future__ import annotations

import logging
import traceback
from collections.abc import Callable
from typing import Any

from rulesets.base import EngineFailed
from rulesets.replies import problem
from sandbox import CallResult, Verdict

from .safetext import one_line, terminal

log = logging.getLogger(__name__)


def ask(proc, replies: dict, method: str, args: dict, soft: float | None = None) -> CallResult:
    """proc.call(method, args, soft), with an answered reply of the wrong shape turned into PROTOCOL."""
    res = proc.call(method, args) if soft is None else proc.call(method, args, soft=soft)
    if not res.verdict.answered:
        return res
    why = problem(replies, method, res.value)
    if why is None:
        return res
    proc.close()
    return CallResult(Verdict.PROTOCOL, message=f"The player broke the protocol: {why}",
                      wall_s=res.wall_s, cpu_s=res.cpu_s)


def read(fn: Callable[..., Any], *args, expected: type[BaseException] | tuple = ()) -> tuple[Any, str | None]:
    """(fn(*args), None), or (None, sentence) when fn raised something other than `expected`
    (which propagates: e.g. IllegalMove, the rules' own refusal), or EngineFailed (the grader's own
    failure, which propagates too: the game is infra, the player not blamed)."""
    try:
        return fn(*args), None
    except EngineFailed:
        raise
    except expected:
        raise
    except Exception as exc:
        log.warning("reading a reply raised:\n%s", terminal(traceback.format_exc(limit=8)))
        return None, f"the grader could not read the reply ({exc.__class__.__name__}: {one_line(exc)[:200]})."
