"""Connect Four inside the player's process: loads student_agent.py and answers the grader's RPCs.

The course's API: a class `StudentAgent` whose `step(board, me)` returns a column (board[row][col]:
-1 empty, else the seat that dropped there; row 0 the bottom; `me` the player's own seat); one
instance per game (made at `setup`). This module and what it imports are all a player
can reach: never import the engine here (tests/sandbox/test_engine_out_of_reach.py checks)."""
from __future__ import annotations

from typing import Any

from rulesets.base import check_arity, invalid
from rulesets.values import is_int, short_repr
from sandbox import module_shim

PRELOAD: list[str] = []
ENTRY = "student_agent.py"


def open_submission(path: str, options: dict) -> Handler:
    return Handler(module_shim.open_submission(path, {"entry": ENTRY}).module)


def to_wire(result: Any) -> Any:
    """What step returned → a column, or {"invalid": sentence}."""
    if is_int(result):
        return int(result)
    return invalid(f"step returned {short_repr(result)}; it must return a column number.", result)


class Handler:
    """The RPCs of one submission: interface, setup, move."""

    def __init__(self, module) -> None:
        self.module = module
        self.agent: Any = None

    def rpc_interface(self) -> list[str]:
        cls = getattr(self.module, "StudentAgent", None)
        if not isinstance(cls, type):
            return [f"{ENTRY} must define a class StudentAgent."]
        problem = check_arity(cls, "step", 2) or check_arity(cls, "__init__", 0)
        return [f"StudentAgent: {problem} (step takes board and me; the constructor nothing)"] if problem else []

    def rpc_setup(self, seat: int, state: dict | None = None, name: str | None = None,
                  options: dict | None = None) -> None:
        self.agent = self.module.StudentAgent()

    def rpc_move(self, state: dict, last: list | None = None) -> Any:
        if self.agent is None:
            self.agent = self.module.StudentAgent()
        return to_wire(self.agent.step([list(row) for row in state["board"]], int(state["to_move"])))
