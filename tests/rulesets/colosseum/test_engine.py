"""The Colosseum engine on positions set up by hand: the rules file's worked examples (C1-C4),
the course's test_world.py lists, move sentences, the wire format and the pictures."""
from __future__ import annotations

import json
import random

import numpy as np
import pytest

from rulesets.base import BadParams, IllegalMove
from rulesets.colosseum.engine import ColosseumGame, max_steps, state_from_parts
from rulesets.colosseum.examples import (
    EMPTY_BOARDS,
    WORLD_1_INVALID,
    WORLD_1_VALID,
    empty_board,
    world_1,
    world_2,
)


@pytest.mark.parametrize("size, k", [(4, 2), (5, 3), (6, 3), (7, 4), (8, 4), (9, 5), (10, 5), (11, 6)])
def test_max_steps(size, k):
    assert max_steps(size) == k


# ---- C1: world_1 -----------------------------------------------------------------------------
@pytest.mark.parametrize("move", WORLD_1_VALID)
def test_world_1_valid_moves_of_the_course(game, move):
    state = world_1(game)
    assert state.why_illegal(move) is None
    assert move in state.legal_moves()


@pytest.mark.parametrize("move, sentence", [
    ((2, 0, 0), "(2,0) is 5 steps away; at most 3 are allowed"),
    ((2, 1, 0), "(2,1) is the opponent's cell"),
    ((3, 1, 2), "side Down of (3,1) already has a wall"),
    ((0, 3, 0), "side Up of (0,3) already has a wall (the edge of the board)"),
    ((4, 1, 1), "(4,1) is 4 steps away; at most 3 are allowed"),
    ((0, 1, 2), "(0,1) is 4 steps away; at most 3 are allowed"),
])
def test_world_1_invalid_moves_of_the_course(game, move, sentence):
    assert move in WORLD_1_INVALID
    state = world_1(game)
    before = state.to_json()
    assert move not in state.legal_moves()
    with pytest.raises(IllegalMove) as exc:
        state.play(move)
    assert str(exc.value) == sentence
    assert state.to_json() == before


def test_world_1_counts_for_a(game):
    state = world_1(game, turn=0)
    moves = state.legal_moves()
    assert len(moves) == 47
    assert len({(r, c) for r, c, _ in moves}) == 17
    assert moves == sorted(moves)


def test_world_1_counts_for_b(game):
    moves = world_1(game, turn=1).legal_moves()
    assert len(moves) == 26
    assert len({(r, c) for r, c, _ in moves}) == 11


def test_world_1_is_not_over(game):
    state = world_1(game)
    assert state.endgame() == (False, 25, 25)
    assert state.outcome is None and state.to_move == 0


def test_nobody_walks_through_the_opponent(game):
    # 1x3 corridor on a 3x3 board: A at (0,0), B at (0,1) blocks the way to (0,2)
    state = state_from_parts(game, 3, [(0, 0, 2), (0, 1, 2), (0, 2, 2)], [(0, 0), (0, 1)])
    assert {(r, c) for r, c, _ in state.legal_moves()} == {(0, 0)}
    with pytest.raises(IllegalMove, match="cannot be reached from \\(0,0\\)"):
        state.play((0, 2, 3))


def test_staying_put_is_a_move(game):
    state = world_1(game)
    state.play((2, 3, 0))
    assert state.positions[0] == (2, 3) and state.to_move == 1


# ---- C2: world_2 -----------------------------------------------------------------------------
def test_world_2_is_won_by_a(game):
    state = world_2(game)
    assert state.endgame() == (True, 15, 10)
    out = state.outcome
    assert out.points == (1.0, 0.0) and out.scores == (15, 10) and out.reason == "board_decided"
    assert out.winner == 0 and "A wins" in out.detail
    assert state.to_move is None and state.legal_moves() == []
    with pytest.raises(IllegalMove, match="the game is over"):
        state.play((0, 2, 3))


