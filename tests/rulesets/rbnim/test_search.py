"""The reference search against the rules file's [verified] value tables and worked positions."""
from __future__ import annotations

import pytest

from rulesets.rbnim.search import game_value, move_values, principal_variation, search

STANDARD = [
    [3, 6, 9, 12, 15, 18],
    [4, 6, 9, 12, 15, 18],
    [6, 6, -6, 6, 6, -6],
    [8, 8, 6, -6, 6, 6],
    [10, 10, 6, 6, -6, 6],
    [12, 12, -6, 6, 6, -6],
]
MISERE_LOSSES = {(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (1, 4), (4, 1), (2, 5), (5, 2), (3, 6), (6, 3)}

R1, R2, B1, B2 = ("red", 1), ("red", 2), ("blue", 1), ("blue", 2)
WORKED = [   # piles, version, value, computer's move, principal variation, final piles
    ((1, 1), "standard", 3, R1, [R1], (0, 1)),
    ((1, 1), "misere", -2, B1, [B1], (1, 0)),
    ((2, 2), "standard", 6, R2, [R2], (0, 2)),
    ((2, 2), "misere", -2, B1, [B1, R1, B1], (1, 0)),
    ((2, 1), "standard", 4, B1, [B1], (2, 0)),
    ((3, 3), "standard", -6, B2, [B2, B1], (3, 0)),
    ((3, 5), "standard", 6, B2, [B2, B2, B1], (3, 0)),
    ((3, 5), "misere", 2, R1, [R1, B1, R1, B1, B2, B1], (1, 0)),
    ((5, 3), "standard", 6, R2, [R2, B2, B1], (3, 0)),
    ((4, 4), "standard", -6, R1, [R1, B1, B2, B1], (3, 0)),
]


def test_standard_value_table():
    assert [[search(r, b, "standard")[0] for b in range(1, 7)] for r in range(1, 7)] == STANDARD


def test_misere_value_table():
    for r in range(1, 7):
        for b in range(1, 7):
            assert search(r, b, "misere")[0] == (-2 if (r, b) in MISERE_LOSSES else 2), (r, b)


@pytest.mark.parametrize("piles, version, value, move, line, final", WORKED)
def test_worked_positions(piles, version, value, move, line, final):
    assert search(*piles, version) == (value, move)
    assert principal_variation(*piles, version) == (line, final)


def test_root_move_values():
    assert move_values(3, 5, "standard") == [(R2, -15), (B2, 6), (R1, -15), (B1, -6)]
    assert move_values(4, 4, "standard") == [(R2, -12), (B2, -8), (R1, -6), (B1, -6)]


def test_alpha_beta_agrees_with_plain_minimax_and_keeps_the_first_best_move():
    for version in ("standard", "misere"):
        for r in range(16):
            for b in range(16):
                value, move = search(r, b, version)
                assert value == game_value(r, b, version)
                if move is not None:
                    assert move == next(m for m, v in move_values(r, b, version) if v == value)


def test_large_piles_stay_fast():
    value, move = search(60, 55, "standard")
    assert value == game_value(60, 55, "standard") and move is not None
