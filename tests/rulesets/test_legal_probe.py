"""The framework's own legal-move probe and value readers, on a game that has no code of its own
for them (fixtures/tinypile: its `why_illegal` is State's default)."""
from __future__ import annotations

from rulesets.base import Mismatch
from rulesets.legal_probe import legal_move_cases, legal_move_check, legal_move_probes
from rulesets.values import is_int, short_repr
from tests.rulesets.fixtures.tinypile import PileGame


def test_the_cases_are_games_one_instance_each_turns_in_order():
    game = PileGame()
    cases = legal_move_cases(game, 7, count=9, turns=3)
    assert len(cases) == 9 and all(c.reuse and c.method == "move" for c in cases)
    for case in cases:
        seat = case.setup[0][1]["seat"]
        assert seat == case.state.to_move and case.args["state"] == case.state.to_json()
        assert case.label.startswith(f"{case.game}, turn ")
    by_game: dict[str, list[int]] = {}
    for case in cases:
        by_game.setdefault(case.game, []).append(case.state.ply)
    assert all(plies == sorted(plies) for plies in by_game.values())
    assert [p.name for p in legal_move_probes(game)] == ["legal_moves"]


def test_the_check_accepts_a_legal_move_and_says_why_anything_else_is_not():
    state = PileGame(stones=1).new_state()
    check = legal_move_check(state)
    assert check(1) is None
    wrong = check(2)
    assert isinstance(wrong, Mismatch) and wrong.marks == {"illegal": [2]}
    assert wrong.message == "the player chose 2, which is illegal: it is not one of the legal moves here."
    garbage = check("x" * 100)
    assert isinstance(garbage, Mismatch) and garbage.message.startswith("the player answered 'xxx")
    assert "..." in garbage.message and "which is not a move" in garbage.message
    own = legal_move_check(state, illegal=lambda move, why: Mismatch(f"no {move}: {why}"))(2)
    assert own is not None and own.message == "no 2: it is not one of the legal moves here."


def test_value_readers():
    assert is_int(3) and not is_int(True) and not is_int(3.0) and not is_int("3")
    assert is_int(True, (int, bool)) is False
    assert short_repr("a" * 10) == repr("a" * 10)
    assert short_repr("a" * 100) == repr("a" * 100)[:57] + "..."
    assert short_repr("a\n b", one_line=True) == "'a\\n b'" and short_repr(["a", "  b"], one_line=True) == "['a', ' b']"

    class Broken:
        def __repr__(self):
            raise RuntimeError("no")

    assert short_repr(Broken(), one_line=True) == "a Broken"
