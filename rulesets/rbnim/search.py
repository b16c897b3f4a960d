"""The reference computer player: the move MinMax with alpha-beta returns in the assignment's order.

Values are for the player about to move (negamax form of MinMax): +k means it wins k points with
best play. Alpha-beta at the root keeps the first child reaching the best value (strict ">"), and
it computes exact values for every child that improves on the ones before, so its move is the
first move in the prescribed order whose exact value is the best. That is what `search` returns,
from exact values computed without recursion (memoised per (red, blue, version)), so piles of any
size work (a recursive search ran out of stack from piles of about 250).

`depth_limited_choices` answers the extra credit's open question: which root moves a
depth-limited alpha-beta can choose when the evaluation function is the student's own.
"""
from __future__ import annotations

from functools import cache

from .rules import after, legal_moves, terminal_value

INF = float("inf")
Move = tuple[str, int]

_values: dict[tuple[int, int, str], int] = {}


def game_value(red: int, blue: int, version: str) -> int:
    """The exact value of the position for the player to move (MinMax, an explicit stack, memoised)."""
    stack = [(red, blue, version)]
    while stack:
        key = stack[-1]
        if key in _values:
            stack.pop()
            continue
        moves = legal_moves(*key)
        if not moves:
            _values[key] = terminal_value(*key)
            stack.pop()
            continue
        children = [(*after(key[0], key[1], m), version) for m in moves]
        todo = [c for c in children if c not in _values]
        if todo:
            stack.extend(todo)
            continue
        _values[key] = max(-_values[c] for c in children)
        stack.pop()
    return _values[(red, blue, version)]


def move_values(red: int, blue: int, version: str) -> list[tuple[Move, int]]:
    """Each root move in the prescribed order with its exact value for the player making it."""
    return [(m, -game_value(*after(red, blue, m), version)) for m in legal_moves(red, blue, version)]


def search(red: int, blue: int, version: str) -> tuple[int, Move | None]:
    """(value, first best move) of the position; the move is None when the game is already over."""
    values = move_values(red, blue, version)
    if not values:
        return terminal_value(red, blue, version), None
    best = max(v for _, v in values)
    return best, next(m for m, v in values if v == best)


def principal_variation(red: int, blue: int, version: str) -> tuple[list[Move], tuple[int, int]]:
    """The moves both sides play with `search` from here to the end, and the final piles."""
    line = []
    _, move = search(red, blue, version)
    while move is not None:
        line.append(move)
        red, blue = after(red, blue, move)
        _, move = search(red, blue, version)
    return line, (red, blue)


@cache
def _horizon_bounds(red: int, blue: int, version: str, depth: int) -> tuple[float, float]:
    """The least and the greatest value a depth-`depth` MinMax can give this position over every
    evaluation function (terminal utilities exact, any number at the horizon)."""
    moves = legal_moves(red, blue, version)
    if not moves:
        value = terminal_value(red, blue, version)
        return value, value
    if depth == 0:
        return -INF, INF
    children = [_horizon_bounds(*after(red, blue, m), version, depth - 1) for m in moves]
    return max(-high for _, high in children), max(-low for low, _ in children)


def depth_limited_choices(red: int, blue: int, version: str, depth: int) -> list[Move]:
    """The root moves a depth-`depth` alpha-beta in the prescribed order (first best child kept)
    chooses under some evaluation function: one move where the horizon cannot matter, more where
    it can. The true best move is always among them (it is the choice of the exact evaluation)."""
    moves = legal_moves(red, blue, version)
    bounds = [_horizon_bounds(*after(red, blue, m), version, depth - 1) for m in moves]
    bounds = [(-high, -low) for low, high in bounds]              # for the player making the move
    return [m for i, m in enumerate(moves)
            if all(bounds[i][1] > bounds[j][0] for j in range(i))
            and all(bounds[i][1] >= bounds[j][0] for j in range(i + 1, len(moves)))]
