"""Every ruleset honours the engine contract of rulesets/base.py the same way.

The grader drives all games through this API alone, so these checks run on every discovered game:
random playouts end with an outcome, moves survive the JSON round trip the store and replays
rely on, states survive to_json/state_from_json, and pictures render.
"""
from __future__ import annotations

import importlib
import json
import random
from pathlib import Path

import pytest

import rulesets
from rulesets.base import IllegalMove, Outcome, Ruleset

NAMES = list(rulesets.names())


@pytest.fixture(params=NAMES)
def ruleset(request) -> Ruleset:
    return rulesets.load(request.param)


def test_the_five_bundled_games_are_found():
    assert set(rulesets.bundled()) >= {"quoridor", "colosseum", "bohnenspiel", "doublecard", "rbnim"}


def test_descriptor(ruleset):
    assert ruleset.name in rulesets.names()
    assert ruleset.shim.startswith(f"{rulesets.module_of(ruleset.name)}.")
    importlib.import_module(ruleset.shim)
    assert ruleset.entry.endswith(".py")
    for name, folder in ruleset.players.items():
        assert (Path(folder) / ruleset.entry).is_file(), f"built-in {name} has no {ruleset.entry}"
    d = ruleset.defaults
    assert d.move_s > 0 and d.first_move_s >= d.move_s and d.memory_mb > 0
    for key in ("on_late", "on_illegal", "on_error"):
        assert getattr(d.policy, key) in ("forfeit", "random", "disqualify")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playout_round_trips(ruleset, seed):
    game = ruleset.game()
    state = game.new_state(seed)
    rng = random.Random(seed)
    plies = 0
    while not state.is_over:
        assert state.to_move in (0, 1)
        moves = state.legal_moves()
        assert moves, "a game that is not over must offer a move"
        move = rng.choice(moves)
        wire = json.loads(json.dumps(state.move_to_json(move)))
        assert state.parse_move(wire) == move
        assert isinstance(state.move_text(move), str)
        copy = game.state_from_json(json.loads(json.dumps(state.to_json())))
        assert copy.legal_moves() == moves
        state.play(move)
        plies += 1
        assert plies < 5000
    assert state.to_move is None
    out = state.outcome
    assert isinstance(out, Outcome)
    assert all(p in (0, 0.5, 1) for p in out.points)
    assert out.reason and out.detail
    with pytest.raises(IllegalMove):
        state.play(move)


def test_same_seed_same_start(ruleset):
    game = ruleset.game()
    assert game.new_state(42).to_json() == game.new_state(42).to_json()


def test_copy_is_independent(ruleset):
    state = ruleset.game().new_state(5)
    before = state.to_json()
    branch = state.copy()
    branch.play(branch.legal_moves()[0])
    assert state.to_json() == before


def test_garbage_is_refused_with_a_sentence(ruleset):
    state = ruleset.game().new_state(3)
    for garbage in (None, 12345, "nonsense", {"invalid": "the player returned a dict"}, [[["x"]]]):
        with pytest.raises(IllegalMove) as exc:
            state.parse_move(garbage)
        assert str(exc.value) and "\n" not in str(exc.value)
    with pytest.raises(IllegalMove, match="returned a dict"):
        state.parse_move({"invalid": "the player returned a dict"})


def test_pictures(ruleset):
    state = ruleset.game().new_state(7)
    text = state.render_text()
    assert isinstance(text, str) and text.strip()
    svg = state.render_svg()
    assert svg.lstrip().startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "http://" not in svg.replace("http://www.w3.org", "") and "https://" not in svg
    move = state.legal_moves()[0]
    assert isinstance(state.render_text({"extra": [move]}), str)
    assert state.render_svg({"extra": [move]}).lstrip().startswith("<svg")


def test_random_substitute_is_legal(ruleset):
    state = ruleset.game().new_state(11)
    rng = random.Random(0)
    for _ in range(20):
        if state.is_over:
            break
        move = state.random_move(rng)
        assert move in state.legal_moves()
        state.play(move)


def test_bad_params_are_one_sentence(ruleset):
    from rulesets.base import BadParams

    with pytest.raises(BadParams):
        ruleset.game(this_parameter_does_not_exist=1)