def test_world_2_is_reached_by_playing(game):
    """world_1 plus the two walls of world_2, placed by moves."""
    state = state_from_parts(game, 5, world_1(game).barriers(), [(0, 2), (2, 2)])
    state.play((0, 2, 2))
    assert state.outcome is None
    state.play((2, 2, 1))
    assert state.outcome.scores == (15, 10)


def test_equal_regions_tie(game):
    # a wall across the middle of a 4x4 board: two regions of 8
    walls = [(1, c, 2) for c in range(4)]
    state = state_from_parts(game, 4, walls, [(0, 0), (3, 3)])
    assert state.outcome.points == (0.5, 0.5) and state.outcome.winner is None
    assert state.outcome.scores == (8, 8)


# ---- C3, C4: empty boards --------------------------------------------------------------------
@pytest.mark.parametrize("size, me, opponent, cells, moves", [
    (4, (0, 0), (3, 3), 6, 18),
    (4, (1, 1), (2, 2), 10, 32),
    (5, (2, 2), (0, 0), 21, 72),
    (6, (0, 0), (5, 5), 10, 32),
])
def test_empty_boards(game, size, me, opponent, cells, moves):
    assert (size, me, opponent) in EMPTY_BOARDS
    state = empty_board(game, size, me, opponent)
    legal = state.legal_moves()
    assert len({(r, c) for r, c, _ in legal}) == cells
    assert len(legal) == moves


# ---- play, wire, storage ---------------------------------------------------------------------
def test_play_walls_both_sides_and_passes_the_turn(game):
    state = empty_board(game, 5, (2, 2), (0, 0))
    state.play((1, 2, 1))
    assert state.positions == ((1, 2), (0, 0)) and state.turn == 1 and state.ply == 1
    board = state.chess_board()
    assert board[1, 2, 1] and board[1, 3, 3]
    assert (1, 2, 1) in state.barriers()


def test_chess_board_is_the_course_array(game):
    state = world_1(game)
    board = state.chess_board()
    assert board.dtype == np.bool_ and board.shape == (5, 5, 4)
    assert board[0, :, 0].all() and board[:, 0, 3].all() and board[4, :, 2].all() and board[:, 4, 1].all()
    assert board[3, 1].tolist() == [True, False, True, True]
    assert int(board.sum()) == 4 * 5 + 18                     # border sides + both halves of 9 barriers
    board[2, 2, 0] = True
    assert not state.chess_board()[2, 2, 0]                    # a fresh copy each call


@pytest.mark.parametrize("wire", [[[1, 1], 0], ((1, 1), 0), [1, 1, 0], ([1, 1], 0)])
def test_parse_move_is_lenient(game, wire):
    assert world_1(game).parse_move(wire) == (1, 1, 0)


@pytest.mark.parametrize("wire", [None, 7, "1,1,u", [[1, 1]], [[1.5, 1], 0], [[True, 1], 0],
                                  {"pos": [1, 1]}, [[1, 1, 1], 0]])
def test_parse_move_refuses_non_moves(game, wire):
    with pytest.raises(IllegalMove, match="is not a move; expected \\[\\[row, col\\], dir\\]"):
        world_1(game).parse_move(wire)


def test_parse_move_passes_the_shim_sentence_on(game):
    with pytest.raises(IllegalMove, match=r"^step returned None"):
        world_1(game).parse_move({"invalid": "step returned None (expected ((row, col), dir))"})


def test_out_of_range_moves_get_sentences(game):
    state = world_1(game)
    with pytest.raises(IllegalMove, match=r"^\(5,0\) is outside the 5x5 board$"):
        state.play(state.parse_move([[5, 0], 0]))
    with pytest.raises(IllegalMove, match=r"^4 is not a direction"):
        state.play(state.parse_move([[2, 3], 4]))


def test_move_json_and_text(game):
    state = world_1(game)
    assert state.move_to_json((3, 1, 1)) == [[3, 1], 1]
    assert state.move_text((3, 1, 1)) == "(3,1) Right"


