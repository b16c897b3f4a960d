"""The ruleset's evaluator: Red-Blue Nim is solved, so the move that lost a game is exact."""
from __future__ import annotations

from rulesets.base import Value

from .engine import RBNimState
from .search import game_value


def evaluate(state: RBNimState, nodes: int) -> Value:
    """The exact result of a position for the player to move: the sign of its memoised MinMax value,
    which needs no node budget (at most red·blue positions, each valued once per process)."""
    value = game_value(state.red, state.blue, state.version)
    return Value((value > 0) - (value < 0), exact=True)
