"""The rules file's worked examples as positions: the course's test fixtures and empty boards.

Shared by the probe (positions a submission must answer legally) and the tests.
"""
from __future__ import annotations

from .engine import ColosseumGame, ColosseumState, state_from_parts

# the course's test/conftest.py world_1: both halves of every barrier, A at (2,3) to move, B at (2,1)
WORLD_1_BARRIERS = (
    (0, 0, 1), (0, 1, 1), (0, 1, 3), (0, 2, 3), (1, 2, 1), (1, 3, 3), (2, 1, 2), (2, 2, 2),
    (2, 3, 1), (2, 4, 3), (3, 0, 1), (3, 1, 0), (3, 1, 2), (3, 1, 3), (3, 2, 0), (4, 0, 1),
    (4, 1, 0), (4, 1, 3),
)
WORLD_1_POSITIONS = ((2, 3), (2, 1))
# world_2 adds (0,2,Down)|(1,2,Up) and (2,2,Right)|(2,3,Left); A at (0,2), B at (2,2): A wins 15-10
WORLD_2_BARRIERS = WORLD_1_BARRIERS + ((0, 2, 2), (1, 2, 0), (2, 2, 1), (2, 3, 3))
WORLD_2_POSITIONS = ((0, 2), (2, 2))
# the course's test_world.py check_valid_step lists for world_1 (A to move)
WORLD_1_VALID = ((1, 1, 0), (0, 2, 2), (0, 4, 3), (3, 1, 1), (4, 2, 0))
WORLD_1_INVALID = ((2, 0, 0), (2, 1, 0), (3, 1, 2), (0, 3, 0), (4, 1, 1), (0, 1, 2))
# rules file C3/C4: empty boards (size, me, opponent)
EMPTY_BOARDS = ((4, (0, 0), (3, 3)), (4, (1, 1), (2, 2)), (5, (2, 2), (0, 0)), (6, (0, 0), (5, 5)))


def world_1(game: ColosseumGame, turn: int = 0) -> ColosseumState:
    return state_from_parts(game, 5, WORLD_1_BARRIERS, WORLD_1_POSITIONS, turn)


def world_2(game: ColosseumGame) -> ColosseumState:
    return state_from_parts(game, 5, WORLD_2_BARRIERS, WORLD_2_POSITIONS)


def empty_board(game: ColosseumGame, size: int, me, opponent) -> ColosseumState:
    """A borders-only board with the player to move (A) at `me`."""
    return state_from_parts(game, size, (), (me, opponent))
