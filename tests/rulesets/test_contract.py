"""Every ruleset honours the engine contract of rulesets/base.py the same way.

The grader drives all games through this API alone, so these checks run on every discovered game:
random playouts end with an outcome, moves survive the JSON round trip the store and replays
rely on, states survive to_json/state_from_json, and pictures render. The checks themselves are
grader/selftest.py's, which `grader selftest NAME` runs for an instructor's own game; the tests
below the parametrised ones prove each says what is wrong with a game that breaks it.
"""
from __future__ import annotations

import dataclasses
import itertools

import pytest

import rulesets
from grader import selftest
from rulesets.base import Ruleset

NAMES = list(rulesets.names())


@pytest.fixture(params=NAMES)
def ruleset(request) -> Ruleset:
    return rulesets.load(request.param)


def test_the_five_bundled_games_are_found():
    assert set(rulesets.bundled()) >= {"quoridor", "colosseum", "bohnenspiel", "doublecard", "rbnim"}


@pytest.mark.parametrize("check", [selftest.descriptor, selftest.playouts, selftest.seeded_start,
                                   selftest.copy_is_independent, selftest.garbage_refused, selftest.pictures,
                                   selftest.random_substitute_is_legal, selftest.bad_params_refused,
                                   selftest.failure_rules], ids=lambda f: f.__name__)
def test_contract(ruleset, check):
    check(ruleset)


def broken(name: str, **methods) -> Ruleset:
    """Game `name` with its State's methods replaced by `methods` (a broken game, for the checks)."""
    real = rulesets.load(name)
    game = real.game()
    state_class = type(game.new_state(1))
    BrokenState = type("BrokenState", (state_class,), methods)

    class BrokenGame(real.game):           # type: ignore[name-defined,misc]
        def new_state(self, seed: int = 0):
            state = super().new_state(seed)
            state.__class__ = BrokenState
            return state
    return dataclasses.replace(real, game=BrokenGame)


def test_a_start_drawn_from_outside_the_seed_is_caught():
    counter = itertools.count()
    rs = broken("colosseum", to_json=lambda self: {**type(self).__mro__[1].to_json(self), "drawn": next(counter)})
    with pytest.raises(selftest.Broken, match=r"^colosseum: new_state\(42\) gave two different start positions"):
        selftest.seeded_start(rs)


def test_a_move_that_does_not_survive_json_is_caught():
    rs = broken("rbnim", move_to_json=lambda self, move: ["not", "this"])
    with pytest.raises(selftest.Broken, match=r"^rbnim: in the random game of seed 1 at ply 0, the legal move .* sent "
                                              r"as \['not', 'this'\] is refused by parse_move"):
        selftest.playouts(rs)


def test_garbage_taken_for_a_move_is_caught():
    rs = broken("colosseum", parse_move=lambda self, data: "anything")
    with pytest.raises(selftest.Broken, match=r"^colosseum: parse_move\(None\) accepted it as a move"):
        selftest.garbage_refused(rs)
