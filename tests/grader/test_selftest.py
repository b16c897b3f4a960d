"""`grader selftest NAME`: the cross-game checks on one game, a line each saying what it proves.

The checks are the functions the cross-game tests call on every discovered game (grader/selftest.py);
here: the command passes on the bundled games, and a game that breaks a promise fails with the
sentence naming it. tests/grader/test_new_game.py runs it on the new-game scaffold, whole and broken."""
from __future__ import annotations

import dataclasses
import itertools

import pytest

import rulesets
from grader import selftest, usecases
from tests.checking import grader_cli as grader

QUICK = tuple(c for c in selftest.CHECKS if not c.slow)


@pytest.mark.parametrize("name", rulesets.bundled())
def test_every_bundled_game_passes_the_checks_of_the_engine_and_its_replies(name):
    """The checks without sandboxed players or a browser on every bundled game (the cross-game tests
    run the others on every game: tests/grader/test_reproducible.py, tests/sandbox/test_engine_out_of_reach.py,
    tests/report/test_boards.py)."""
    results = selftest.run(rulesets.load(name), QUICK)
    assert [(r.name, r.status, r.sentence) for r in results] == [(c.name, "passed", "") for c in QUICK]


def test_the_command_prints_a_line_per_check_with_what_it_proves(capsys):
    status, out, err = grader(capsys, "selftest", "colosseum")
    assert status == 0, out + err
    lines = out.strip().splitlines()
    assert len(lines) == len(selftest.CHECKS) + 1
    for line, check in zip(lines, selftest.CHECKS, strict=False):
        assert line.startswith((f"pass  {check.name}: {check.proves}.", f"skip  {check.name}: "))
    assert lines[-1] == "The game colosseum passed every check the grader's tests run on every game."


def test_an_unknown_game_is_one_sentence_that_says_where_games_live(capsys):
    status, out, err = grader(capsys, "selftest", "chess")
    assert status == 2 and "unknown ruleset 'chess'" in out + err and "rulesets/<name>/" in out + err


def test_a_game_whose_start_does_not_come_from_the_seed_fails_with_the_sentence():
    real = rulesets.load("colosseum")
    drawn = itertools.count()

    class Unseeded(real.game):            # type: ignore[name-defined,misc]
        def new_state(self, seed: int = 0):
            return super().new_state(seed + next(drawn))

    results = {r.name: r for r in selftest.run(dataclasses.replace(real, game=Unseeded), QUICK)}
    assert results["seeded start"].status == "failed"
    assert results["seeded start"].sentence.startswith("colosseum: new_state(42) gave two different start positions")


def test_a_check_whose_game_code_raises_fails_naming_what_it_raised(monkeypatch):
    rs = rulesets.load("rbnim")

    def broken(self, marks=None):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(type(rs.game().new_state(7)), "render_text", broken)
    outcome = usecases.SelftestOutcome("rbnim", selftest.run(rs, QUICK))
    pictures = next(r for r in outcome.results if r.name == "pictures")
    assert not outcome.passed and pictures.status == "failed"
    assert pictures.sentence == "rbnim: the game's code raised ZeroDivisionError: 'division by zero'"
