"""Red-Blue Nim inside the player's process: loads red_blue_nim.py and answers the grader's RPCs.

The student's module defines ``choose_move(red, blue, version, depth=None)`` returning (pile,
count). `rpc_choose` asks it about one position (the probes); `rpc_setup` / `rpc_move` let the same
module play league and smoke games.
"""
from __future__ import annotations

from typing import Any

from rulesets.base import IllegalMove, check_arity
from rulesets.values import short_repr
from sandbox import module_shim

from .moves import parse_wire

PRELOAD: list[str] = []
ENTRY = "red_blue_nim.py"


def open_submission(path: str, options: dict) -> RBNimHandler:
    return RBNimHandler(module_shim.open_submission(path, {"entry": ENTRY}).module, options)


def to_wire(result: Any) -> Any:
    """What choose_move returned → [pile, count], or {"invalid": sentence}."""
    try:
        pile, count = parse_wire(list(result) if isinstance(result, tuple) else result)
    except IllegalMove as exc:
        return {"invalid": f"choose_move returned {short_repr(result)}, which is not a move: {exc}"}
    return [pile, count]


class RBNimHandler:
    """The RPCs of one submission: interface, choose, setup, move."""

    def __init__(self, module, options: dict | None = None) -> None:
        self.module = module
        self.depth = (options or {}).get("depth")

    def rpc_interface(self) -> list[str]:
        if not callable(getattr(self.module, "choose_move", None)):
            return [f"{ENTRY} must define a function choose_move(red, blue, version, depth=None)."]
        problem = check_arity(self.module, "choose_move", 4)
        if problem and check_arity(self.module, "choose_move", 3):
            return ["choose_move must take (red, blue, version, depth=None); " + problem]
        return []

    def rpc_choose(self, red: int, blue: int, version: str, depth: int | None = None) -> Any:
        if depth is None:
            return to_wire(self.module.choose_move(red, blue, version))
        return to_wire(self.module.choose_move(red, blue, version, depth))

    def rpc_setup(self, seat: int, state: dict | None = None, name: str | None = None,
                  options: dict | None = None) -> None:
        if options and "depth" in options:
            self.depth = options["depth"]

    def rpc_move(self, state: dict, last: list | None = None) -> Any:
        return self.rpc_choose(int(state["red"]), int(state["blue"]), str(state["version"]), self.depth)
