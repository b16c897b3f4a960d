"""Shared helpers for the Colosseum tests: the game, submissions opened in-process, game loops."""
from __future__ import annotations

import random
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from rulesets.base import IllegalMove
from rulesets.colosseum import RULESET, shim
from rulesets.colosseum.engine import ColosseumGame, ColosseumState

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "submissions" / "colosseum"
PLAYERS = RULESET.players


@pytest.fixture
def game() -> ColosseumGame:
    return ColosseumGame()


@pytest.fixture(autouse=True)
def _clean_modules():
    """Leave no course or student module behind for the next test."""
    path_before = list(sys.path)
    yield
    shim.forget_course_and_submissions()
    sys.path[:] = path_before


def _open(folder) -> shim.ColosseumPlayer:
    return shim.open_submission(str(folder), {})


@pytest.fixture
def open_player():
    """Open a submission folder through the shim, in this process."""
    return _open


@pytest.fixture
def examples() -> Path:
    return EXAMPLES


@pytest.fixture
def players() -> dict[str, Path]:
    return PLAYERS


@pytest.fixture
def write_submission(tmp_path):
    """Write files {name: source} into a fresh submission folder and return its path."""
    counter = iter(range(1000))

    def write(files: dict[str, str]) -> Path:
        folder = tmp_path / f"sub{next(counter)}"
        folder.mkdir()
        for name, source in files.items():
            (folder / name).write_text(textwrap.dedent(source))
        return folder

    return write


@pytest.fixture
def play_in_process():
    return _play


def _play(folders, seed: int, board_size=None) -> tuple[ColosseumState, list[list[str]]]:
    """One game between two submission folders through their shims, with the course's policy:
    an illegal or invalid answer is replaced by the engine's random walk. Returns the final state
    and, per seat, the sentences of the refused answers."""
    np.random.seed(seed)
    game = ColosseumGame() if board_size is None else ColosseumGame(board_size=board_size)
    state = game.new_state(seed)
    handlers = [_open(folder) for folder in folders]
    for seat, handler in enumerate(handlers):
        assert handler.rpc_interface() == []
        handler.rpc_setup(seat, state.to_json(), f"seat {seat}", {})
    rng = random.Random(seed)
    refused: list[list[str]] = [[], []]
    while not state.is_over:
        seat = state.to_move
        reply = handlers[seat].rpc_move(state.to_json(), [])
        try:
            move = state.parse_move(reply)
            state.copy().play(move)
        except IllegalMove as exc:
            refused[seat].append(str(exc))
            move = state.random_move(rng)
        state.play(move)
    return state, refused
