"""The reference computer player: MinMax with alpha-beta pruning in the assignment's move order.

Values are for the player about to move (negamax form of MinMax): +k means it wins k points with
best play. The root keeps the first child reaching the best value (strict ">"), which is the move
the assignment's ordering implies. The bounds found during the search are memoised per
(red, blue, version) (a transposition table: exact values, or lower/upper bounds where the window
cut the search short), so large piles stay fast.
"""
from __future__ import annotations

from functools import lru_cache

from .rules import after, legal_moves, terminal_value

INF = float("inf")
Move = tuple[str, int]

_bounds: dict[tuple[int, int, str], tuple[float, float]] = {}


def search(red: int, blue: int, version: str) -> tuple[int, Move | None]:
    """(value, first best move) of the position; the move is None when the game is already over."""
    moves = legal_moves(red, blue, version)
    if not moves:
        return terminal_value(red, blue, version), None
    best_value, best_move, alpha = -INF, None, -INF
    for move in moves:
        value = -_alphabeta(*after(red, blue, move), version, -INF, -alpha)
        if value > best_value:
            best_value, best_move = value, move
            alpha = value
    return int(best_value), best_move


def _alphabeta(red: int, blue: int, version: str, alpha: float, beta: float) -> float:
    """Fail-soft alpha-beta: exact inside (alpha, beta), a bound outside it (bounds are memoised)."""
    moves = legal_moves(red, blue, version)
    if not moves:
        return terminal_value(red, blue, version)
    key = (red, blue, version)
    low, high = _bounds.get(key, (-INF, INF))
    if low >= beta or low == high:
        return low
    if high <= alpha:
        return high
    alpha, beta = max(alpha, low), min(beta, high)
    entry_alpha, best = alpha, -INF
    for move in moves:
        best = max(best, -_alphabeta(*after(red, blue, move), version, -beta, -alpha))
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    if best <= entry_alpha:
        high = min(high, best)             # every move failed low: an upper bound
    elif best >= beta:
        low = max(low, best)               # a cut-off: a lower bound
    else:
        low = high = best
    _bounds[key] = (low, high)
    return best


@lru_cache(maxsize=None)
def game_value(red: int, blue: int, version: str) -> int:
    """The exact value of the position for the player to move (plain MinMax, memoised)."""
    moves = legal_moves(red, blue, version)
    if not moves:
        return terminal_value(red, blue, version)
    return max(-game_value(*after(red, blue, m), version) for m in moves)


def move_values(red: int, blue: int, version: str) -> list[tuple[Move, int]]:
    """Each root move in the prescribed order with its exact value for the player making it."""
    return [(m, -game_value(*after(red, blue, m), version)) for m in legal_moves(red, blue, version)]


def principal_variation(red: int, blue: int, version: str) -> tuple[list[Move], tuple[int, int]]:
    """The moves both sides play with `search` from here to the end, and the final piles."""
    line = []
    _, move = search(red, blue, version)
    while move is not None:
        line.append(move)
        red, blue = after(red, blue, move)
        _, move = search(red, blue, version)
    return line, (red, blue)
