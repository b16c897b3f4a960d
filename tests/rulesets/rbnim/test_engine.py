"""The Red-Blue Nim engine on positions set up by hand: moves, order, the end test, the amount."""
from __future__ import annotations

import pytest

from rulesets.base import BadParams, IllegalMove
from rulesets.rbnim.engine import RBNimGame, parse_wire
from rulesets.rbnim.rules import normalize_version


def state(red, blue, version="standard"):
    return RBNimGame(red=red, blue=blue, version=version).new_state(0)


def test_prescribed_order_standard_and_misere():
    assert state(3, 3).legal_moves() == [("red", 2), ("blue", 2), ("red", 1), ("blue", 1)]
    assert state(3, 3, "misere").legal_moves() == [("blue", 1), ("red", 1), ("blue", 2), ("red", 2)]


def test_two_cannot_be_taken_from_a_pile_of_one():
    s = state(1, 5)
    assert s.legal_moves() == [("blue", 2), ("red", 1), ("blue", 1)]
    with pytest.raises(IllegalMove, match="only 1 marble"):
        s.play(("red", 2))
    assert (s.red, s.blue, s.ply) == (1, 5, 0)


def test_assignment_example_zero_red_three_blue():
    # "0 red and 3 blue on the computer's turn: loses 9 (standard) or wins 9 (misère)"
    for version, points, scores in (("standard", (0.0, 1.0), (-9.0, 9.0)), ("misere", (1.0, 0.0), (9.0, -9.0))):
        out = RBNimGame(red=0, blue=3, version=version).new_state(0).outcome
        assert out.points == points and out.scores == scores and out.reason == "empty_pile"
        assert "9 points" in out.detail


def test_end_test_at_the_start_of_the_turn():
    s = state(1, 1)
    s.play(("red", 1))                      # seat 1 now faces (0, 1)
    assert s.to_move is None
    out = s.outcome
    assert out.winner == 0 and out.scores == (3.0, -3.0)
    m = state(1, 1, "misère")
    m.play(("blue", 1))                     # seat 1 faces (1, 0) and wins 2 in misère
    assert m.outcome.winner == 1 and m.outcome.scores == (-2.0, 2.0)
    with pytest.raises(IllegalMove, match="already over"):
        m.play(("red", 1))


def test_a_zero_pile_ends_the_game_at_once():
    assert state(0, 0).is_over and state(4, 0).outcome.scores == (-8.0, 8.0)


@pytest.mark.parametrize("text", ["misere", "MISÈRE", "Misère", " misere "])
def test_version_spellings(text):
    assert normalize_version(text) == "misere"
    assert RBNimGame(version=text).params["version"] == "misere"


@pytest.mark.parametrize("params", [{"version": "normal"}, {"red": -1}, {"blue": 2.5}, {"red": True}, {"size": 3}])
def test_bad_params_are_one_sentence(params):
    with pytest.raises(BadParams) as exc:
        RBNimGame(**params)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("wire, move", [(["red", 2], ("red", 2)), (["Blue", 1], ("blue", 1)), ("red 2", ("red", 2)),
                                        ("1 blue", ("blue", 1)), ({"pile": "b", "count": 1}, ("blue", 1))])
def test_wire_forms(wire, move):
    assert parse_wire(wire) == move


@pytest.mark.parametrize("wire", [["green", 1], ["red", 3], ["red", True], ["red", "2"], "take some", None])
def test_wire_garbage_is_refused(wire):
    with pytest.raises(IllegalMove):
        parse_wire(wire)


def test_json_round_trip_keeps_version_and_turn():
    s = state(5, 4, "misere")
    s.play(("blue", 1))
    copy = s.game.state_from_json(s.to_json())
    assert copy.to_json() == s.to_json() == {"red": 5, "blue": 3, "version": "misere", "to_move": 1, "ply": 1}
    with pytest.raises(ValueError, match="not a Red-Blue Nim position"):
        s.game.state_from_json({"red": -1, "blue": 2})


def test_pictures_show_both_piles():
    s = state(2, 3)
    text = s.render_text({"expected": [("red", 2)]})
    assert "red    2  oo" in text and "blue   3  ooo" in text and "expected: take 2 red" in text
    svg = s.render_svg()
    assert svg.count("<circle") == 5 and "#d62728" in svg and "#1f77b4" in svg
