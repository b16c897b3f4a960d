"""Shared set-up for the Bohnenspiel tests: the game, example folders, in-process shim handlers."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulesets.bohnenspiel import shim
from rulesets.bohnenspiel.engine import BohnenspielGame


def _open(folder: Path, seat: int):
    handler = shim.open_submission(str(folder), {})
    handler.rpc_setup(seat=seat, state=BohnenspielGame().new_state(0).to_json(), name=folder.name, options={})
    return handler


def _play(game, folders, max_plies: int = 2000):
    handlers = [_open(f, seat) for seat, f in enumerate(folders)]
    state = game.new_state(0)
    while not state.is_over and state.ply < max_plies:
        wire = handlers[state.to_move].rpc_move(state=state.to_json(), last=[])
        state.play(state.parse_move(wire))
    return state


@pytest.fixture
def game() -> BohnenspielGame:
    return BohnenspielGame()


@pytest.fixture
def open_player():
    """open_player(folder, seat) -> the submission's shim handler, set up, without a sandbox."""
    return _open


@pytest.fixture
def play_in_process():
    """play_in_process(game, (folder0, folder1)) -> the final state of one game played through the shims."""
    return _play
