"""The current call's time, for a shim whose course API tells the agent its time (Udacity's
Isolation `time_left()`, Kaggle's `remainingOverageTime`, Botzone's `time_limit`): a Python shim
reads `limit_s()` and `left_s()` here instead of guessing.

The manager sends each call's soft limit, and the clock it is measured on, with the request
(sandbox/rpc.py: `{"time": {"limit_s", "clock"}}`); the call loop (sandbox/callloop.py) notes them
here before the shim's method runs. For the calls a first-move allowance covers (setup and the
first move) the limit is what remains of that allowance. `left_s()` counts on the player's own
clock of the same kind: `time.perf_counter` (which in the sandbox leaves out the main thread's
wait for a CPU, sandbox/own_clock.py) for "wall", `time.process_time` (all its threads' CPU)
for "cpu". The JVM shim receives the same field in its request.
"""
from __future__ import annotations

import time
from typing import Any

_limit: float | None = None
_clock = "wall"
_start = 0.0


def _now() -> float:
    return time.process_time() if _clock == "cpu" else time.perf_counter()


def begin(given: Any) -> None:
    """Note a request's `time` field (nothing, or a malformed one, forgets the last call's)."""
    global _limit, _clock, _start
    ok = isinstance(given, dict) and isinstance(given.get("limit_s"), (int, float))
    _limit = float(given["limit_s"]) if ok else None
    _clock = given.get("clock", "wall") if ok and given.get("clock") in ("wall", "cpu") else "wall"
    _start = _now()


def limit_s() -> float | None:
    """Seconds the current call may use (on `clock()`), None outside a call that gave one."""
    return _limit


def clock() -> str:
    """"wall" (the player's own wall-clock time) or "cpu" (its CPU time)."""
    return _clock


def left_s() -> float | None:
    """Seconds the current call has left by the player's own clock (never below 0), None when no
    limit was given."""
    return None if _limit is None else max(0.0, _limit - (_now() - _start))
