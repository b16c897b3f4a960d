"""The Quoridor engine on hand-made positions: the rules file's worked examples and every rule."""
from __future__ import annotations

import json

import pytest

from rulesets.base import BadParams, IllegalMove
from rulesets.quoridor.engine import PASS, QuoridorGame, position, step, wall_move


def walls_of(moves):
    return {m[1:] for m in moves if m[0] == "wall"}


def steps_of(moves):
    return {(m[1], m[2]) for m in moves if m[0] == "step"}


# ---- worked examples (rules file, section 3.6) ---------------------------------------------------
def test_q1_eleven_walls_exactly():
    state = position(4, 4, (0, 0), (0, 3), [("H", 0, 1)], max_obstacles=5)
    assert set(state.legal_walls(0)) == {
        ("H", 0, 0), ("H", 1, 0), ("H", 2, 0), ("H", 0, 2), ("H", 1, 2), ("H", 2, 2),
        ("V", 0, 1), ("V", 1, 1), ("V", 2, 0), ("V", 2, 1), ("V", 2, 2)}
    assert len(state.legal_walls(0)) == 11


def test_q1_excluded_walls_say_why():
    state = position(4, 4, (0, 0), (0, 3), [("H", 0, 1)], max_obstacles=5)
    assert "overlaps an initial obstacle" in state.refusal(wall_move(("H", 1, 1)))
    assert "cut player 1 off from row 3" in state.refusal(wall_move(("H", 2, 1)))
    assert "cut player 1 off from row 3" in state.refusal(wall_move(("V", 0, 0)))
    assert "cut player 2 off from row 0" in state.refusal(wall_move(("V", 1, 2)))


def test_q1_expand_player():
    state = position(4, 4, (0, 0), (0, 3), [("H", 0, 1)], max_obstacles=5)
    assert state.steps(0) == [step(0, 1), step(1, 0)]


@pytest.mark.parametrize("n, count", [(3, 8), (4, 18), (5, 32), (9, 128)])
def test_q2_empty_boards(n, count):
    state = QuoridorGame(sizex=n, sizey=n).new_state(0)
    assert len(state.legal_walls(0)) == count == len(state.legal_walls(1))


def test_q3_path_rule_removes_placements():
    state = position(3, 3, (0, 0), (0, 2), [("H", 0, 0)])
    assert state.steps(0) == [step(1, 0)]
    assert set(state.legal_walls(0)) == {("H", 0, 1), ("H", 1, 1)}
    assert "cut player 1 off" in state.refusal(wall_move(("V", 0, 0)))
    assert "cut player 2 off" in state.refusal(wall_move(("V", 1, 1)))
    assert "overlaps" in state.refusal(wall_move(("H", 1, 0)))


def test_q5_not_onto_the_opponent():
    state = position(4, 4, (1, 0), (1, 1))
    assert steps_of(state.legal_moves()) == {(2, 0), (0, 0)}
    with pytest.raises(IllegalMove, match=r"step to \(1,1\) is onto the opponent"):
        state.play(step(1, 1))


# ---- walls ---------------------------------------------------------------------------------------
def test_crossing_allowed_overlap_refused_touching_allowed():
    state = position(5, 5, (2, 0), (2, 4), [("H", 1, 1)])
    legal = set(state.legal_walls(0))
    assert ("V", 1, 1) in legal                       # crosses at the midpoint
    assert ("H", 0, 1) not in legal and ("H", 2, 1) not in legal   # share a unit edge
    assert ("H", 3, 1) in legal                       # touches end to end
    assert ("V", 0, 1) in legal and ("V", 2, 0) in legal           # T- and L-shaped touches


def test_overlap_names_the_move_it_collides_with():
    state = QuoridorGame(sizex=5, sizey=5).new_state(0)
    state.play(step(1, 0))
    state.play(wall_move(("H", 1, 1)))
    with pytest.raises(IllegalMove) as exc:
        state.play(wall_move(("H", 2, 1)))
    assert str(exc.value) == ("obstacle (2,1)->(2,2) + (3,1)->(3,2) overlaps the obstacle placed on move 2 "
                              "((1,1)->(1,2) + (2,1)->(2,2), by player 2).")


def test_walls_on_the_outer_edge_are_refused():
    state = position(4, 4, (0, 0), (0, 3))
    assert "not inside the 4x4 board" in state.refusal(wall_move(("H", 3, 0)))
    assert "not inside" in state.refusal(wall_move(("V", 0, 3)))
    assert "not inside" in state.refusal(wall_move(("H", -1, 0)))
    assert "whole numbers" in state.refusal(("wall", "H", 1.5, 0))
    assert "whole numbers" in state.refusal(("step", "0", 1))


