"""Red-Blue Nim's command-line kind as data: default patterns on usual wordings, the scenarios."""
from __future__ import annotations

import re

import pytest

from grader.console_driver import read_number
from rulesets.rbnim import CONSOLE_PROGRAM
from rulesets.rbnim.console_program import PATTERNS, claims, pairs


@pytest.mark.parametrize("text, pile, count", [
    ("Computer takes 2 blue.", "blue", "2"),
    ("Computer removes 1 marble from the red pile", "red", "1"),
    ("The computer picked 2 red marbles.", "red", "2"),
    ("computer took 1 blue marble", "blue", "1"),
])
def test_computer_move_pattern(text, pile, count):
    m = re.search(PATTERNS["computer_move"], text)
    assert m and pairs(m.group(0), read_number) == [(pile, int(count))]


@pytest.mark.parametrize("text", ["Your move -- pile and count:", "Red: 3  Blue: 5", "Human takes 2 blue."])
def test_computer_move_pattern_ignores_other_lines(text):
    assert re.search(PATTERNS["computer_move"], text) is None


@pytest.mark.parametrize("text, winner, score", [
    ("Computer wins 6 points.", "Computer", "6"),
    ("You win! Final score: 9", "You", "9"),
    ("Human won with 12 points", "Human", "12"),
])
def test_result_pattern(text, winner, score):
    m = re.search(PATTERNS["result"], text)
    assert m and claims(m.group(0)) == {"computer" if winner == "Computer" else "human"} and score in m.group(0)


def test_scenarios_cover_defaults_versions_and_first_players():
    scenarios = CONSOLE_PROGRAM.scenarios()
    assert scenarios[0].argv == ["3", "5"] and scenarios[0].version == "standard" and scenarios[0].computer_first
    assert scenarios[1].argv == ["2", "2", "misere"] and scenarios[1].computer_first
    assert {(s.version, s.computer_first) for s in scenarios} == {(v, f) for v in ("standard", "misere")
                                                                  for f in (True, False)}
    assert {s.human for s in scenarios} == {"reference", "first"}
    assert CONSOLE_PROGRAM.entry == "red_blue_nim.py" and CONSOLE_PROGRAM.points == 10
    assert PATTERNS["human_answer"] == "auto"          # each prompt answered in the form it asks for
