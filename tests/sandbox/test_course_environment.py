"""The course's whole environment inside the sandbox (issue 22.1): what real submissions import.

Colosseum agents import the course's sample agents, `world`, `ui`, `utils`, `simulator` and the
course's requirements (NumPy, Matplotlib, tqdm, click); each must import and work in the player's
process, where nothing is writable, in both start modes.
"""
from __future__ import annotations

import textwrap

import pytest

import rulesets
from sandbox import Limits, PlayerProcess, Verdict

LIMITS = Limits(start_s=60.0, call_s=60.0, first_call_s=60.0, kill_after_s=5.0)
COLOSSEUM = rulesets.load("colosseum")

AGENT = """
    import numpy as np
    import click
    import matplotlib
    import matplotlib.pyplot as plt
    from tqdm import tqdm

    import agents
    from agents.agent import Agent
    from agents.random_agent import RandomAgent
    from agents.human_agent import HumanAgent
    from constants import MAX_BOARD_SIZE
    from store import AGENT_REGISTRY, register_agent
    from ui import UIEngine
    from utils import all_logging_disabled
    from world import World
    import simulator


    @register_agent("student_agent")
    class StudentAgent(Agent):
        def __init__(self):
            super().__init__()
            self.name = "StudentAgent"
            self.autoplay = True

        def step(self, chess_board, my_pos, adv_pos, max_step):
            # what real agents do: roll games out in the course's World with the random agent
            with all_logging_disabled():
                world = World("random_agent", "random_agent", board_size=chess_board.shape[0])
                while world.initial_end:          # as the course's simulator: a random board may
                    world = World("random_agent", "random_agent",   # start decided, and the random
                                  board_size=chess_board.shape[0])  # agent loops on a walled-in cell
                for _ in tqdm(range(3), disable=False):
                    if world.step()[0]:
                        break
                world.check_valid_step(np.array(my_pos), np.array(my_pos), 0)
            fig = plt.figure()
            ui = UIEngine(chess_board.shape[0], world)
            ui.plot_grid_with_board(chess_board, my_pos, adv_pos, debug=True)
            ui.fix_axis()
            ui.plot_text_info()
            fig.canvas.draw()                     # renders the text: fonts are found and read
            plt.close("all")
            assert matplotlib.get_backend().lower() == "agg"
            assert agents.RandomAgent is RandomAgent and "human_agent" in AGENT_REGISTRY
            assert simulator.Simulator and HumanAgent and click.echo and MAX_BOARD_SIZE
            return RandomAgent().step(chess_board, my_pos, adv_pos, max_step)
"""


def test_an_agent_using_the_course_environment_loads_and_plays(tmp_path, start_mode, request):
    pool = request.getfixturevalue("prefork_pool") if start_mode == "prefork" else None
    (tmp_path / "student_agent.py").write_text(textwrap.dedent(AGENT))
    state = COLOSSEUM.game(board_size=7).new_state(5)
    with PlayerProcess(COLOSSEUM.shim, str(tmp_path), LIMITS, name="env", prefork=pool) as p:
        started = p.start()
        assert started.ok and p.started_by == start_mode, (started, p.close().output)
        interface = p.call("interface", {})
        assert interface.verdict is Verdict.OK and interface.value == [], (interface, p.close().output)
        assert p.call("setup", {"seat": 0, "state": state.to_json(), "name": "env", "options": {}}).ok
        move = p.call("move", {"state": state.to_json(), "last": []})
        assert move.verdict is Verdict.OK, (move, p.close().output)
    assert state.why_illegal(state.parse_move(move.value)) is None


@pytest.mark.parametrize("module", ["world", "ui", "simulator", "utils", "agents.random_agent"])
def test_a_students_own_file_of_a_course_name_wins(tmp_path, start_mode, request, module):
    """A helper the student wrote and named like a lazily loaded course module is the one imported,
    while the course's other modules still import."""
    pool = request.getfixturevalue("prefork_pool") if start_mode == "prefork" else None
    other = "utils" if module == "agents.random_agent" else "agents.random_agent"
    own = tmp_path / (module.split(".")[-1] + ".py")
    own.write_text("MINE = True\n")
    (tmp_path / "student_agent.py").write_text(textwrap.dedent(f"""
        from agents.agent import Agent
        from store import register_agent
        import {module} as helper
        import {other}

        @register_agent("student_agent")
        class StudentAgent(Agent):
            def step(self, chess_board, my_pos, adv_pos, max_step):
                return (my_pos, 0) if getattr(helper, "MINE", False) else None
    """))
    state = COLOSSEUM.game(board_size=7).new_state(5)
    with PlayerProcess(COLOSSEUM.shim, str(tmp_path), LIMITS, name="own", prefork=pool) as p:
        assert p.start().ok
        move = p.call("move", {"state": state.to_json(), "last": []})
    assert move.verdict is Verdict.OK and not (isinstance(move.value, dict) and "invalid" in move.value), move


