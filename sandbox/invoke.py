"""Calling a shim handler's rpc_<method> and shaping the answer; shared by child and in-process.

The answer is a plain dict: {"ok": value} or {"error": {"type", "message", "traceback"}}.
MemoryError and SystemExit propagate: the child exits with wire.MEMORY_EXIT, the in-process player reports it.
"""
from __future__ import annotations

import traceback
from typing import Any

TRACEBACK_CHARS = 4000


def error_reply(exc: BaseException) -> dict[str, Any]:
    """An exception as data, its traceback trimmed to the student's frames and the last lines."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    text = "".join(traceback.format_exception(type(exc), exc, tb))
    if len(text) > TRACEBACK_CHARS:
        text = "…" + text[-TRACEBACK_CHARS:]
    message = str(exc)
    return {"error": {"type": type(exc).__name__, "message": message[:1000], "traceback": text}}


def call(handler: object, method: str, args: dict[str, Any] | None) -> dict[str, Any]:
    fn = getattr(handler, f"rpc_{method}", None) if isinstance(method, str) else None
    if fn is None:
        return {"error": {"type": "AttributeError", "traceback": "",
                          "message": f"the player's shim has no method {method!r}"}}
    try:
        return {"ok": fn(**(args or {}))}
    except MemoryError:
        raise
    except Exception as exc:            # SystemExit propagates: the process really exits
        return error_reply(exc)