def test_path_rule_per_player():
    # Only the opponent (player 2 at (0,4), heading for row 0) can be shut in at the left edge.
    state = position(5, 5, (3, 1), (0, 4), [("V", 0, 3)])
    assert state.refusal(wall_move(("H", 0, 2))) == ("that obstacle ((0,2)->(0,3) + (1,2)->(1,3)) would cut "
                                                     "player 2 off from row 0.")
    # ... and here only the mover.
    mine = position(5, 5, (0, 0), (2, 4), [("V", 0, 0)])
    assert "would cut player 1 off from row 4" in mine.refusal(wall_move(("H", 0, 1)))


def test_path_rule_ignores_pawns():
    # After V(0,0) player 1's only way down runs through player 2's cell: that still counts as a path.
    state = position(3, 3, (0, 0), (0, 1))
    assert ("V", 0, 0) in state.legal_walls(0)
    state.play(wall_move(("V", 0, 0)))
    assert state.distance(0) == 2 and state.steps(0) == []


def test_wall_supply_runs_out():
    state = QuoridorGame(sizex=5, sizey=5, max_obstacles=1).new_state(0)
    state.play(wall_move(("H", 0, 0)))
    state.play(wall_move(("H", 2, 2)))
    assert state.left == [0, 0]
    assert walls_of(state.legal_moves()) == set()
    with pytest.raises(IllegalMove, match=r"player 1 has no obstacles left \(all 1 are placed\)"):
        state.play(wall_move(("V", 3, 3)))


def test_total_cap_2m_plus_n():
    state = position(5, 5, (2, 0), (2, 4), [("H", 0, 1)], max_obstacles=0, left=(1, 1))
    assert state.wall_cap == 1
    assert "most obstacles allowed (2m+n = 1)" in state.refusal(wall_move(("H", 2, 2)))


# ---- steps, passes, ends -------------------------------------------------------------------------
def test_steps_refused_with_reasons():
    state = position(4, 4, (0, 1), (3, 3), [("H", 0, 1)])
    assert "leaves the 4x4 board" in state.refusal(step(-1, 1))
    assert "not one cell" in state.refusal(step(2, 1))
    assert state.refusal(step(0, 2)) == ("step from (0,1) to (0,2) crosses an initial obstacle "
                                         "((0,1)->(0,2) + (1,1)->(1,2)).")


BOXED = {"sizex": 4, "sizey": 4, "me": (0, 1), "opponent": (0, 2), "walls": [("H", 0, 0), ("V", 0, 1)]}


def test_pass_only_when_nothing_else():
    stuck = position(**BOXED, left=(0, 4))
    assert stuck.legal_moves() == [PASS]
    stuck.play(PASS)
    assert stuck.to_move == 1 and not stuck.is_over
    free = position(**BOXED)
    assert PASS not in free.legal_moves()
    with pytest.raises(IllegalMove, match="passing is allowed only when no move is possible, but player 1 "
                                          "can place the obstacle"):
        free.play(PASS)
    with pytest.raises(IllegalMove, match=r"can step to \(0,1\)"):
        position(4, 4, (0, 0), (3, 3)).play(PASS)


def test_both_stuck_both_lose(game):
    # Built as JSON; in play it arises mid-game on small boards (test_both_lose_arises_in_play).
    data = position(4, 4, (0, 1), (0, 2), left=(0, 0)).to_json()
    data["walls"] = [{"wall": list(w), "by": None, "ply": -1} for w in (("H", 0, 0), ("V", 0, 1), ("H", 0, 2))]
    state = QuoridorGame(**data["params"]).state_from_json(data)
    assert state.legal_moves() == [PASS]
    state.play(PASS)
    assert state.is_over and state.outcome.points == (0.0, 0.0) and state.outcome.reason == "no_moves"


def test_two_passes_end_the_game():
    state = position(**BOXED, left=(0, 4))
    state.passes = 1
    state.play(PASS)
    assert state.outcome.reason == "no_moves"


def test_ply_cap_is_a_draw():
    state = QuoridorGame(sizex=5, sizey=5, ply_cap=4).new_state(0)
    for move in (step(1, 0), step(1, 4), step(2, 0), step(2, 4)):
        state.play(move)
    assert state.outcome.points == (0.5, 0.5) and state.outcome.reason == "ply_cap"


