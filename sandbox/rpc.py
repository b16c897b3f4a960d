"""The framed-JSON dialect: how the manager talks to a Python shim or the Java shim.

Over the transport (a PlayerProcess, sandbox/player.py `Transport`): the child's "ready" frame
(what the sandbox applied, written before any student code runs), then one request
`{"open": options, "seed": s}`, and per call one request `{"method", "args", "time", "id"}`
(`time`: the call's soft limit and its clock, `{"limit_s", "clock"}`, for sandbox/call_time.py)
answered by
exactly one reply `{"ok": value}` or `{"error": {type, message, traceback}}` echoing the id. The
framing and the bounded decoding of replies are sandbox/wire.py's; the child's side is
sandbox/callloop.py (and sandbox/java_sources/grader_shim for the JVM).
"""
from __future__ import annotations

from typing import Any

from . import wire
from .player import Transport
from .verdict import CallResult, Verdict


class FramedConversation:
    """One player's conversation in framed JSON; `seq` is the id of the last request."""

    def __init__(self, proc: Transport) -> None:
        self.proc = proc
        self.seq = 0

    def start(self, options: dict[str, Any], seed: int | None) -> CallResult:
        """The ready frame, then open the submission: timed from the process's start (start_s)."""
        return self._exchange({"open": options, "seed": seed}, self.proc.limits.start_s, ready=True)

    def call(self, method: str, args: dict[str, Any], soft: float) -> CallResult:
        """`handler.rpc_<method>(**args)` in the child."""
        return self._exchange({"method": method, "args": args,
                               "time": {"limit_s": soft, "clock": self.proc.limits.clock}}, soft)

    def _exchange(self, message: dict[str, Any], soft: float, ready: bool = False) -> CallResult:
        """Send one request and wait for its reply (after the child's "ready" frame when `ready`).
        The call is timed on the limits' clock from just before the child is thawed (the request is
        in its pipe by then, where it fits)."""
        proc = self.proc
        unasked = 0 if ready else proc.pending_bytes()     # the ready frame may already be there
        if unasked:
            return proc.fail(Verdict.PROTOCOL, f"The player wrote {unasked} bytes to the protocol pipe without being asked.")
        if unasked is None:
            return proc.died_unexpectedly()
        self.seq += 1
        timer = proc.begin(soft, t0=proc.t_spawn if ready else None, request=wire.encode({**message, "id": self.seq}))
        if not proc.send(timer.unsent, timer):
            return proc.timeout(timer)
        frames = wire.FrameBuffer(proc.limits.message_kb * 1024)
        if ready:
            failed = proc.receive_ready(frames, timer)
            if failed is not None:
                return failed
        reply = proc.receive(frames, timer)
        if isinstance(reply, CallResult):
            return reply
        if frames.data:
            return proc.fail(Verdict.PROTOCOL, "The player sent more than one reply to one call.")
        if not (isinstance(reply, dict) and ("ok" in reply) != ("error" in reply)
                and ("ok" in reply or isinstance(reply["error"], dict))):      # exactly one of them
            return proc.fail(Verdict.PROTOCOL, "The reply is not an {ok} or {error} message.")
        if reply.get("id") != self.seq:
            return proc.fail(Verdict.PROTOCOL, "The reply does not answer the call that was made.")
        res = proc.answered(timer, reply.get("ok"))
        if "error" in reply:
            err = reply["error"]
            return CallResult(Verdict.ERROR, message=f"{err.get('type', 'Error')}: {err.get('message', '')}"[:1000],
                              wall_s=res.wall_s, cpu_s=res.cpu_s, traceback=str(err.get("traceback", "")),
                              queued_s=res.queued_s, java_error=err.get("throwable") == "Error")
        return res
