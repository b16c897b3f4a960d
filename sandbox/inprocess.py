"""InProcessPlayer: the PlayerProcess API with the shim running in the calling process.

No protection at all: for benchmarks and fast unit tests of shims only, never for student code
in a league. Still returns CallResults (OK / LATE / ERROR with traceback) and measures wall and
CPU time, so code written against PlayerProcess runs unchanged.
"""
from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import call_time, invoke, seeding
from .limits import Limits, late_sentence
from .verdict import CallResult, ProcessReport, Verdict


class InProcessPlayer:
    def __init__(self, shim: str, submission: str | Path, options: dict[str, Any] | None = None,
                 name: str = "player", limits: Limits | None = None, seed: int | None = None) -> None:
        self.shim_name = shim
        self.submission = str(Path(submission).resolve())
        self.options = options or {}
        self.name = name
        self.limits = limits or Limits()
        self.seed = seed
        self.handler: Any = None
        self.started = False
        self.death: CallResult | None = None
        self.report: ProcessReport | None = None
        self.cpu_total = 0.0

    @property
    def alive(self) -> bool:
        return self.started and self.death is None and self.report is None

    def __enter__(self) -> InProcessPlayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> CallResult:
        """Import the shim and open the submission (its folder goes first on sys.path)."""
        if self.started:
            return CallResult(Verdict.PROTOCOL, message="start() was already called.")
        self.started = True

        def open_() -> None:
            shim = importlib.import_module(self.shim_name)
            seeding.seed_generators(self.seed)
            if self.submission not in sys.path:
                sys.path.insert(0, self.submission)
            self.handler = shim.open_submission(self.submission, self.options)

        return self._timed(open_, self.limits.start_s, opening=True)

    def call(self, method: str, args: dict[str, Any] | None = None, soft: float | None = None) -> CallResult:
        if self.death is not None:
            return CallResult(self.death.verdict, message=f"The player is gone: {self.death.message}")
        if not self.started or self.handler is None:
            return CallResult(Verdict.PROTOCOL, message="The player was not started.")
        if self.report is not None:
            return CallResult(Verdict.PROTOCOL, message="The player was closed.")
        limit = self.limits.call_s if soft is None else soft

        def call() -> dict[str, Any]:
            call_time.begin({"limit_s": limit, "clock": self.limits.clock})
            return invoke.call(self.handler, method, args)
        return self._timed(call, limit)

    def close(self) -> ProcessReport:
        if self.report is None:
            self.report = ProcessReport(exit_status="in-process", cpu_s=round(self.cpu_total, 3),
                                        protections={"all": "missing: in-process player, no sandbox"})
        return self.report

    def _timed(self, fn: Callable[[], Any], soft: float, opening: bool = False) -> CallResult:
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            reply = fn()
            if opening:
                reply = {"ok": None}
        except MemoryError:
            reply = None
            verdict, message = Verdict.MEMORY, "The player ran out of memory."
        except SystemExit as exc:
            reply = None
            verdict, message = Verdict.EXITED, f"The player called sys.exit({exc.code!r})."
        except Exception as exc:             # opening failed (the shim's import or the student's)
            reply = invoke.error_reply(exc)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        self.cpu_total += cpu
        if reply is None:
            self.death = CallResult(verdict, message=message, wall_s=wall, cpu_s=cpu)
            return self.death
        if "error" in reply:
            err = reply["error"]
            if opening:
                self.death = CallResult(Verdict.ERROR, message=f"{err['type']}: {err['message']}"[:1000],
                                        wall_s=wall, cpu_s=cpu, traceback=err["traceback"])
            return CallResult(Verdict.ERROR, message=f"{err['type']}: {err['message']}"[:1000],
                              wall_s=wall, cpu_s=cpu, traceback=err["traceback"])
        late = late_sentence(self.limits.budget(soft), wall, cpu)
        if late:
            return CallResult(Verdict.LATE, reply["ok"], late, wall, cpu)
        return CallResult(Verdict.OK, reply["ok"], "", wall, cpu)

