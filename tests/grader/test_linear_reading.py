"""A student's console output or protocol answer cannot make the grader's reading hang: the console
reader's patterns run on RE2 (time linear in the text), each read has a CPU budget, and the line
readers' patterns never backtrack. Outputs crafted against the patterns Python's `re` backtracks
on get a sentence. Nothing here measures time: on the old reader these tests never finish."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulesets
from grader.console_driver import Console, OutputUnreadable, check_console, check_patterns
from rulesets.rbnim import CONSOLE_PROGRAM
from sandbox import Limits

ROOT = Path(__file__).resolve().parents[2]
CORRECT = (ROOT / "submissions" / "rbnim" / "correct_program" / "red_blue_nim.py").read_text()
LIMITS = Limits(start_s=10.0, call_s=2.0, first_call_s=2.0, kill_after_s=1.0)
RBNIM = rulesets.load("rbnim")
MOVE_LINE = '            print(f"Computer takes {move[1]} {move[0]}.")'

# against the patterns that backtracked without end: a count, then a long run of blanks that never
# reaches a pile (nested quantifiers in the pile-and-count reader: exponential); blank lines, then a
# menu number whose label ends in blanks and a letter (menus: each line start scans them all). The
# other patterns (the computer's move, the result) were quadratic: with RE2 they are linear too.
CRAFTED = {
    "pairs": '"Computer takes 2" + " " * 60 + " ," * 30 + "!"',
    "menus": '"\\n" * 3000 + "1)" + " " * 2000 + "x"',
}


@pytest.mark.parametrize("name", CRAFTED)
def test_output_crafted_to_backtrack_is_read_to_a_sentence(tmp_path, name):
    (tmp_path / "red_blue_nim.py").write_text(CORRECT.replace(MOVE_LINE, f"            print({CRAFTED[name]})", 1))
    report = check_console(RBNIM, tmp_path, LIMITS)
    first = report.scenarios[0]
    assert not report.passed and first.needs_human
    assert first.sentence.startswith(("Could not read the computer's move at (3 red, 5 blue, standard)",
                                      "Could not read the piles with arguments '3 5'"))


def test_a_read_past_its_budget_ends_the_check_with_a_sentence():
    now = [0.0]                                      # the reading thread's CPU clock

    class Proc:
        def call(self, method, args, soft):
            from sandbox import CallResult, Verdict
            return CallResult(Verdict.OK, {"output": "Computer takes 2 blue.\n", "waiting": True, "exited": False,
                                           "exit_code": None, "error": None})

    console = Console(Proc(), check_patterns(CONSOLE_PROGRAM, None), LIMITS, CONSOLE_PROGRAM.templates, clock=lambda: now[0])
    now[0] = 10.0
    output = console._call("launch", {"argv": []}, "after starting")
    now[0] = 11.5
    assert console.find("computer_move", output)
    now[0] = 12.5
    with pytest.raises(OutputUnreadable, match=r"^After starting, the program's output could not be read in 2 s\.$"):
        console.find("result", output)


def test_an_answer_that_is_not_a_console_reply_is_one_sentence():
    class Proc:
        def call(self, method, args, soft):
            from sandbox import CallResult, Verdict
            return CallResult(Verdict.OK, ["not", "a", "reply"])

    console = Console(Proc(), check_patterns(CONSOLE_PROGRAM, None), LIMITS, CONSOLE_PROGRAM.templates)
    with pytest.raises(Exception, match="is not a console reply"):
        console._call("launch", {"argv": []}, "after starting")


def test_a_config_pattern_that_cannot_read_in_linear_time_is_refused():
    with pytest.raises(ValueError, match=r"program pattern 'result' is not a regular expression that reads in "
                                         r"linear time \(no look-arounds or back-references\)"):
        check_patterns(CONSOLE_PROGRAM, {"result": r"(?<=Game over: )(?P<winner>\w+)"})


def test_the_line_readers_never_backtrack():
    # the reply shapes cap a line answer at 200 characters today; the readers hold without that cap
    from rulesets.base import IllegalMove
    from rulesets.bohnenspiel.moves import parse_wire as bohnenspiel_move
    from rulesets.doublecard.board import parse_text as doublecard_move
    from rulesets.rbnim.moves import parse_wire as rbnim_move

    for read, answer in ((bohnenspiel_move, "pit" + " " * 5000 + "x"), (bohnenspiel_move, "pit 1" + " 1" * 5000),
                         (rbnim_move, "red" + " " * 20000 + "x"), (doublecard_move, "0 5 " + "A" * 20000)):
        with pytest.raises(IllegalMove):
            read(answer)