OTHER_COURSES = {
    # BRUTE: the course's example manager.py, imported as students did to test at home
    "quoridor": ("player.py", """
        from obstacle import *
        from manager import *

        class Player:
            def __init__(self, name):
                self.name = name
            def initialization(self, sizex, sizey, myx, myy, opponentx, opponenty, max_obstacles, obstacles):
                self.me, self.up = (myx, myy), myy == 0
            def opponent_move(self, move_type, result):
                pass
            def make_move(self):
                trial = Manager(Player("a"), Player("b"), 5, 5)
                trial.init()
                assert trial.check_result(1, 2, trial.obstacles[:2]) and not trial.is_winner()
                assert all(type(o) is Obstacle for o in trial.obstacles)
                x, y = self.me
                return 1, [x, y + 1 if self.up else y - 1]
            def expand_player(self):
                return []
            def expand_obstacles(self):
                return []
    """),
    # COMP 424 (2017): the Java package's sample players, for roll-outs
    "bohnenspiel": ("student_player.py", """
        from bohnenspiel import (BohnenspielPlayer, GreedyBohnenspielPlayer, RandomBohnenspielPlayer,
                                 DEFAULT_TIMEOUT, FIRST_MOVE_TIMEOUT)

        class StudentPlayer(BohnenspielPlayer):
            def __init__(self):
                super().__init__("260000000")
            def choose_move(self, board_state):
                assert (DEFAULT_TIMEOUT, FIRST_MOVE_TIMEOUT) == (700, 30000)
                rollout = board_state.clone()
                sides = [RandomBohnenspielPlayer(), GreedyBohnenspielPlayer()]
                for seat, side in enumerate(sides):
                    side.set_color(seat)
                while not rollout.game_over():
                    rollout.move(sides[rollout.get_turn_player()].choose_move(rollout))
                greedy = GreedyBohnenspielPlayer()
                greedy.set_color(self.player_id)
                return greedy.choose_move(board_state)
    """),
}


@pytest.mark.parametrize("game", sorted(OTHER_COURSES))
def test_the_other_courses_modules_import_and_work(tmp_path, start_mode, request, game):
    pool = request.getfixturevalue("prefork_pool") if start_mode == "prefork" else None
    ruleset = rulesets.load(game)
    entry, body = OTHER_COURSES[game]
    (tmp_path / entry).write_text(textwrap.dedent(body))
    state = ruleset.game().new_state(2)
    with PlayerProcess(ruleset.shim, str(tmp_path), LIMITS, name=game, prefork=pool) as p:
        assert p.start().ok and p.started_by == start_mode
        assert p.call("interface", {}).value == []
        assert p.call("setup", {"seat": 0, "state": state.to_json(), "name": game, "options": {}}).ok
        move = p.call("move", {"state": state.to_json(), "last": []})
        assert move.verdict is Verdict.OK, (move, p.close().output)
    state.play(state.parse_move(move.value))


NUMPY_1_AGENT = """
    import numpy as np
    from agents.agent import Agent
    from agents.random_agent import RandomAgent
    from store import register_agent

    RAW = np.zeros(3).tostring()                  # gone in NumPy 2: the course pinned NumPy 1.22


    @register_agent("student_agent")
    class StudentAgent(Agent):
        def __init__(self):
            super().__init__()
            self.name = "StudentAgent"

        def step(self, chess_board, my_pos, adv_pos, max_step):
            assert np.asarray(chess_board).tostring() and RAW == bytes(24), np.__version__
            return RandomAgent().step(chess_board, my_pos, adv_pos, max_step)
"""


def test_the_courses_numpy_1_is_offered_to_colosseum_agents(tmp_path, start_mode, request):
    """Issue 30: the course's requirements (NumPy 1.x), built once into an environment of their own
    and put ahead of site-packages for this assignment's players, in the template too."""
    from grader.course_env import course_env

    env = course_env(COLOSSEUM.requirements)
    if env.path is None:
        pytest.skip(f"the course environment could not be built here: {env.problem}")
    assert env.versions["numpy"].startswith("1.") and "numpy 1." in env.header()
    pool = request.getfixturevalue("prefork_pool") if start_mode == "prefork" else None
    (tmp_path / "student_agent.py").write_text(textwrap.dedent(NUMPY_1_AGENT))
    state = COLOSSEUM.game(board_size=7).new_state(5)
    limits = Limits(start_s=60.0, call_s=60.0, first_call_s=60.0, kill_after_s=5.0, python_path=(str(env.path),))
    with PlayerProcess(COLOSSEUM.shim, str(tmp_path), limits, name="np1", prefork=pool) as p:
        started = p.start()
        assert started.ok and p.started_by == start_mode, (started, p.close().output)
        move = p.call("move", {"state": state.to_json(), "last": []})
        assert move.verdict is Verdict.OK, (move, p.close().output)
    assert state.why_illegal(state.parse_move(move.value)) is None
