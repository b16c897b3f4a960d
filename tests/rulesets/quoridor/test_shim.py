"""The student API through the shim, in-process: interface, games, conversions and the probes."""
from __future__ import annotations

import textwrap

import pytest

from rulesets.quoridor import shim
from rulesets.quoridor.engine import QuoridorGame, position
from rulesets.quoridor.obstacle import Obstacle

GOOD = ["alice", "crashes_in_make_move", "builtin:random", "builtin:baseline"]


def write_player(tmp_path, body: str):
    (tmp_path / "player.py").write_text("from obstacle import *\n\n" + textwrap.dedent(body))
    return shim.open_submission(str(tmp_path), {})


# ---- interface ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GOOD + ["steps_onto_opponent", "no_crossing"])
def test_interface_is_right(name, folder):
    assert shim.open_submission(str(folder(name)), {}).rpc_interface() == []


def test_wrong_arity_fails_the_interface(folder):
    problems = shim.open_submission(str(folder("wrong_arity")), {}).rpc_interface()
    assert problems == ["Player: the constructor must take 1 argument besides self, but takes (none)."]


def test_camel_case_aliases_are_accepted_and_missing_methods_named(tmp_path):
    handler = write_player(tmp_path, """
        class Player:
            def __init__(self, name): pass
            def initialization(self, sizex, sizey, myx, myy, opponentx, opponenty, max_obstacles, obstacles): pass
            def makeMove(self): return None
            def opponentMove(self, moveType, result): pass
            def all_player_moves(self): return []
    """)
    assert handler.rpc_interface() == [("Player: expand_obstacles() is missing (also accepted: expandObstacles, "
                                       "all_obstacles).")]


# ---- conversions ---------------------------------------------------------------------------------
@pytest.mark.parametrize("answer, wire", [
    (None, {"type": None}),
    ((None,), {"type": None}),
    ((None, [0, 0]), {"type": None}),
    ((1, [2, 3]), {"type": 1, "pos": [2, 3]}),
    ([1, (2, 3)], {"type": 1, "pos": [2, 3]}),
    ((2, [Obstacle(1, 2, 1, 3), Obstacle(2, 2, 2, 3)]), {"type": 2, "edges": [[1, 2, 1, 3], [2, 2, 2, 3]]}),
])
def test_make_move_results_become_wire_moves(answer, wire):
    assert shim.to_wire(answer) == wire


class Obstacle2:   # a student's own class of the same shape
    def __init__(self, *fields):
        self.fromx, self.fromy, self.tox, self.toy = fields


Obstacle2.__name__ = "Obstacle"


@pytest.mark.parametrize("answer, words", [
    ("1 2 3", "make_move() returned a str"),
    ((1, [2, 3], 4), "returned 3 values"),
    ((1, "b3"), "a step to a str"),
    ((2, [(1, 2, 1, 3), (2, 2, 2, 3)]), "obstacle 1 of the obstacle make_move() returned is a tuple"),
    ((2, [Obstacle2(1, 2, 1, 3), Obstacle2(2, 2, 2, 3)]), "an Obstacle of the player's own class"),
    ((2, [Obstacle(1, 2, 1, 3)]), "not a pair [o1, o2]"),
    ((3, None), "move type a int"),
])
def test_bad_results_are_invalid_with_a_sentence(answer, words):
    wire = shim.to_wire(answer)
    assert set(wire) == {"invalid"} and words in wire["invalid"]
    with pytest.raises(Exception, match=r"."):
        QuoridorGame().new_state(0).parse_move(wire)


def test_generators_returning_non_obstacles_are_invalid(tmp_path):
    handler = write_player(tmp_path, """
        class Player:
            def __init__(self, name): pass
            def initialization(self, *args): pass
            def expand_player(self): return [(1, 0), "left"]
            def expand_obstacles(self): return [[Obstacle(0, 0, 0, 1), Obstacle(1, 0, 1, 1)], [(0, 0, 1, 0), None]]
    """)
    state = position(4, 4, (0, 0), (0, 3)).to_json()
    assert handler.rpc_expand_player(state=state, seat=0) == {"invalid": "item 2 of expand_player() is a str "
                                                                          "('left'), not [x, y]."}
    answer = handler.rpc_expand_obstacles(state=state, seat=0)
    assert answer == {"invalid": "obstacle 1 of item 2 of expand_obstacles() is a tuple ((0, 0, 1, 0)), not an Obstacle."}


