"""The shim in-process on the built-in players and the example modules; the probe stages."""
from __future__ import annotations

import textwrap

import pytest

from rulesets.rbnim.engine import RBNimGame
from rulesets.rbnim.probes import asked, depth_limited_cases, positions, probes, search_cases


def run_cases(handler, cases):
    """Every case through `handler`: the list of (label, mismatch message) that failed."""
    failed = []
    for case in cases:
        mismatch = case.check(getattr(handler, f"rpc_{case.method}")(**case.args))
        if mismatch is not None:
            failed.append((case.label, mismatch.message))
    return failed


def write_module(tmp_path, body: str):
    (tmp_path / "red_blue_nim.py").write_text(textwrap.dedent(body))
    return tmp_path


def test_cases_cover_both_versions_up_to_six():
    cases = search_cases(positions())
    assert len(cases) == 72 and cases[0].label == "1 red, 1 blue, standard"
    assert cases[-1].label == "6 red, 6 blue, misere" and cases[-1].args["depth"] is None
    assert len(search_cases(positions(3))) == 18


def test_positions_past_the_grid_come_from_play_in_the_leagues_game_drawn_by_the_seed():
    """Besides the grid, the positions a league game (8 red, 10 blue) reaches outside it, drawn from
    the check's seed; a game no larger than the grid adds none (the grid already holds them all)."""
    grid = [(s.red, s.blue, s.version) for s in positions()]
    league = RBNimGame(red=8, blue=10)
    drawn = {seed: [(s.red, s.blue, s.version) for s in asked(league, seed)] for seed in (1, 2)}
    for seed, states in drawn.items():
        assert states[:72] == grid and len(states) > 72, seed
        assert all((r > 6 or b > 6) and r <= 8 and b <= 10 for r, b, _ in states[72:]), states
    assert drawn[1] != drawn[2] and drawn[1] == [(s.red, s.blue, s.version) for s in asked(league, 1)]
    assert [(s.red, s.blue) for s in asked(RBNimGame(red=5, blue=6), 1)] == [(s.red, s.blue) for s in positions()]


def test_stages_as_declared():
    search, depth = probes(RBNimGame())
    assert (search.name, search.points, search.scoring, search.informational) == ("search", 10.0, "share", False)
    assert depth.name == "depth_limited" and depth.informational and depth.points == 0
    assert not probes(RBNimGame(), depth_points=20)[1].informational


@pytest.mark.parametrize("name", ["builtin:perfect", "builtin:random", "correct_module", "wrong_order", "off_by_one"])
def test_interface_is_clean(folders, open_module, name):
    assert open_module(folders[name]).rpc_interface() == []


@pytest.mark.parametrize("name", ["builtin:perfect", "correct_module"])
def test_correct_modules_pass_every_position(folders, open_module, name):
    assert run_cases(open_module(folders[name]), search_cases(positions())) == []


def test_wrong_order_fails_exactly_the_misere_positions_it_orders_wrongly(folders, open_module):
    failed = run_cases(open_module(folders["wrong_order"]), search_cases(positions()))
    assert len(failed) == 23 and all(label.endswith("misere") for label, _ in failed)
    label, message = failed[0]
    assert label == "1 red, 4 blue, misere"
    assert message == ("At (1 red, 4 blue, misere) the computer should take 1 blue (value −2), the first best "
                       "move in the prescribed order, but choose_move took 2 blue. Values of the moves in order: "
                       "take 1 blue −2, take 1 red −12, take 2 blue −2.")


def test_off_by_one_terminal_test_is_caught(folders, open_module):
    failed = dict(run_cases(open_module(folders["off_by_one"]), search_cases(positions())))
    assert len(failed) == 35
    assert "1 red, 1 blue, standard" not in failed
    assert failed["3 red, 5 blue, standard"].startswith("At (3 red, 5 blue, standard) the computer should take 2 blue "
                                                       "(value +6)")
    assert "take 2 red −15, take 2 blue +6, take 1 red −15, take 1 blue −6" in failed["3 red, 5 blue, standard"]


def test_depth_limited_stage_accepts_perfect_play_and_flags_blunders(folders, open_module):
    assert run_cases(open_module(folders["builtin:perfect"]), depth_limited_cases(positions(4))) == []
    failed = dict(run_cases(open_module(folders["off_by_one"]), depth_limited_cases(positions(6))))
    assert failed["3 red, 5 blue, standard, depth 4"] == (
        "At (3 red, 5 blue, standard) a depth-4 alpha-beta in the prescribed order takes take 2 blue whatever "
        "its evaluation function, but choose_move took take 2 red. Values of the moves in order with perfect "
        "play: take 2 red −15, take 2 blue +6, take 1 red −15, take 1 blue −6.")


