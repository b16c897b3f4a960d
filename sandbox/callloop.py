"""The child's side of the protocol, after its bootstrap: the ready frame, then one reply per request.

Shared by the Linux child (sandbox/child.py, also forked by sandbox/zygote.py) and the portable one
(sandbox/portable_child.py), so both answer exactly alike. Imports nothing Linux-only.
"""
from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType
from typing import Any, Protocol

from sandbox import call_time, invoke, seeding, wire


class Boot(Protocol):
    """What the call loop needs of a child's bootstrap (sandbox/child.py, sandbox/portable_child.py)."""

    cfg: wire.ChildConfig
    applied: dict[str, str]

    def forget_first_turn_paths(self) -> None: ...


def serve(boot: Boot, shim: ModuleType, req_fd: int, rep_fd: int) -> None:
    """The call loop. `boot` is the child's Bootstrap: its `cfg`, the `applied` layers (the ready
    frame) and `forget_first_turn_paths()`; one with `after_ready` (a program player) becomes
    the program there."""
    handler: Any = None
    open_error = "the submission was not opened"
    first_turn_pending = bool(boot.cfg.readable_until_first_reply)
    wire.write_all(rep_fd, wire.encode({"ready": boot.applied}))   # before any student code runs
    after_ready = getattr(boot, "after_ready", None)
    if after_ready is not None:
        after_ready(req_fd, rep_fd)           # a program player: the child becomes the program here
    while True:
        reply: dict[str, Any]
        msg = wire.read_message(req_fd)
        if msg is None:
            os._exit(0)
        if "open" in msg:
            seeding.seed_process(msg.pop("seed", None))     # then gone: no frame holds it
            try:
                handler = shim.open_submission(boot.cfg.submission, msg["open"] or {})
                reply = {"ok": None}
            except MemoryError:
                raise
            except Exception as exc:
                reply = invoke.error_reply(exc)
                open_error = f"the submission failed to open: {reply['error']['message']}"
        elif handler is None:
            reply = {"error": {"type": "RuntimeError", "message": open_error, "traceback": ""}}
        else:
            call_time.begin(msg.get("time"))
            reply = invoke.call(handler, msg.get("method"), msg.get("args"))
            if first_turn_pending and msg.get("method") == "move" and "ok" in reply:
                boot.forget_first_turn_paths()
                first_turn_pending = False
        reply["id"] = msg.get("id")
        try:
            data = wire.encode(reply)
        except (TypeError, ValueError) as exc:
            data = wire.encode({**invoke.error_reply(TypeError(f"the reply is not JSON data: {exc}")),
                                "id": msg.get("id")})
        wire.write_all(rep_fd, data)


def course_packages(folders: list[str] | tuple[str, ...]) -> None:
    """The assignment's course environment (its own packages, e.g. NumPy 1.x) ahead of
    site-packages, so the shim, its PRELOAD and the player import those versions."""
    if not folders:
        return
    at = next((i for i, p in enumerate(sys.path) if p.endswith(("site-packages", "dist-packages"))), len(sys.path))
    sys.path[at:at] = [f for f in folders if f not in sys.path]
    importlib.invalidate_caches()


def prepare_interpreter() -> None:
    """No bytecode files (nothing is writable anyway); print() reaches the capture pipe by line."""
    sys.dont_write_bytecode = True
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # a TextIOWrapper here