# ---- what the player is told ---------------------------------------------------------------------
RECORDER = """
    calls = []

    class Player:
        def __init__(self, name):
            calls.append(("Player", name))
        def initialization(self, *args):
            calls.append(("initialization",) + args)
        def opponent_move(self, moveType, result):
            calls.append(("opponent_move", moveType, [str(o) for o in result] if moveType == 2 else result))
        def make_move(self):
            calls.append(("make_move",))
            return None
        def expand_player(self):
            return []
        def expand_obstacles(self):
            return [[Obstacle(0, 0, 0, 1), Obstacle(1, 0, 1, 1)]]
"""


def test_seat_0_hears_the_course_managers_start_position_first(tmp_path):
    handler = write_player(tmp_path, RECORDER)
    state = QuoridorGame(sizex=5, sizey=5, max_obstacles=3).new_state(0)
    handler.rpc_setup(seat=0, state=state.to_json(), name="anna", options={})
    handler.rpc_move(state=state.to_json(), last=[])
    calls = handler.module.calls
    assert calls[0] == ("Player", "anna")
    assert calls[1][:8] == ("initialization", 5, 5, 2, 0, 2, 4, 3) and calls[1][8] == []
    assert calls[2:] == [("opponent_move", 1, [2, 4]), ("make_move",)]


def test_opponent_moves_are_told_in_the_course_format(tmp_path):
    handler = write_player(tmp_path, RECORDER)
    state = QuoridorGame(sizex=5, sizey=5).new_state(0)
    handler.rpc_setup(seat=1, state=state.to_json(), name="bob", options={})
    wall = {"type": 2, "edges": [[1, 2, 1, 3], [2, 2, 2, 3]]}
    handler.rpc_move(state=state.to_json(), last=[{"seat": 0, "move": wall}])
    handler.rpc_move(state=state.to_json(), last=[{"seat": 0, "move": {"type": 1, "pos": [3, 0]}}])
    assert handler.module.calls[2:] == [("opponent_move", 2, ["(1,2)->(1,3)", "(2,2)->(2,3)"]), ("make_move",),
                                        ("opponent_move", 1, [3, 0]), ("make_move",)]


def test_probes_show_player_1_the_board_upside_down_once_it_left_row_0(tmp_path):
    handler = write_player(tmp_path, RECORDER)
    state = position(5, 5, (1, 3), (2, 4), [("H", 0, 0)], left=(2, 4))
    answer = handler.rpc_expand_obstacles(state=state.to_json(), seat=0)
    init = handler.module.calls[-1]
    # me (1,3) -> (1,1): the course derives goal row 0 from it, which is row 4 turned over.
    assert init[1:8] == (5, 5, 1, 1, 2, 0, 2)
    assert [str(o) for o in init[8]] == ["(0,3)->(0,4)", "(1,3)->(1,4)"]
    assert answer == [[[0, 4, 0, 3], [1, 4, 1, 3]]]        # the answer comes back the right way up


def test_a_fresh_player_for_every_probe_question(tmp_path):
    handler = write_player(tmp_path, RECORDER)
    state = position(4, 4, (0, 0), (0, 3)).to_json()
    handler.rpc_expand_player(state=state, seat=0)
    handler.rpc_expand_player(state=state, seat=1)
    assert [c[0] for c in handler.module.calls] == ["Player", "initialization"] * 2
    assert handler.module.calls[3][3:7] == (0, 3, 0, 0)    # seat 1 is "me" the second time


# ---- probes against the examples -----------------------------------------------------------------
@pytest.mark.parametrize("name", GOOD)
@pytest.mark.parametrize("probe", ["expand_player", "expand_obstacles"])
def test_good_generators_pass_both_probes(name, probe, folder, run_probe):
    assert run_probe(folder(name), probe) == []


def test_steps_onto_opponent_fails_expand_player_only(folder, run_probe):
    failures = run_probe(folder("steps_onto_opponent"), "expand_player")
    assert failures
    labels = [label for label, _ in failures]
    assert "Q5: a move beside the opponent" in labels
    mismatch = dict(failures)["Q5: a move beside the opponent"]
    assert mismatch.message == ("expand_player() for player 1 at (1,0) on the 4x4 board lists 1 extra step that "
                                "is not legal: [1, 1] (step to (1,1) is onto the opponent).")
    assert mismatch.marks == {"missing": [], "extra": [("step", 1, 1)]}
    assert run_probe(folder("steps_onto_opponent"), "expand_obstacles") == []


def test_no_crossing_fails_expand_obstacles_only(folder, run_probe):
    failures = dict(run_probe(folder("no_crossing"), "expand_obstacles"))
    mismatch = failures["Q1: the assignment page's 4x4 example"]
    assert mismatch.message == ("expand_obstacles() for player 1 at (0,0) on the 4x4 board is missing 1 legal "
                                "obstacle: (0,1)->(1,1) + (0,2)->(1,2).")
    assert mismatch.marks == {"missing": [("wall", "V", 0, 1)], "extra": []}
    assert "walls that cross at their midpoints" in failures
    assert run_probe(folder("no_crossing"), "expand_player") == []