DEPTH_LIMITED = """
    ORDER = [("red", 2), ("blue", 2), ("red", 1), ("blue", 1)]

    def evaluate(red, blue, version):
        return {EVAL}

    def moves(red, blue, version):
        order = ORDER if version == "standard" else ORDER[::-1]
        return [(p, n) for p, n in order if (red if p == "red" else blue) >= n]

    def value(red, blue, version, depth, alpha, beta):
        if red == 0 or blue == 0:
            points = 2 * red + 3 * blue
            return points if version == "misere" else -points
        if depth == 0:
            return evaluate(red, blue, version)
        best = -10**9
        for p, n in moves(red, blue, version):
            child = (red - n, blue) if p == "red" else (red, blue - n)
            best = max(best, -value(*child, version, depth - 1, -beta, -alpha))
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        return best

    def choose_move(red, blue, version, depth=None):
        best, choice, alpha = -10**9, None, -10**9
        for p, n in moves(red, blue, version):
            child = (red - n, blue) if p == "red" else (red, blue - n)
            v = -value(*child, version, (depth or 50) - 1, -10**9, -alpha)
            if v > best:
                best, choice, alpha = v, (p, n), v
        return choice
"""


@pytest.mark.parametrize("evaluation", ["0", "2 * red + 3 * blue", "-(2 * red + 3 * blue)", "red - blue",
                                        "(7 * red + 13 * blue) % 11 - 5", "100 * (blue - red)"])
def test_any_evaluation_function_passes_the_depth_limited_stage(tmp_path, open_module, evaluation):
    """The course leaves the evaluation function to the student: every one is right at depth 4."""
    handler = open_module(write_module(tmp_path, DEPTH_LIMITED.replace("{EVAL}", evaluation)))
    assert run_cases(handler, depth_limited_cases(positions())) == []


def test_the_reference_handles_piles_of_any_size():
    from rulesets.rbnim.search import game_value, search

    assert search(400, 300, "misere") == (2, ("red", 1))
    assert game_value(300, 300, "standard") == -6


def test_bad_returns_become_one_sentence(tmp_path, open_module):
    handler = open_module(write_module(tmp_path, """
        def choose_move(red, blue, version, depth=None):
            return {"standard": ("green", 1), "misere": None}[version]
    """))
    assert handler.rpc_choose(3, 3, "standard") == {
        "invalid": "choose_move returned ('green', 1), which is not a move: 'green' is not a pile; "
                   "the piles are \"red\" and \"blue\"."}
    assert "returned None" in handler.rpc_choose(3, 3, "misere")["invalid"]
    failed = run_cases(handler, search_cases(positions(1)))
    assert failed[0][1].startswith("At (1 red, 1 blue, standard) choose_move did not return a move")


def test_an_illegal_move_is_explained(tmp_path, open_module):
    handler = open_module(write_module(tmp_path, """
        def choose_move(red, blue, version, depth=None):
            return "red", 2
    """))
    failed = dict(run_cases(handler, search_cases(positions(2))))
    assert failed["1 red, 1 blue, standard"] == ("At (1 red, 1 blue, standard) choose_move returned take 2 red, "
                                                 "which is illegal: the red pile has only 1 marble.")


@pytest.mark.parametrize("body, problem", [
    ("def choose(red, blue, version): pass", "must define a function choose_move"),
    ("def choose_move(red, blue): pass", "must take (red, blue, version, depth=None)"),
])
def test_interface_problems(tmp_path, open_module, body, problem):
    assert problem in open_module(write_module(tmp_path, body)).rpc_interface()[0]


def test_perfect_beats_random_through_setup_and_move(folders, open_module):
    game = RBNimGame(red=8, blue=10)
    handlers = [open_module(folders["builtin:perfect"]), open_module(folders["builtin:random"])]
    for seat, h in enumerate(handlers):
        h.rpc_setup(seat=seat, state=game.new_state(0).to_json(), name="x", options={})
    state = game.new_state(0)
    while not state.is_over:
        state.play(state.parse_move(handlers[state.to_move].rpc_move(state=state.to_json(), last=[])))
    assert state.outcome.winner == 0
