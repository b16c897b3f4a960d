"""The ruleset's evaluator: Bohnenspiel is not solved here, so a position's result is estimated by an
alpha-beta search over the captured beans, deepened one ply at a time while its node budget lasts and
labelled with the depth it completed (grader/losing_move.py). A budget, not a clock: the same position
gets the same estimate on any machine."""
from __future__ import annotations

from rulesets.base import Value

from .engine import BohnenspielState

MAX_DEPTH = 8
DECISIVE = 6        # beans ahead at the horizon that count as a won position: a whole pit's worth
WON = 1000          # a finished game, beyond any margin


class _OutOfNodes(Exception):
    """The budget ran out inside a depth: the depth before it is the answer."""


def _margin(state: BohnenspielState) -> int:
    """Captured beans of the player to move (or who would move, once over) minus the opponent's."""
    me = state.turn_player
    return state.scores[me] - state.scores[1 - me]


def _search(state: BohnenspielState, depth: int, alpha: int, beta: int, spent: list[int], nodes: int) -> int:
    """Negamax with alpha-beta: the margin for the player to move, `WON` (signed) where the game ends."""
    if state.end:
        margin = _margin(state)
        return WON * ((margin > 0) - (margin < 0))
    if depth == 0:
        return _margin(state)
    best = -WON - 1
    for move in state.legal_moves():
        spent[0] += 1
        if spent[0] > nodes:
            raise _OutOfNodes
        child = state.copy()
        child.play(move)
        best = max(best, -_search(child, depth - 1, -beta, -alpha, spent, nodes))
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    return best


def evaluate(state: BohnenspielState, nodes: int) -> Value:
    """The estimated result for the player to move: won or lost when the deepest search the budget
    completes ends the game or leaves a side `DECISIVE` beans ahead, else drawn (even)."""
    value, depth, spent = _margin(state), 0, [0]
    for d in range(1, MAX_DEPTH + 1):
        try:
            value = _search(state, d, -WON - 1, WON + 1, spent, nodes)
        except _OutOfNodes:
            break
        depth = d
    result = 1 if value >= DECISIVE else -1 if value <= -DECISIVE else 0
    return Value(result, exact=False, depth=depth)
