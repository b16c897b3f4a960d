"""The student API inside the sandbox: course modules, finding the agent, step's arguments and the
lenient conversion of what it returns (shim called directly, in this process)."""
from __future__ import annotations

import sys

import numpy as np
import pytest

from rulesets.colosseum import shim
from rulesets.colosseum.examples import world_1
from rulesets.colosseum.shim import step_arguments, to_wire

AGENT = """
    from agents.agent import Agent
    from store import register_agent

    @register_agent("student_agent")
    class StudentAgent(Agent):
        def step(self, chess_board, my_pos, adv_pos, max_step):
            return my_pos, 0
"""


# ---- course modules --------------------------------------------------------------------------
def test_course_modules_behave_like_the_course(write_submission, open_player):
    open_player(write_submission({"student_agent.py": AGENT}))
    import constants
    import store
    from agents.agent import Agent

    agent = Agent()
    assert agent.name == "DummyAgent" and agent.autoplay is False and str(agent) == "DummyAgent"
    with pytest.raises(NotImplementedError):
        agent.step(None, (0, 0), (1, 1), 1)
    assert (constants.DIRECTION_UP, constants.DIRECTION_RIGHT, constants.DIRECTION_DOWN,
            constants.DIRECTION_LEFT) == (0, 1, 2, 3)
    assert (constants.PLAYER_1_NAME, constants.PLAYER_2_NAME) == ("A", "B")
    assert list(store.AGENT_REGISTRY) == ["student_agent"]
    with pytest.raises(AssertionError, match="is already registered"):
        store.register_agent("student_agent")(type("Other", (Agent,), {}))


def test_each_submission_gets_a_fresh_registry(write_submission, open_player):
    first = open_player(write_submission({"student_agent.py": AGENT}))
    second = open_player(write_submission({"student_agent.py": AGENT}))
    assert first.agent_class is not second.agent_class
    assert first.rpc_interface() == [] and second.rpc_interface() == []


@pytest.mark.parametrize("helper_import", [
    "from agents.helper import ANSWER",
    "from .helper import ANSWER",
    "from helper import ANSWER",
])
def test_helper_modules_next_to_the_entry_are_importable(write_submission, open_player, helper_import):
    source = AGENT.replace("from store import register_agent",
                           f"from store import register_agent\n    {helper_import}")
    source = source.replace("return my_pos, 0", "return my_pos, ANSWER")
    handler = open_player(write_submission({"student_agent.py": source, "helper.py": "ANSWER = 2\n"}))
    handler.rpc_setup(0, world_1_json(), "me", {})
    assert handler.rpc_move(world_1_json(), []) == [[2, 3], 2]


def world_1_json():
    from rulesets.colosseum.engine import ColosseumGame
    return world_1(ColosseumGame()).to_json()


# ---- finding the agent and checking its interface --------------------------------------------
def test_the_class_registered_in_student_agent_py_is_played(write_submission, open_player):
    folder = write_submission({
        "student_agent.py": AGENT.replace('"student_agent"', '"my_agent"') + "\n    import helper\n",
        "helper.py": AGENT.replace('"student_agent"', '"helper_agent"').replace("StudentAgent", "Helper"),
    })
    handler = open_player(folder)
    assert handler.agent_class.__name__ == "StudentAgent"


def test_the_name_student_agent_wins_among_several(write_submission, open_player):
    source = AGENT.replace('"student_agent"', '"first"') + AGENT.split("\n", 3)[3].replace(
        "class StudentAgent", "class Second")
    handler = open_player(write_submission({"student_agent.py": source}))
    assert handler.agent_class.__name__ == "Second"


@pytest.mark.parametrize("files, problem", [
    ({"student_agent.py": "x = 1\n"}, "no agent is registered in student_agent.py: decorate"),
    ({"student_agent.py": "import helper\n",
      "helper.py": AGENT}, ("no agent is registered in student_agent.py: StudentAgent is registered as "
                        "'student_agent' from helper, but the grader plays the class that "
                        "student_agent.py registers with @register_agent.")),
    ({"student_agent.py": AGENT.replace("StudentAgent(Agent)", "StudentAgent")},
     "StudentAgent does not extend agents.agent.Agent."),
    ({"student_agent.py": AGENT.replace("def step(self, chess_board, my_pos, adv_pos, max_step):",
                                        "def step(self, chess_board, my_pos):")},
     "StudentAgent: step() must take 4 arguments besides self, but takes (chess_board, my_pos)."),
    ({"student_agent.py": AGENT + "\n        def __init__(self, depth):\n            super().__init__()\n"},
     "StudentAgent: the constructor must take no arguments besides self, but takes (depth)."),
    ({"student_agent.py": AGENT.split("        def step")[0] + "        pass\n"},
     "StudentAgent does not define step(); Agent.step only raises NotImplementedError."),
])
def test_interface_problems_are_sentences(write_submission, open_player, files, problem):
    handler = open_player(write_submission(files))
    problems = handler.rpc_interface()
    assert len(problems) == 1 and problems[0].startswith(problem), problems


def test_setup_without_an_agent_raises_the_sentence(write_submission, open_player):
    handler = open_player(write_submission({"student_agent.py": "x = 1\n"}))
    with pytest.raises(RuntimeError, match="no agent is registered"):
        handler.rpc_setup(0, world_1_json(), "me", {})


