"""Shared set-up for the Quoridor tests: positions, example folders, in-process shim handlers."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulesets.quoridor import RULESET, shim
from rulesets.quoridor.engine import QuoridorGame, QuoridorState

EXAMPLES = Path(__file__).resolve().parents[3] / "submissions" / "quoridor"
BUILTIN = {name: Path(path) for name, path in RULESET.players.items()}


def folder(name: str) -> Path:
    """An example submission by name, or a built-in player as "builtin:<name>"."""
    if name.startswith("builtin:"):
        return BUILTIN[name.split(":", 1)[1]]
    return EXAMPLES / name


def open_player(where: Path, seat: int, state: QuoridorState, seed: int | None = None):
    """The submission's shim handler set up for `seat`, without a sandbox; `seed` seeds its `rng`."""
    handler = shim.open_submission(str(where), {})
    handler.rpc_setup(seat=seat, state=state.to_json(), name=where.name, options={})
    if seed is not None and hasattr(handler.player, "rng"):
        handler.player.rng = random.Random(seed)
    return handler


def play_in_process(game: QuoridorGame, seed: int, folders, seeds=(None, None)) -> QuoridorState:
    """One game through the shims, the way the match drives it (an illegal answer raises IllegalMove)."""
    state = game.new_state(seed)
    handlers = [open_player(f, seat, state, seeds[seat]) for seat, f in enumerate(folders)]
    last: list[dict] = []
    while not state.is_over:
        seat = state.to_move
        wire = handlers[seat].rpc_move(state=state.to_json(), last=last)
        move = state.parse_move(wire)
        state.play(move)
        last = [{"seat": seat, "move": state.move_to_json(move)}]
    return state


def run_probe(where: Path, probe_name: str, game: QuoridorGame | None = None):
    """Every case of one probe against the submission's shim: [(label, Mismatch)] of the failures."""
    game = game or QuoridorGame()
    probe = next(p for p in RULESET.probes(game) if p.name == probe_name)
    handler = shim.open_submission(str(where), {})
    failures = []
    for case in probe.cases(game, 2018):      # the positions a check with this seed asks
        reply = getattr(handler, f"rpc_{case.method}")(**case.args)
        mismatch = case.check(reply)
        if mismatch is not None:
            failures.append((case.label, mismatch))
    return failures


@pytest.fixture
def game() -> QuoridorGame:
    return QuoridorGame()


# Test modules cannot import conftest under --import-mode=importlib: the helpers come as fixtures.
@pytest.fixture(name="folder")
def folder_fixture():
    return folder


@pytest.fixture(name="builtin")
def builtin_fixture():
    return BUILTIN


@pytest.fixture(name="open_player")
def open_player_fixture():
    return open_player


@pytest.fixture(name="play_in_process")
def play_in_process_fixture():
    return play_in_process


@pytest.fixture(name="run_probe")
def run_probe_fixture():
    return run_probe