def test_goal_row_wins():
    state = QuoridorGame(sizex=3, sizey=3).new_state(0)
    for move in (step(2, 0), step(0, 2), step(2, 1), step(0, 1), step(2, 2)):
        state.play(move)
    assert state.outcome.points == (1.0, 0.0) and state.outcome.reason == "goal"
    assert state.outcome.detail == "Player 1 reached row 2."
    assert state.to_move is None and state.legal_moves() == []


# ---- wire format ---------------------------------------------------------------------------------
def test_parse_move_accepts_edges_in_any_order_and_direction():
    state = position(5, 5, (2, 0), (2, 4))
    want = wall_move(("H", 1, 2))
    for edges in ([[1, 2, 1, 3], [2, 2, 2, 3]], [[2, 2, 2, 3], [1, 2, 1, 3]], [[1, 3, 1, 2], [2, 3, 2, 2]],
                  ([2, 3, 2, 2], (1, 2, 1, 3))):
        assert state.parse_move({"type": 2, "edges": edges}) == want
    assert state.parse_move({"type": 2, "edges": [[4, 2, 3, 2], [4, 1, 3, 1]]}) == wall_move(("V", 3, 1))
    assert state.parse_move({"type": 1, "pos": [2, 1]}) == step(2, 1)
    assert state.parse_move({"type": None}) == PASS
    for move in state.legal_moves():
        assert state.parse_move(json.loads(json.dumps(state.move_to_json(move)))) == move


@pytest.mark.parametrize("wire, words", [
    ({"type": 2, "edges": [[1, 2, 1, 3], [3, 2, 3, 3]]}, "do not make one two-cell obstacle"),
    ({"type": 2, "edges": [[1, 2, 1, 3], [2, 2, 3, 2]]}, "do not make one two-cell obstacle"),
    ({"type": 2, "edges": [[1, 2, 1, 4], [2, 2, 2, 4]]}, "does not join two neighbouring cells"),
    ({"type": 2, "edges": [[1, 2, 1, 3]]}, "must be two Obstacle objects"),
    ({"type": 2, "edges": [[1, 2, 1], [2, 2, 2, 3]]}, "four whole numbers"),
    ({"type": 1, "pos": [1]}, "new position as"),
    ({"type": 1, "pos": [1.0, 2]}, "new position as"),
    ({"type": True, "pos": [1, 2]}, "move type must be"),
    ({"type": 3}, "move type must be"),
    ({"pos": [1, 2]}, "a move must be"),
    ({"invalid": "make_move() returned a str"}, "returned a str"),
])
def test_parse_move_refusals(wire, words):
    with pytest.raises(IllegalMove, match=words.replace("(", r"\(").replace(")", r"\)")):
        position(5, 5, (2, 0), (2, 4)).parse_move(wire)


def test_move_text_is_the_course_notation():
    state = position(5, 5, (2, 0), (2, 4))
    assert state.move_text(step(2, 1)) == "pawn to [2, 1]"
    assert state.move_text(wall_move(("V", 3, 1))) == "wall (3,1)->(4,1) + (3,2)->(4,2)"
    assert state.move_text(PASS) == "no move"


def test_json_round_trip_keeps_everything():
    game = QuoridorGame(sizex=7, sizey=6, max_obstacles=3, initial_obstacles=2)
    state = game.new_state(4)
    for move in (wall_move(("V", 0, 0)), step(3, 4), wall_move(("H", 4, 2))):
        state.play(move)
    copy = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert copy.to_json() == state.to_json()
    assert copy.legal_moves() == state.legal_moves()
    assert "placed on move 3" in copy.refusal(wall_move(("H", 4, 2)))


# ---- parameters ----------------------------------------------------------------------------------
def test_defaults_follow_the_course_manager():
    game = QuoridorGame()
    assert game.params == {"sizex": 9, "sizey": 9, "max_obstacles": 4, "ply_cap": 324, "start": "course",
                           "initial_obstacles": 0}
    state = game.new_state(1)
    assert state.pos == [(4, 0), (4, 8)] and state.walls == []


def test_random_starts_and_initial_walls_come_from_the_seed():
    game = QuoridorGame(start="random", initial_obstacles=5)
    a, b = game.new_state(7), game.new_state(7)
    assert a.to_json() == b.to_json()
    assert len(a.walls) == 5 == a.n_initial and a.wall_cap == 13
    assert a.pos[0][1] == 0 and a.pos[1][1] == 8
    assert {game.new_state(s).pos[0][0] for s in range(20)} != {4}