def test_a_missing_entry_file_is_named(write_submission, open_player):
    with pytest.raises(FileNotFoundError, match=r"the submission has no student_agent\.py"):
        open_player(write_submission({"agent.py": AGENT}))


# ---- what step receives ----------------------------------------------------------------------
def test_step_gets_what_the_course_world_passed(game):
    state = world_1(game, turn=1)
    board, my_pos, adv_pos, max_step = step_arguments(state.to_json())
    assert isinstance(board, np.ndarray) and board.dtype == np.bool_ and board.shape == (5, 5, 4)
    assert (board == state.chess_board()).all()                  # built from plain data, as the engine has it
    assert type(my_pos) is tuple and all(isinstance(v, np.integer) for v in my_pos)
    assert my_pos == (2, 1) and adv_pos == (2, 3)                 # B's view: B is "my" player
    assert type(max_step) is int and max_step == 3


def test_the_board_handed_to_step_is_a_copy(write_submission, open_player, game):
    vandal = AGENT.replace("return my_pos, 0", "chess_board[:] = True\n            return my_pos, 0")
    handler = open_player(write_submission({"student_agent.py": vandal}))
    state = world_1(game)
    before = state.to_json()
    handler.rpc_move(before, [])
    assert state.to_json() == before and not state.chess_board()[2, 2, 0]


@pytest.mark.parametrize("name", ["random", "baseline"])
@pytest.mark.parametrize("size", [5, 6, 7])
def test_the_course_test_agent_checks(players, open_player, name, size):
    """test/test_agent.py: first step of A on a fresh board; a tuple of length 2, an int dir."""
    from rulesets.colosseum.engine import ColosseumGame
    np.random.seed(42)
    state = ColosseumGame(board_size=size).new_state(42)
    handler = open_player(players[name])
    handler.rpc_setup(0, state.to_json(), name, {})
    assert state.turn == 0
    next_pos, direction = handler.agent.step(*step_arguments(state.to_json()))
    assert type(next_pos) is tuple and len(next_pos) == 2
    assert type(direction) is int and direction in (0, 1, 2, 3)
    assert all(0 <= v < size for v in next_pos)
    np.random.seed(42)
    reply = handler.rpc_move(state.to_json(), [])
    assert state.why_illegal(state.parse_move(reply)) is None


# ---- converting what step returns ------------------------------------------------------------
@pytest.mark.parametrize("result, wire", [
    (((1, 2), 3), [[1, 2], 3]),
    (([1, 2], 0), [[1, 2], 0]),
    ([(1, 2), 1], [[1, 2], 1]),
    ((np.array([1, 2]), np.int64(2)), [[1, 2], 2]),
    (((np.int32(4), np.int64(0)), np.uint8(3)), [[4, 0], 3]),
])
def test_lenient_conversion(result, wire):
    converted = to_wire(result)
    assert converted == wire
    assert all(type(v) is int for v in (*converted[0], converted[1]))


@pytest.mark.parametrize("result, why", [
    (None, "it is not a (position, dir) pair"),
    (((1, 2),), "it is not a (position, dir) pair"),
    ((1, 2, 3), "it is not a (position, dir) pair"),
    ("ab", "it is not a (position, dir) pair"),
    (((1.0, 2), 1), "the position must be two integers"),
    (((True, 2), 1), "the position must be two integers"),
    (((1, 2), "u"), "dir must be an integer 0..3"),
    (((1, 2), np.bool_(True)), "dir must be an integer 0..3"),
    (((1, 2), 4), "dir 4 is not 0..3"),
    (((1, 2), -1), "dir -1 is not 0..3"),
])
def test_invalid_results_become_sentences(result, why):
    converted = to_wire(result)
    assert set(converted) == ({"invalid", "returned"} if result is None else {"invalid"})   # a None: on_none
    sentence = converted["invalid"]
    assert sentence.startswith("step returned ") and "(expected ((row, col), dir))" in sentence
    assert sentence.endswith(why) or why in sentence
    assert "\n" not in sentence


def test_long_results_are_shortened():
    sentence = to_wire(list(range(1000)))["invalid"]
    assert len(sentence) < 200 and "..." in sentence


def test_modules_are_forgotten_between_submissions(write_submission, open_player):
    folder = write_submission({"student_agent.py": AGENT + "\n    import helper\n", "helper.py": ""})
    open_player(folder)
    assert "helper" in sys.modules and "agents.student_agent" in sys.modules
    shim.forget_course_and_submissions()
    assert "helper" not in sys.modules and "agents.student_agent" not in sys.modules
    assert str(folder) not in sys.path


def test_opening_a_submission_reads_no_course_file(write_submission, open_player, monkeypatch):
    """The sandbox may forbid reading the project after the shim is imported: the course modules
    are compiled at import time, so opening a submission only reads the submission's own files."""
    import builtins
    import io

    course = str(shim.COURSE_DIR)
    real_open, real_open_code = io.open, io.open_code

    def guarded(opener):
        def open_(path, *args, **kwargs):
            assert not str(path).startswith(course), f"read {path} after import"
            return opener(path, *args, **kwargs)
        return open_

    monkeypatch.setattr(builtins, "open", guarded(real_open))
    monkeypatch.setattr(io, "open", guarded(real_open))
    monkeypatch.setattr(io, "open_code", guarded(real_open_code))
    handler = open_player(write_submission({"student_agent.py": AGENT}))
    assert handler.rpc_interface() == []
