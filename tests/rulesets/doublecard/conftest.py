"""Shared set-up for the Double Card tests: the game, example folders, in-process shim handlers."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulesets.doublecard import shim
from rulesets.doublecard.engine import DoubleCardGame


def _position(*moves: str, **params):
    """The state after playing `moves` from the empty board (each must be legal)."""
    state = DoubleCardGame(**params).new_state(0)
    for move in moves:
        state.play(move)
    return state


def _open_player(folder: Path, seat: int, game: DoubleCardGame | None = None, seed: int | None = None):
    """The submission's shim handler, set up for `seat`, without a sandbox; `seed` seeds its `rng`."""
    game = game or DoubleCardGame()
    handler = shim.open_submission(str(folder), {})
    handler.rpc_setup(seat=seat, state=game.new_state(0).to_json(), name=folder.name, options={})
    if seed is not None and hasattr(handler.player, "rng"):
        handler.player.rng = random.Random(seed)
    return handler


def _play_in_process(game: DoubleCardGame, folders, seeds=(None, None)):
    """One game through the shims, the way the match drives it; returns the final state.
    An illegal or unparsable answer raises IllegalMove (the course's forfeit)."""
    handlers = [_open_player(f, seat, game, seeds[seat]) for seat, f in enumerate(folders)]
    state = game.new_state(0)
    last: list[dict] = []
    while not state.is_over:
        seat = state.to_move
        wire = handlers[seat].rpc_move(state=state.to_json(), last=last)
        move = state.parse_move(wire)
        state.play(move)
        last = [{"seat": seat, "move": state.move_to_json(move)}]
    return state


@pytest.fixture
def game() -> DoubleCardGame:
    return DoubleCardGame()


@pytest.fixture
def position():
    """position(*moves, **params) -> the state after those moves from the empty board."""
    return _position


@pytest.fixture
def open_player():
    """open_player(folder, seat, game=None, seed=None) -> the submission's shim handler, set up."""
    return _open_player


@pytest.fixture
def play_in_process():
    """play_in_process(game, (folder0, folder1), seeds) -> the final state of a game through the shims."""
    return _play_in_process
