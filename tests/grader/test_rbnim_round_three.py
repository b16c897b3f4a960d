"""Red-Blue Nim programs as a TA reads them, round three (issue 40): piles named by a letter in the
computer's move ("Computer chooses: B 2"), an echo of the human's move that is not the piles
("** Human has removed 0 red and 2 blue marbles."), the count asked before the colour on every turn,
and a program that stops with a usage message or prints nothing, which is a failure with its reason,
never "needs a human". Each is the bundled correct program with its console wording changed
(tests/grader/test_console_reading.py `program`); written here, never copied."""
from __future__ import annotations

import pytest

from grader.console_driver import check_console
from tests.grader.test_console_reading import CORRECT, LIMITS, RBNIM, program

LETTERS = '''
def ask_human(red, blue):
    while True:
        pile = {"R": "red", "B": "blue"}.get(input("Pick a pile (R/B): ").strip().upper())
        count = input("How many? ").strip()
        if pile and count in ("1", "2") and (red if pile == "red" else blue) >= int(count):
            return pile, int(count)
        print("Invalid move, try again.")
'''
ECHO = '''
def ask_human(red, blue):
    while True:
        words = input("Your move (color count): ").lower().split()
        if len(words) == 2 and words[0] in ("red", "blue") and words[1] in ("1", "2"):
            pile, n = words[0], int(words[1])
            if (red if pile == "red" else blue) >= n:
                print(f"** Human has removed {n if pile == 'red' else 0} red and {n if pile == 'blue' else 0} "
                      f"blue marbles.")
                return pile, n
        print("Invalid move, try again.")
'''
COUNT_FIRST_EVERY_TURN = '''
def ask_human(red, blue):
    while True:
        n = input(f"Red={red} Blue={blue}. How many marbles will you take (1 or 2)? ").strip()
        pile = input("From which pile, red or blue? ").strip().lower()
        if n in ("1", "2") and pile in ("red", "blue") and (red if pile == "red" else blue) >= int(n):
            return pile, int(n)
        print("Invalid move, try again.")
'''
FAMILIES = {
    "piles by letter: 'Computer chooses: B 2'":
        (LETTERS, '            print(f"Computer chooses: {move[0][0].upper()} {move[1]}")'),
    "an echo of the human's move: '** Human has removed 0 red and 2 blue marbles.'":
        (ECHO, ('            print(f"** Computer has removed {move[1] if move[0] == \'red\' else 0} red and '
                '{move[1] if move[0] == \'blue\' else 0} blue marbles.")')),
    "the count asked before the colour, the piles in the question":
        (COUNT_FIRST_EVERY_TURN, '            print(f"Computer chooses: {move[0]} {move[1]}")'),
}


@pytest.mark.parametrize("family", FAMILIES)
def test_round_three_programs_are_read_and_graded_in_full(tmp_path, family):
    ask, says_move = FAMILIES[family]
    folder = program(tmp_path / "student", ask, says_move, '    print(f"{winner.capitalize()} wins {score} points.")')
    report = check_console(RBNIM, folder, LIMITS)
    assert report.passed and report.points == 10, "\n".join(report.lines) + "\n" + report.scenarios[0].transcript


def test_a_usage_error_for_the_defaults_fails_with_its_reason(tmp_path):
    strict = CORRECT.replace("    if len(argv) < 2:\n", "    if len(argv) < 4:\n")      # version and first required
    (tmp_path / "red_blue_nim.py").write_text(strict)
    report = check_console(RBNIM, tmp_path, LIMITS)
    assert not report.needs_human and not report.passed, report.lines
    defaults = report.scenarios[0]
    assert not defaults.passed and not defaults.needs_human, defaults.sentence
    assert "usage" in defaults.sentence and "'3 5'" in defaults.sentence, defaults.sentence
    assert sum(s.passed for s in report.scenarios) == 6, report.lines           # the 6 with every argument


def test_a_program_that_prints_nothing_fails_with_its_reason(tmp_path):
    (tmp_path / "red_blue_nim.py").write_text(CORRECT.replace('if __name__ == "__main__":', 'if __name__ == "main":'))
    report = check_console(RBNIM, tmp_path, LIMITS)
    assert not report.needs_human and not report.passed and report.points == 0, report.lines
    assert all("printed nothing" in s.sentence for s in report.scenarios), report.lines
