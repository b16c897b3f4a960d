"""The Bohnenspiel engine on hand-set positions: every worked example of the rules file, the end rules,
skip bookkeeping, wire parsing and pictures."""
from __future__ import annotations

import json
import random

import pytest

from rulesets.base import BadParams, IllegalMove
from rulesets.bohnenspiel.engine import SKIP, BohnenspielGame

PIT = lambda i: ("pit", i)  # noqa: E731


def test_b0_start_has_six_pits_and_skip_and_no_first_move_captures(game):
    state = game.new_state(0)
    assert state.pits == [[6] * 6, [6] * 6] and state.scores == [0, 0] and state.to_move == 0
    assert state.legal_moves() == [PIT(i) for i in range(6)] + [SKIP]
    for i in range(6):
        after = state.copy()
        after.play(PIT(i))
        assert after.scores == [0, 0]
        assert sum(map(sum, after.pits)) == 72
        last = (0, i + 6) if i + 6 < 6 else (1, i + 6 - 6)
        assert after.pits[last[0]][last[1]] == 7


def test_b1_capture_chain_on_the_opponents_side(game):
    state = game.position([0, 0, 0, 0, 0, 3], [1, 3, 1, 5, 0, 0], scores=(10, 10))
    state.play(PIT(5))
    assert state.pits == [[0] * 6, [0, 0, 0, 5, 0, 0]]
    assert state.scores == [18, 10]
    assert not state.is_over and state.to_move == 1


def test_b2_twelve_beans_refill_the_origin_without_capture(game):
    state = game.position([12, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1])
    state.play(PIT(0))
    assert state.pits == [[1, 2, 2, 2, 2, 2], [2, 2, 2, 2, 2, 2]]
    assert state.scores == [0, 0]


def test_b3_chain_crosses_back_and_ambiguity_2_continuation(game):
    state = game.position([0, 0, 0, 3, 1, 1], [1, 0, 0, 0, 0, 0])
    state.play(PIT(3))
    assert state.pits == [[0] * 6, [0] * 6] and state.scores == [6, 0]
    assert state.legal_moves() == [SKIP] and not state.is_over
    state.play(SKIP)                       # player 0 now has credit but is barred: no legal move
    out = state.outcome
    assert out is not None and out.reason == "no_moves"
    assert out.scores == (6.0, 0.0) and out.points == (1.0, 0.0) and out.winner == 0


def test_b4_remaining_beans_go_to_the_mover(game):
    state = game.position([0] * 6, [2, 0, 0, 0, 1, 3], to_move=1, scores=(30, 32), credit=(0, 2))
    state.play(PIT(4))
    out = state.outcome
    assert out.reason == "no_moves" and out.scores == (30.0, 38.0) and out.points == (0.0, 1.0)
    assert state.pits == [[0] * 6, [0] * 6] and state.to_move is None
    assert "2 bean(s)" in out.detail


def test_b4_with_a_skip_left_the_game_goes_on_with_skip_only(game):
    state = game.position([0] * 6, [2, 0, 0, 0, 1, 3], to_move=1, scores=(30, 32), credit=(1, 2))
    state.play(PIT(4))
    assert not state.is_over and state.scores == [30, 36]
    assert state.legal_moves() == [SKIP]


def test_b5_skip_bookkeeping(game):
    state = game.new_state(0)
    state.play(SKIP)
    assert state.credit == [1, 2] and state.pits == [[6] * 6, [6] * 6]
    assert state.legal_moves() == [PIT(i) for i in range(6)]
    with pytest.raises(IllegalMove, match="right after the opponent skipped"):
        state.play(SKIP)
    state.play(PIT(0))
    assert SKIP in state.legal_moves()
    state.play(SKIP)
    assert state.credit == [0, 2]
    state.play(PIT(1))
    assert SKIP not in state.legal_moves()
    with pytest.raises(IllegalMove, match="used both skips"):
        state.play(SKIP)


def test_a_pit_move_clears_the_bar_and_turn_number_counts_player_1(game):
    state = game.new_state(0)
    state.play(SKIP)
    assert state.barred == [0, 1] and state.turn_number == 0
    state.play(PIT(2))
    assert state.barred == [0, 0] and state.turn_number == 1 and state.ply == 2


def test_illegal_moves_leave_the_state_untouched(game):
    state = game.position([0, 1, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0])
    before = state.to_json()
    for bad, words in ((PIT(0), "is empty"), (PIT(6), "not a Bohnenspiel move"), (("jump",), "not a")):
        with pytest.raises(IllegalMove, match=words):
            state.play(bad)
    assert state.to_json() == before


def test_seeded_random_game_ends_by_the_bean_rule_and_replays(game):
    rng = random.Random(7)
    state, wires = game.new_state(0), []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        wires.append(json.loads(json.dumps(state.move_to_json(move))))
        state.play(move)
    out = state.outcome
    assert out.reason == "no_moves"
    assert sum(out.scores) == 72 and state.pits == [[0] * 6, [0] * 6]
    replay = game.new_state(0)
    for wire in wires:
        replay.play(replay.parse_move(wire))
    assert replay.to_json() == state.to_json() and replay.outcome == out


def test_turn_cap_ends_after_player_1s_move_with_beans_unscored():
    game = BohnenspielGame(max_turns=3)
    state = game.new_state(0)
    plies = 0
    while not state.is_over:
        state.play(state.legal_moves()[0])
        plies += 1
    out = state.outcome
    assert out.reason == "turn_cap" and plies == 8 and state.turn_number == 4
    left = sum(map(sum, state.pits))
    assert left > 0 and sum(out.scores) + left == 72
    assert "3-turn cap" in out.detail


