"""Start boards: the course's barrier algorithm driven by random.Random(seed)."""
from __future__ import annotations

import random

import pytest

from rulesets.colosseum import engine
from rulesets.colosseum.engine import ColosseumGame, max_steps, mirror

SEEDS = range(40)


@pytest.mark.parametrize("size", range(3, 12))
def test_barriers_are_2k_symmetric_and_off_the_border(size):
    game = ColosseumGame(board_size=size)
    for seed in SEEDS:
        state = game.new_state(seed)
        barriers = state.barriers()                  # interior walls only, each listed once
        assert len(barriers) == 2 * max_steps(size)
        masks = state.walls
        for r in range(size):
            for c in range(size):
                mr, mc = mirror((r, c), size)
                for d in range(4):
                    assert engine.has_wall(masks, size, r, c, d) == \
                        engine.has_wall(masks, size, mr, mc, engine.OPPOSITE[d])
        border = 4 * size
        assert sum(bin(m).count("1") for m in masks) == border + 2 * len(barriers)


@pytest.mark.parametrize("size", [3, 4, 5, 8, 11])
def test_starts_are_mirrored_and_playable(size):
    game = ColosseumGame(board_size=size)
    for seed in SEEDS:
        state = game.new_state(seed)
        p0, p1 = state.positions
        assert p1 == mirror(p0, size) and p0 != p1
        assert state.to_move == 0 and state.ply == 0 and state.outcome is None


def test_same_seed_same_board_and_other_seeds_differ():
    game = ColosseumGame()
    assert game.new_state(7).to_json() == game.new_state(7).to_json()
    assert len({str(game.new_state(seed).to_json()) for seed in range(20)}) == 20


def test_no_global_random_state_is_used():
    import numpy as np

    random.seed(1)
    np.random.seed(1)
    first = ColosseumGame().new_state(3).to_json()
    random.seed(2)
    np.random.seed(2)
    assert ColosseumGame().new_state(3).to_json() == first


def test_a_separated_start_is_drawn_again_with_the_same_size(monkeypatch):
    drawn = []

    class Recording(engine.ColosseumState):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            drawn.append((self.size, self.outcome is not None))

    monkeypatch.setattr(engine, "ColosseumState", Recording)
    game = ColosseumGame(board_size=[3, 6])
    for seed in range(500):
        drawn.clear()
        state = game.new_state(seed)
        if len(drawn) > 1:
            break
    else:
        pytest.fail("no seed drew a separated start board")
    assert all(over for _, over in drawn[:-1]) and drawn[-1][1] is False
    assert {size for size, _ in drawn} == {state.size}
    assert state.outcome is None