def test_no_game_starts_already_over():
    """Random initial walls never box a pawn in (5x2 with 8 walls did: both lost before move 1)."""
    state = QuoridorGame(sizex=5, sizey=2, max_obstacles=1, start="course", initial_obstacles=8).new_state(25)
    assert state.outcome is None and state.legal_moves()
    for seed in range(100):
        for sx, sy, n in ((5, 2, 8), (3, 2, 4), (4, 3, 6), (2, 2, 2)):
            for start in ("course", "random"):
                state = QuoridorGame(sizex=sx, sizey=sy, max_obstacles=1, start=start,
                                     initial_obstacles=n).new_state(seed)
                assert state.outcome is None and not state.boxed_in(0) and not state.boxed_in(1), (sx, sy, seed)
    walls = [[[1, 0, 2, 0], [1, 1, 2, 1]], [[2, 0, 3, 0], [2, 1, 3, 1]]]      # both pawns of column 2 boxed in
    with pytest.raises(BadParams, match="leave a pawn no step at the start"):
        QuoridorGame(sizex=5, sizey=2, initial_obstacles=walls)
    for seed in range(20):                                                   # a random start avoids them
        assert QuoridorGame(sizex=5, sizey=2, start="random", initial_obstacles=walls).new_state(seed).outcome is None


def test_initial_obstacles_in_course_notation():
    pairs = [[[0, 1, 0, 2], [1, 1, 1, 2]], [[4, 5, 3, 5], [4, 6, 3, 6]]]
    flat = [edge for pair in pairs for edge in pair]
    for given in (pairs, flat):
        state = QuoridorGame(initial_obstacles=given).new_state(0)
        assert [w for w, _by, _ply in state.walls] == [("H", 0, 1), ("V", 3, 5)]
        assert "an initial obstacle" in state.refusal(wall_move(("H", 1, 1)))


@pytest.mark.parametrize("params, words", [
    ({"sizex": 1}, "sizex must be a whole number from 2 to 30"),
    ({"max_obstacles": -1}, "max_obstacles"),
    ({"start": "middle"}, "start must be"),
    ({"colour": "blue"}, "unknown quoridor parameter"),
    ({"initial_obstacles": [[[0, 1, 0, 2], [1, 1, 1, 2]], [[1, 1, 1, 2], [2, 1, 2, 2]]]}, "initial obstacle 2: "),
    ({"initial_obstacles": [[[8, 1, 8, 2], [9, 1, 9, 2]]]}, "not inside"),
    ({"initial_obstacles": "two"}, "a count or a list"),
    ({"sizex": 2, "sizey": 2, "initial_obstacles": [[[0, 0, 0, 1], [1, 0, 1, 1]]]}, "cut a start cell off"),
])
def test_bad_params_are_one_sentence(params, words):
    with pytest.raises(BadParams, match=words) as exc:
        QuoridorGame(**params)
    assert "\n" not in str(exc.value)


# ---- pictures ------------------------------------------------------------------------------------
def test_render_text_shows_pawns_walls_and_marks():
    state = position(4, 4, (0, 0), (0, 3), [("H", 0, 1)], max_obstacles=5)
    text = state.render_text({"missing": [step(1, 0)], "extra": [wall_move(("V", 2, 1))]})
    rows = text.splitlines()
    assert " 1 " in rows[2] and " 2 " in rows[8]
    assert "-------" in rows[5]                       # the initial wall between rows 1 and 2
    assert "?" in rows[2] and rows[4].count("!") == 1 and rows[6].count("!") == 1
    assert "? missing: [1,0]" in text and "! extra: V(2,1) = (2,1)->(3,1) + (2,2)->(3,2)" in text


def test_render_svg_is_self_contained_with_coloured_marks():
    state = position(4, 4, (0, 0), (0, 3), [("H", 0, 1)])
    svg = state.render_svg({"missing": [wall_move(("H", 0, 0))], "extra": [step(1, 1)]})
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert 'stroke="#2ca02c"' in svg and 'stroke-dasharray="6,4"' in svg   # missing: green dashed
    assert 'stroke="#d62728"' in svg                                          # extra: red
    assert "missing: H(0,0)" in svg and "extra: [1,1]" in svg
    assert "href" not in svg
