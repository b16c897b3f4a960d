"""The line protocol with the state as compact JSON: one implementation for every game that offers it.

The manager side of a line-protocol player (see grader/builds.py and docs/ARCHITECTURE.md). Each
time the program is to move it receives one line, the position as the grader stores it
(`State.to_json()`) plus `"seat"` (0 or 1, its own seat), and answers one line: its move in any
form the ruleset's `parse_move` accepts (the course's notation). It needs no board of its own.
A ruleset offering it sets `lines=` a subclass naming `API_NAMES` (what makes a .py file its
Python API rather than a program); a game with a line protocol of its own subclasses `LineAdapter`.
"""
from __future__ import annotations

import json
from abc import ABC, abstractmethod
from typing import ClassVar

from sandbox import CallResult, Verdict


class LineAdapter(ABC):
    """One program's conversation, manager side: `call` answers the grader's RPCs by lines."""

    API_NAMES: ClassVar[tuple[str, ...]] = ()   # names that make a .py file the Python API, not a program

    @abstractmethod
    def call(self, proc, method: str, args: dict, soft: float) -> CallResult:
        ...


class JsonStateLines(LineAdapter):

    def __init__(self) -> None:
        self.seat = 0

    def call(self, proc, method: str, args: dict, soft: float) -> CallResult:
        if method == "interface":
            return CallResult(Verdict.OK, [])
        if method == "setup":
            self.seat = int(args.get("seat", 0))
            return CallResult(Verdict.OK, None)
        if method == "move":
            state = args["state"]
            seat = state.get("turn_player", state.get("to_move", self.seat))
            res = proc.exchange_line([json.dumps({**state, "seat": seat}, separators=(",", ":"))], soft)
            if isinstance(res.value, str):
                res.value = res.value.strip()
            return res
        return CallResult(Verdict.ERROR, message=f"RuntimeError: a line-protocol program has no {method} call.")
