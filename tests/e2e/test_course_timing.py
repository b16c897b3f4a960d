"""Every validation stage keeps to the course's timing: a fresh agent's first step gets the
first-move allowance, later steps the per-move limit, and a correct agent that uses its allowances
passes (limits scaled down from 30 s / 2 s through the config, in both start modes)."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

SLOW_FIRST_MOVE = Path(__file__).resolve().parent / "course_timing" / "slow_first_move"
# the course's 30 s / 2 s scaled down; kill_factor 10 as the course's (hard limit 10x the soft one)
LIMITS = {"first_move_s": 6, "move_s": 1}


def check(cli, config, path) -> dict:
    result = cli("--config", config, "check", path, "--assignment", "a", "--json")
    assert result.status in (0, 1), result.err
    return json.loads(result.out)


def stage(doc: dict, name: str) -> dict:
    return next(c for c in doc["checks"] if c["name"] == name)


@pytest.fixture(params=[True, False], ids=["prefork", "spawn"])
def timed_arena(request, arena):
    return lambda smoke_games=2: arena(limits=LIMITS, league={"prefork": request.param, "seed": 3},
                                       validation={"smoke_games": smoke_games,
                                                   "stages": {"legal_moves": {"required": True}}})


def test_an_agent_using_most_of_its_first_move_passes_every_stage(tmp_path, cli, timed_arena):
    agent = tmp_path / "slow_first_move"
    shutil.copytree(SLOW_FIRST_MOVE, agent)
    (agent / "timing.json").write_text(json.dumps({"first_move_s": 2.5, "move_s": 0.1}))  # of 6 s and 1 s
    doc = check(cli, timed_arena(), agent)
    assert stage(doc, "legal_moves")["passed"], stage(doc, "legal_moves")["message"]
    assert re.match(r"All \d+ positions answered correctly", stage(doc, "legal_moves")["message"])
    assert doc["passed"], doc["checks"]


# Slow first step, and what it learnt then (the board size, its corner) reused later: it answers
# legally in a real game, where the board never changes, but not about a board of another size.
REMEMBERS_THE_BOARD = """
import time
if not hasattr(self, "size"):
    time.sleep(1.5)
    self.size = chess_board.shape[0]
r, c = (int(x) for x in my_pos)
if chess_board.shape[0] != self.size:
    return (self.size + 5, 0), 0
return (r, c), int(next(d for d in range(4) if not chess_board[r, c, d]))
"""


def test_a_reused_agent_is_never_failed_for_remembering_an_earlier_position(tmp_path, cli, timed_arena, student):
    doc = check(cli, timed_arena(smoke_games=0), student(tmp_path / "remembers", REMEMBERS_THE_BOARD))
    assert stage(doc, "legal_moves")["passed"], stage(doc, "legal_moves")["message"]


def test_a_wrong_agent_still_fails_after_the_fresh_second_opinion(tmp_path, cli, timed_arena, student):
    body = "import time\nif not hasattr(self, 'seen'):\n    time.sleep(1.5)\n    self.seen = 1\nreturn (99, 99), 0"
    doc = check(cli, timed_arena(smoke_games=0), student(tmp_path / "wrong", body))
    legal = stage(doc, "legal_moves")
    assert not legal["passed"] and re.match(r"(\d+) of \1 positions answered wrongly", legal["message"])
    assert "illegal" in legal["message"] and "took" not in legal["message"]


# A long search that starts again whenever the board changes size (it never does in a course game):
# by its own CPU clock, 2.5 s of the 6 s first move, then a quick answer on the same board.
RESTARTS_ON_A_NEW_SIZE = """
import time
size = chess_board.shape[0]
if getattr(self, "size", None) != size:
    end = time.process_time() + 2.5
    while time.process_time() < end:
        pass
    self.size = size
r, c = (int(x) for x in my_pos)
return (r, c), int(next(d for d in range(4) if not chess_board[r, c, d]))
"""


def test_an_agent_that_restarts_its_search_when_the_board_size_changes_passes(tmp_path, cli, timed_arena, student):
    """Issue 30: one agent instance sees one game (one board size, one seat, positions in a game's
    order), so its long search always falls in its first move, as in the course."""
    doc = check(cli, timed_arena(smoke_games=0), student(tmp_path / "restarts", RESTARTS_ON_A_NEW_SIZE))
    assert stage(doc, "legal_moves")["passed"], stage(doc, "legal_moves")["message"]
