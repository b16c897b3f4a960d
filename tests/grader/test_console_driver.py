"""The console driver and the console shim through the real sandbox, on Red-Blue Nim programs.

Broken programs are the correct example program with one thing changed, so each test shows
exactly which behaviour the driver catches.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import rulesets
from grader.console_driver import check_console, check_patterns
from rulesets.rbnim import CONSOLE_PROGRAM
from sandbox import Limits, PlayerProcess

EXAMPLES = Path(__file__).resolve().parents[2] / "submissions" / "rbnim"
CORRECT = (EXAMPLES / "correct_program" / "red_blue_nim.py").read_text()
LIMITS = Limits(start_s=10.0, call_s=1.0, first_call_s=1.0, kill_after_s=0.5)
RBNIM = rulesets.load("rbnim")


def variant(tmp_path: Path, *replacements: tuple[str, str], text: str = CORRECT) -> Path:
    """A copy of the correct program with each (old, new) replaced once (old must be there)."""
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new, 1)
    (tmp_path / "red_blue_nim.py").write_text(text)
    return tmp_path


def test_the_correct_program_passes_every_scenario():
    report = check_console(RBNIM, EXAMPLES / "correct_program", LIMITS)
    assert (report.passed, report.points, report.max_points, report.lines) == (True, 10.0, 10.0, [])
    assert len(report.scenarios) == 8
    defaults = report.scenarios[0].transcript
    assert defaults.startswith("$ red_blue_nim.py 3 5\n") and "Computer takes 2 blue." in defaults
    assert ">>> " in defaults and "Computer wins 6 points." in defaults


def test_a_program_hanging_on_input_is_reported_and_stops_the_check():
    report = check_console(RBNIM, EXAMPLES / "hangs_on_input", LIMITS)
    assert all(s.sentence.startswith("not tried") for s in report.scenarios[1:])     # stopped at the first
    assert not report.passed and report.points == 0
    assert report.lines == [
        ("defaults (3 5: standard, computer first): After the human typed 'blue 2' the program printed nothing and "
        "waited for more input: it hangs waiting for input (does it read to the end of input instead of one line?)."),
        "7 more scenario(s) were not tried because the program hung."]


def test_a_program_that_never_asks_nor_ends_is_stopped_by_the_time_limit(tmp_path):
    folder = variant(tmp_path, ("            move = ask_human(red, blue)", "            while True: pass"))
    report = check_console(RBNIM, folder, LIMITS)
    assert all(s.sentence.startswith("not tried") for s in report.scenarios[1:])     # stopped at the first
    assert report.lines[0] == ("defaults (3 5: standard, computer first): After starting, the "
                               "program neither asked for input nor ended within 1 s: it hangs.")
    assert report.lines[-1] == "7 more scenario(s) were not tried because the program hung."


def test_gibberish_is_quoted_with_the_pattern_that_did_not_match(tmp_path):
    folder = variant(tmp_path, ('print(f"Computer takes {move[1]} {move[0]}.")', 'print("Zorglub " * 100)'))
    report = check_console(RBNIM, folder, LIMITS)
    assert report.points == 0 and len(report.lines) == 8
    line = report.lines[0]
    assert line.startswith("defaults (3 5: standard, computer first): Could not read the computer's move at "
                           "(3 red, 5 blue, standard)")
    assert report.needs_human and all(s.needs_human for s in report.scenarios)
    assert ": the output did not match the pattern computer_move /(?i)\\b(?:computer|cpu|ai)\\b" in line
    assert "the program printed 'Red-Blue Nim, standard version" in line and "Zorglub Zorglub" in line
    assert " […] " in line and len(line) < 800                    # the output is trimmed


def test_an_off_by_one_score_is_caught(tmp_path):
    # scores the piles before the last move instead of the piles the loser faces
    folder = variant(tmp_path, ("        red, blue = play(red, blue, move)", ("        last = (red, blue)\n"
                                "        red, blue = play(red, blue, move)")),
                     ("    score = 2 * red + 3 * blue\n    other", "    score = 2 * last[0] + 3 * last[1]\n    other"))
    report = check_console(RBNIM, folder, LIMITS)
    assert report.points == 0
    assert report.lines[0] == ("defaults (3 5: standard, computer first): The game ended at (3 red, 0 blue, standard) "
                               "with the human facing an empty pile, so the computer wins 6 points, but the program "
                               "announced 'Computer wins 9 points.'.")


def test_wrong_defaults_and_a_wrong_move_are_caught(tmp_path):
    folder = variant(tmp_path, ('first = argv[3].lower() if len(argv) > 3 else "computer"',
                                'first = argv[3].lower() if len(argv) > 3 else "human"'),
                     ('order = ORDER if version == "standard" else ORDER[::-1]', 'order = ORDER'))
    report = check_console(RBNIM, folder, LIMITS)
    lines = dict(line.split(": ", 1) for line in report.lines)
    assert lines["defaults (3 5"].startswith("standard, computer first): With arguments '3 5' the computer moves "
                                             "first (the default), but the program asked the human for a move")
    assert "Your move" in lines["defaults (3 5"] and not report.needs_human
    assert lines["3 5 misere computer"].startswith("At (3 red, 5 blue, misere) the computer took 2 blue "
                                                   "('Computer takes 2 blue.'), but MinMax with alpha-beta in the "
                                                   "prescribed order takes take 1 red (value +2)")
    assert "5 3 standard computer" not in lines and 0 < report.points < 10


def test_patterns_from_config_fit_other_wording(tmp_path):
    folder = variant(tmp_path, ('print(f"Computer takes {move[1]} {move[0]}.")',
                                'print(f"Machine: {move[0].upper()} x{move[1]}")'),
                     ('words = input(\'Your move -- pile and count (e.g. "red 1"): \').lower().split()',
                      'words = [input("Pile? ").lower(), input("How many? ")]'))
    assert not check_console(RBNIM, folder, LIMITS).passed
    patterns = {"computer_move": r"Machine: (?P<pile>RED|BLUE) x(?P<count>[12])", "human_answer": "{pile}\n{count}"}
    report = check_console(RBNIM, folder, LIMITS, patterns)
    assert report.passed, report.lines


@pytest.mark.parametrize("patterns, sentence", [
    ({"winner": "x"}, "there is no program pattern 'winner'"),
    ({"result": "(unclosed"}, "program pattern 'result' is not a regular expression"),
    ({"result": 3}, "program pattern 'result' must be text"),
])
def test_bad_patterns_are_one_sentence(patterns, sentence):
    with pytest.raises(ValueError, match=sentence.replace("(", r"\(")):
        check_patterns(CONSOLE_PROGRAM, patterns)



def test_a_missing_script_is_one_sentence(tmp_path):
    report = check_console(RBNIM, tmp_path, LIMITS)
    assert report.lines == ["The submission has no red_blue_nim.py."] and report.points == 0


def console(folder: Path, code: str, **options):
    (folder / "main.py").write_text(code)
    proc = PlayerProcess("sandbox.console_shim", folder, LIMITS, options={"entry": "main.py", **options})
    assert proc.start().ok
    return proc


def test_console_shim_exit_codes_errors_and_trimmed_output(tmp_path):
    with console(tmp_path, "import sys\nprint(sys.argv[1:])\nname = input('name? ')\nprint('hi', name)\n"
                           "sys.exit(3)\n") as proc:
        first = proc.call("launch", {"argv": ["a", 2]}).value
        assert first == {"output": "['a', '2']\nname? ", "waiting": True, "exited": False, "exit_code": None,
                         "error": None}
        assert proc.call("send", {"line": "Ada"}).value == {"output": "hi Ada\n", "waiting": False, "exited": True,
                                                            "exit_code": 3, "error": None}
    (tmp_path / "b").mkdir()
    with console(tmp_path / "b", "print('x' * 5000)\nfor line in __import__('sys').stdin:\n    print(len(line))\n"
                                 "raise KeyError('boom')\n", output_chars=1000) as proc:
        out = proc.call("launch", {"argv": []}).value
        assert out["output"].startswith("[4001 earlier characters of output trimmed]\n") and out["waiting"]
        assert proc.call("send", {"line": "abc"}).value["output"] == "4\n"
        end = proc.call("end_input", {}).value
        assert end["exited"] and end["exit_code"] == 1 and end["error"] == "KeyError: 'boom'"
        assert "Traceback" in end["output"]