def test_default_turn_cap_ends_a_capture_avoiding_game_after_402_plies(game):
    """Both players avoid captures, so the board never empties: the 200-turn cap ends the game."""
    state = game.new_state(0)

    def captured(move):
        after = state.copy()
        after.play(move)
        return sum(after.scores)

    while not state.is_over:
        pits = [m for m in state.legal_moves() if m != SKIP] or state.legal_moves()
        state.play(min(pits, key=captured))
    out = state.outcome
    assert out.reason == "turn_cap" and state.ply == 402 and state.turn_number == 201
    assert sum(out.scores) + sum(map(sum, state.pits)) == 72 and sum(map(sum, state.pits)) > 0
    assert "200-turn cap" in out.detail


def test_draw_is_half_a_point_each(game):
    state = game.position([0] * 6, [1, 0, 0, 0, 0, 0], to_move=1, scores=(35, 36), credit=(0, 0))
    state.play(PIT(0))              # P1[1]=1; player 0 has no move: the bean goes to player 1 -> 35-37
    assert state.outcome.points == (0.0, 1.0)
    state = game.position([0] * 6, [1, 0, 0, 0, 0, 0], to_move=1, scores=(36, 35), credit=(0, 0))
    state.play(PIT(0))
    out = state.outcome
    assert out.scores == (36.0, 36.0) and out.points == (0.5, 0.5) and out.winner is None
    assert "draw" in out.detail


@pytest.mark.parametrize("wire", ["PIT 0 3", "pit 0 3", "  Pit   0   3 ", "PIT 3", "pit -1 3", ["pit", 3],
                                  {"move_type": "PIT", "player_id": 0, "pit": 3}, {"type": "pit", "pit": 3}])
def test_parse_pit_leniently(game, wire):
    assert game.new_state(0).parse_move(wire) == PIT(3)


@pytest.mark.parametrize("wire", ["SKIP 0", "skip", " Skip  0", ["skip"], {"move_type": "SKIP", "player_id": 0}])
def test_parse_skip_leniently(game, wire):
    assert game.new_state(0).parse_move(wire) == SKIP


@pytest.mark.parametrize("wire, words", [
    ("PIT 1 3", "for player 1, but it is player 0's turn"), ("SKIP 1", "player 1"),
    ("PIT 0 6", "pits are numbered 0 to 5"), ("NOTHING 0", "NOTHING is never"), ("pit", "names no pit"),
    ("jump 3", "not a Bohnenspiel move"), (["pit", "3"], "pits are numbered"), (7, "not a Bohnenspiel move"),
    ({"invalid": "choose_move returned None."}, "returned None"), ({"move_type": 3}, "not a Bohnenspiel move"),
])
def test_parse_refuses_with_a_sentence(game, wire, words):
    with pytest.raises(IllegalMove, match=words):
        game.new_state(0).parse_move(wire)


def test_json_round_trip_of_moves_and_states(game):
    state = game.position([0, 2, 0, 7, 1, 0], [3, 0, 12, 0, 0, 1], to_move=1, scores=(20, 25), credit=(1, 0),
                          barred=(0, 1), turn_number=57)
    for move in state.legal_moves() + [SKIP]:
        assert state.parse_move(json.loads(json.dumps(state.move_to_json(move)))) == move
    data = json.loads(json.dumps(state.to_json()))
    again = game.state_from_json(data)
    assert again.to_json() == state.to_json() and again.legal_moves() == [PIT(0), PIT(2), PIT(5)]
    capped = BohnenspielGame(max_turns=9).new_state(0)
    assert game.state_from_json(capped.to_json()).max_turns == 9


def test_bad_positions_and_params_are_sentences(game):
    with pytest.raises(ValueError, match="not a Bohnenspiel position"):
        game.state_from_json({"pits": [[1] * 6]})
    with pytest.raises(ValueError, match="not a Bohnenspiel position"):
        game.state_from_json({"pits": [[1] * 6, [1] * 5], "scores": [0, 0], "credit": [2, 2], "barred": [0, 0],
                              "turn_player": 0, "turn_number": 0})
    with pytest.raises(BadParams, match="at least 1"):
        BohnenspielGame(max_turns=0)
    with pytest.raises(BadParams, match="no parameter 'turns'"):
        BohnenspielGame(turns=5)


def test_render_marks_the_chosen_pit_and_shows_scores_and_skips(game):
    state = game.position([0, 2, 0, 7, 1, 0], [3, 0, 12, 0, 0, 1], scores=(20, 25), credit=(1, 0), barred=(0, 1))
    text = state.render_text({"chosen": [PIT(3)], "extra": [SKIP]})
    lines = text.splitlines()
    assert lines[1].startswith("player 1") and "12" in lines[1] and "score 25" in lines[1]
    assert "(may not skip)" in lines[1] and "skips 1" in lines[2]
    assert "* 7*" in lines[2]
    assert "* chosen: pit 3" in text and "+ extra: skip" in text
    assert "Player 0 to move" in text
    svg = state.render_svg({"chosen": [PIT(3)]})
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert 'stroke="#d62728" stroke-width="5"' in svg and "chosen: pit 3" in svg
    assert svg.count("<circle") == 12 + 1
    assert "score 20" in svg and "skips 0, barred" in svg
