"""A check's smoke games cover the ruleset's largest board (issue 40): two real agents whose moves
ran over 2 s only on Colosseum's 11x11 boards passed smoke games that happened to draw small ones.

The agent below is the bundled greedy one, late by 3x the limit on its second move of a game on an
11x11 board and nowhere else. Seed 4's smoke games draw a 10x10 board from the range [6, 11], so
only a check that plays the largest board on purpose finds it.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.assignment import resolve
from grader.config import AssignmentConfig
from grader.submissions import Submission, load
from grader.validation import validate
from rulesets.colosseum import ColosseumGame
from rulesets.quoridor import RULESET as QUORIDOR

ROOT = Path(__file__).resolve().parents[2]
GREEDY = ROOT / "submissions" / "colosseum" / "baseline_student"

SLOW_ON_THE_LARGEST_BOARD = '''

import time as _time

_fast_step = StudentAgent.step


def _step(self, chess_board, my_pos, adv_pos, max_step):
    self.calls = getattr(self, "calls", 0) + 1
    if len(chess_board) == 11 and self.calls == 2:
        _time.sleep(6)                  # 3x the 2 s limit, on the course's largest board only
    return _fast_step(self, chess_board, my_pos, adv_pos, max_step)


StudentAgent.step = _step
'''


def slow_on_11(tmp_path: Path) -> Submission:
    folder = tmp_path / "slow_on_11"
    shutil.copytree(GREEDY, folder)
    entry = folder / "student_agent.py"
    entry.write_text(entry.read_text(encoding="utf-8") + SLOW_ON_THE_LARGEST_BOARD, encoding="utf-8")
    return load(folder, "student_agent.py", 10.0)


def colosseum(board_size: list[int], prefork: bool = True):
    cfg = AssignmentConfig(ruleset="colosseum", submissions="x", game={"board_size": board_size},
                           validation={"smoke_games": 2, "stages": {"legal_moves": {"required": False}}},
                           league={"prefork": prefork})
    return resolve("t", cfg, Path("."))


def smoke(report) -> dict:
    return next(c for c in report.to_json()["checks"] if c["name"] == "smoke")


def test_the_largest_game_is_the_ruleset_s_to_declare():
    assert ColosseumGame(board_size=[6, 11]).largest().params == {"board_size": [11, 11]}
    assert ColosseumGame(board_size=8).largest().params == {"board_size": [8, 8]}
    quoridor = QUORIDOR.game(sizex=5, sizey=5)
    assert quoridor.largest() is quoridor                # nothing drawn: the game itself


@pytest.mark.parametrize("prefork", [False, True], ids=["spawn", "prefork"])
def test_an_agent_slow_only_on_the_largest_board_fails_the_smoke_games(tmp_path, prefork):
    report = validate(colosseum([6, 11], prefork), slow_on_11(tmp_path), seed=4)
    check = smoke(report)
    assert not check["passed"], check["message"]
    assert "after" in check["message"] and "the limit is 2 s" in check["message"], check["message"]


def test_the_same_agent_passes_where_the_largest_board_is_smaller(tmp_path):
    report = validate(colosseum([6, 10]), slow_on_11(tmp_path), seed=4)
    assert smoke(report)["passed"], smoke(report)["message"]
