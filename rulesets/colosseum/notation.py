"""Colosseum Survival! notation: the players' and sides' names, a cell's walls, moves as people read them.

Apart from engine.py so that the pictures (render.py) read them without importing the engine,
which draws its positions with render.py.
"""
from __future__ import annotations

DIRECTION_NAMES = ("Up", "Right", "Down", "Left")
PLAYER_NAMES = ("A", "B")

Cell = tuple[int, int]
Move = tuple[int, int, int]


def has_wall(walls: list[int], size: int, r: int, c: int, d: int) -> bool:
    return bool(walls[r * size + c] >> d & 1)


def cell_text(cell: Cell) -> str:
    return f"({cell[0]},{cell[1]})"


def move_text(move: Move) -> str:
    """A move as people read it: "(2,3) Up"."""
    r, c, d = move
    side = DIRECTION_NAMES[d] if 0 <= d <= 3 else f"direction {d}"
    return f"({r},{c}) {side}"