def test_json_round_trip_keeps_everything(game):
    state = world_1(game, turn=1)
    state.play((1, 1, 0))
    data = json.loads(json.dumps(state.to_json()))
    again = game.state_from_json(data)
    assert again.to_json() == state.to_json()
    assert again.walls == state.walls and again.turn == 0 and again.ply == 1


@pytest.mark.parametrize("data, sentence", [
    ({"board_size": 5, "barriers": [[0, 0, 0]], "positions": [[0, 0], [4, 4]]}, "on the border"),
    ({"board_size": 5, "barriers": [], "positions": [[0, 0], [0, 0]]}, "two different player cells"),
    ({"board_size": 5, "barriers": [], "positions": [[0, 0], [5, 4]]}, "not a cell"),
    ({"board_size": 5, "positions": [[0, 0], [1, 1]], "turn": 2}, "turn must be 0 or 1"),
    ({"positions": []}, "not a colosseum position"),
])
def test_bad_positions_are_refused_with_a_sentence(game, data, sentence):
    with pytest.raises(ValueError, match=sentence):
        game.state_from_json(data)


def test_random_walk_is_always_legal():
    rng = random.Random(5)
    for seed in range(60):
        state = ColosseumGame(board_size=[5, 11]).new_state(seed)
        while not state.is_over:
            legal = set(state.legal_moves())
            move = state.random_move(rng)
            assert move in legal
            state.play(move)


def test_random_walk_stays_when_walled_in(game):
    # A at (0,0) with walls Right and the opponent Down: every step is refused 300 times
    state = state_from_parts(game, 3, [(0, 0, 1)], [(0, 0), (1, 0)])
    rng = random.Random(0)
    for _ in range(20):
        assert state.random_move(rng) in {(0, 0, 2)}


# ---- parameters ------------------------------------------------------------------------------
def test_default_board_size_is_the_autoplay_range():
    assert ColosseumGame().params == {"board_size": [6, 11]}
    sizes = {ColosseumGame().new_state(seed).size for seed in range(200)}
    assert sizes == set(range(6, 12))


@pytest.mark.parametrize("value, expected", [(7, [7, 7]), ([5, 9], [5, 9]), ((3, 3), [3, 3])])
def test_board_size_accepted(value, expected):
    game = ColosseumGame(board_size=value)
    assert game.params["board_size"] == expected
    assert expected[0] <= game.new_state(1).size <= expected[1]


@pytest.mark.parametrize("value, sentence", [
    (2, "too small"), ([4, 3], "is empty"), ("7", "must be an integer"), (True, "must be an integer"),
    ([5, 6, 7], "must be an integer"), (51, "larger than the supported"),
])
def test_bad_board_size_is_one_sentence(value, sentence):
    with pytest.raises(BadParams, match=sentence) as exc:
        ColosseumGame(board_size=value)
    assert "\n" not in str(exc.value)


def test_unknown_parameter():
    with pytest.raises(BadParams, match="only board_size"):
        ColosseumGame(size=5)


# ---- pictures --------------------------------------------------------------------------------
def test_text_picture_shows_walls_players_and_marks(game):
    text = world_1(game).render_text({"illegal": [(3, 1, 2)], "extra": [(9, 9, 0)]})
    lines = text.splitlines()
    assert lines[0].split() == ["0", "1", "2", "3", "4"]
    assert lines[1] == "   +---+---+---+---+---+"
    assert lines[6] == " 2 |     B       A |   |"
    assert lines[8].startswith(" 3 |   |  x")              # the marked cell
    assert lines[9] == "   +   +xxx+   +   +   +"              # its marked Down side
    assert "x illegal: (3,1) Down" in lines
    assert "+ extra: (9,9) Up (off the board)" in lines
    assert "A to move" in text


def test_svg_picture(game):
    svg = world_2(game).render_svg({"illegal": [(3, 1, 2)]})
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count('stroke="black"') == 4 * 5 + 22          # border sides + both halves of 11 barriers
    assert "#d62728" in svg and "illegal: (3,1) Down" in svg
    assert "A wins" in svg and ">A</text>" in svg and ">B</text>" in svg