def test_crashes_in_make_move_raises_in_the_game(folder, open_player):
    state = QuoridorGame().new_state(0)
    handler = open_player(folder("crashes_in_make_move"), 0, state)
    with pytest.raises(IndexError):
        handler.rpc_move(state=state.to_json(), last=[])


def test_malformed_replies_get_a_sentence(game):
    from rulesets.quoridor.probes import expand_obstacles_case, expand_player_case

    state = position(4, 4, (0, 0), (0, 3), [("H", 0, 1)], max_obstacles=5)
    assert "instead of a list" in expand_player_case("x", state, 0).check("[[1,0]]").message
    assert "lists the step [1, 0] twice" in expand_player_case("x", state, 0).check([[1, 0], [0, 1], [1, 0]]).message
    case = expand_obstacles_case("x", state, 0)
    assert "do not make one two-cell obstacle" in case.check([[[0, 0, 0, 1], [2, 0, 2, 1]]]).message
    twice = [[[0, 0, 0, 1], [1, 0, 1, 1]], [[1, 1, 1, 0], [0, 1, 0, 0]]]
    assert "lists an obstacle twice: (0,0)->(0,1) + (1,0)->(1,1)" in case.check(twice).message
    assert case.check({"invalid": "item 1 is None"}).message == "item 1 is None"


READINGS = {
    "pawns block paths": ("(nx, ny) not in seen and",
                          "(nx, ny) not in seen and (nx, ny) not in ((self.myx, self.myy), (self.opponentx, self.opponenty)) and"),
    "opponent's goal from its own row": ("self.opponent_goal_row = sizey - 1 - self.my_goal_row",
                                         "self.opponent_goal_row = sizey - 1 if opponenty == 0 else 0"),
}


@pytest.mark.parametrize("reading", READINGS)
def test_every_reading_of_the_path_rule_passes_expand_obstacles(reading, tmp_path, folder, run_probe):
    """The page does not say whether pawns block the path test, nor how to find the opponent's goal."""
    old, new = READINGS[reading]
    source = (folder("alice") / "player.py").read_text()
    assert old in source
    (tmp_path / "player.py").write_text(source.replace(old, new))
    assert run_probe(tmp_path, "expand_obstacles") == []


def test_a_wrong_answer_where_readings_differ_names_the_conventions(game):
    from rulesets.quoridor.probes import expand_obstacles_case, positions

    label, state, seat = next(p for p in positions(game, 2018) if p[0].startswith("Q3"))
    mismatch = expand_obstacles_case(label, state, seat).check([])
    assert "is missing" in mismatch.message and "conventions the page leaves open" in mismatch.message


def test_no_probe_position_is_over(game):
    """A pawn already on its goal row cannot occur in play: no such position is asked."""
    from rulesets.quoridor.probes import positions

    for label, state, _seat in positions(game, 2018):
        assert all(state.pos[s][1] != state.goal_row(s, state.sizey) for s in (0, 1)), label


def test_hand_made_positions_are_the_courses_and_the_others_are_played_in_the_leagues_game():
    """The course's hand-made suite whatever the game size; the other 30 positions are reached by play
    in the assignment's own game (its board size), drawn from the check's seed."""
    from rulesets.quoridor.probes import expand_player_cases

    small = expand_player_cases(QuoridorGame(sizex=5, sizey=5), 2018)
    large = expand_player_cases(QuoridorGame(), 2018)
    made = [c.label for c in small if not c.label.startswith("played ")]
    assert made == [c.label for c in large if not c.label.startswith("played ")] and len(made) >= 40
    for cases, size in ((small, 5), (large, 9)):
        played = [c.state for c in cases if c.label.startswith("played ")]
        assert len(played) == 30 and {(s.sizex, s.sizey) for s in played} == {(size, size)}
    assert ([c.args for c in expand_player_cases(QuoridorGame(), 2019)][len(made):]
            != [c.args for c in large][len(made):])


# ---- whole games ---------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2])
def test_random_against_baseline_ends_legally(seed, builtin, play_in_process):
    game = QuoridorGame(sizex=7, sizey=7)
    state = play_in_process(game, seed, [builtin["random"], builtin["baseline"]], seeds=(seed, None))
    assert state.is_over and state.outcome.reason in ("goal", "ply_cap")


def test_baseline_beats_random_and_alice_plays_through(folder, builtin, play_in_process):
    game = QuoridorGame()
    assert play_in_process(game, 3, [builtin["baseline"], builtin["random"]], seeds=(None, 3)).outcome.winner == 0
    assert play_in_process(game, 4, [folder("alice"), builtin["baseline"]]).is_over
