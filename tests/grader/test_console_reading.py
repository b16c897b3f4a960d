"""Console programs are read as a person reads them: one example program per family of phrasings
collected from real CSE 4308 programs (prompts that ask the colour and the count apart or together,
in either order, numbered menus, letters; the computer's move in words, tuples, "removes ... from
the ... pile"; results such as "Computer loses. Human wins. Final score: 2"). Each is the bundled
correct program with its console wording changed, so only the reading is under test. Output the
driver still cannot follow is "needs a human", with the transcript and no points recorded."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import rulesets
from grader.console_driver import check_console, read_number
from rulesets.rbnim.console_program import claims, pairs
from sandbox import Limits

ROOT = Path(__file__).resolve().parents[2]
CORRECT = (ROOT / "submissions" / "rbnim" / "correct_program" / "red_blue_nim.py").read_text()
LIMITS = Limits(start_s=10.0, call_s=2.0, first_call_s=2.0, kill_after_s=1.0)
RBNIM = rulesets.load("rbnim")


def program(folder: Path, ask: str, says_move: str, says_result: str) -> Path:
    """The correct program with its own ask_human(red, blue) -> (pile, n), the line printing the
    computer's `move`, and the lines printing the result (from `winner`, `player`, `other`, `score`)."""
    text = re.sub(r"def ask_human\(red, blue\):.*?\n\n\n", ask.strip("\n") + "\n\n\n", CORRECT, count=1, flags=re.S)
    for old, new in (('            print(f"Computer takes {move[1]} {move[0]}.")', says_move),
                     ('    print(f"{winner.capitalize()} wins {score} points.")', says_result)):
        assert old in text
        text = text.replace(old, new, 1)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "red_blue_nim.py").write_text(text)
    return folder


COLOUR_THEN_COUNT = '''
def ask_human(red, blue):
    while True:
        pile = input("Enter pile red or blue:- ").strip().lower()
        if pile not in ("red", "blue"):
            print("Invalid pile. Try again.")
            continue
        n = int(input("Enter the number of marbles to remove (1 or 2): "))
        if n in (1, 2) and (red if pile == "red" else blue) >= n:
            return pile, n
        print("Invalid input. Try again.")
'''
COUNT_THEN_COLOUR = '''
def ask_human(red, blue):
    while True:
        n = input("Enter number of marbles to remove (1 or 2): ").strip()
        pile = input("Enter color (red or blue): ").strip().lower()
        if n in ("1", "2") and pile in ("red", "blue") and (red if pile == "red" else blue) >= int(n):
            return pile, int(n)
        print("Invalid input. Please enter 1 or 2 for marbles and 'red' or 'blue' for color.")
'''
MENU = '''
def ask_human(red, blue):
    options = {"1": ("red", 1), "2": ("red", 2), "3": ("blue", 1), "4": ("blue", 2)}
    while True:
        print(f"{red} red left. {blue} blue left.")
        for option in ("1) Take 1 red marble", "2) Take 2 red marbles", "3) Take 1 blue marble",
                       "4) Take 2 blue marbles"):
            print(option)
        move = options.get(input().strip())
        if move and (red if move[0] == "red" else blue) >= move[1]:
            return move
        print("Input must be 1, 2, 3 or 4")
'''
BOTH_COUNT_FIRST = '''
def ask_human(red, blue):
    while True:
        words = input("Your move (count color): ").lower().split()
        if len(words) == 2 and words[0] in ("1", "2") and words[1] in ("red", "blue"):
            if (red if words[1] == "red" else blue) >= int(words[0]):
                return words[1], int(words[0])
        print("Please enter a valid move in the format 'count color' (e.g. '2 red').")
'''
LETTERS = '''
def ask_human(red, blue):
    while True:
        choice = input("Choose a pile (r/b): ").strip().lower()
        count = int(input("How many marbles to remove? (1 or 2): "))
        pile = {"r": "red", "b": "blue"}.get(choice)
        if pile and count in (1, 2) and (red if pile == "red" else blue) >= count:
            return pile, count
        print("Invalid move, try again.")
'''
PER_COLOUR = '''
def ask_human(red, blue):
    while True:
        r = int(input(f"Enter the number of red marbles to remove (0 to {min(red, 2)}): "))
        b = int(input(f"Enter the number of blue marbles to remove (0 to {min(blue, 2)}): "))
        if (r == 0) != (b == 0) and r <= min(red, 2) and b <= min(blue, 2):
            return ("red", r) if r else ("blue", b)
        print("Invalid move. Take 1 or 2 marbles from one pile.")
'''
FREE_TEXT = '''
def ask_human(red, blue):
    while True:
        words = input("> ").lower().split()
        if len(words) == 2 and words[0] in ("1", "2") and words[1] in ("red", "blue"):
            if (red if words[1] == "red" else blue) >= int(words[0]):
                return words[1], int(words[0])
        print("Invalid input, try again.")
'''
WORDS = "{0: 'zero', 1: 'one', 2: 'two'}"

FAMILIES = {
    "colour, then count; 'removes 2 marble(s) from the red pile'; 'Our Winner is computer with a score of 6'":
        (COLOUR_THEN_COUNT, '            print(f"Computer removes {move[1]} marble(s) from the {move[0]} pile.")',
         '    print(f"Our Winner is {winner} with a score of {score}")'),
    "count, then colour; 'The computer takes two blue marbles.'; 'Computer loses. Human wins. Final score: 2'":
        (COUNT_THEN_COLOUR, f'            print(f">The Computer takes {{ {WORDS}[move[1]] }} {{move[0]}} marbles.")',
         ('    print(f"Computer loses. Human wins. Final score: {score}" if winner == "human" else '
         'f"Computer wins. Human loses. Final score: {score}")')),
    "numbered menu; \"Computer played: ('blue', 2)\"; 'You win!' then '+6 points.'":
        (MENU, '            print(f"Computer played: {move}")',
         '    print("You win!" if winner == "human" else "Computer wins!")\n    print(f"+{score} points.")'),
    "both at once, count first; 'CPU chooses 1 red'; 'Game over. human loses with a score of -6.'":
        (BOTH_COUNT_FIRST, '            print(f"CPU chooses {move[1]} {move[0]}")',
         '    print(f"Game over. {other if winner == player else player} loses with a score of {-score}.")'),
    "letters r/b and a count; 'Computer took a red marble'; 'human wins!' then 'Score: 6'":
        (LETTERS, ('            print(f"Computer took {\'a\' if move[1] == 1 else \'two\'} {move[0]} marble'
                  '{\'s\' if move[1] == 2 else \'\'}")'),
         '    print(f"{winner} wins!")\n    print(f"Score: {score}")'),
    "a count per colour; 'Computer takes 0 red and 2 blue marbles.'; 'Human Wins with score : 6'":
        (PER_COLOUR, ('            print(f"Computer takes {move[1] if move[0] == \'red\' else 0} red and '
                     '{move[1] if move[0] == \'blue\' else 0} blue marbles.")'),
         '    print(f"{winner.capitalize()} {\'Wins\' if winner == \'human\' else \'won\'} with score : {score}")'),
    "free text that refuses 'red 2' and takes '2 red'; 'Computer removed 1 marble from blue'; "
    "'Computer wins with a score of 6'":
        (FREE_TEXT, '            print(f"Computer removed {move[1]} marble from {move[0]}")',
         '    print(("You win" if winner == "human" else "Computer wins") + f" with a score of {score}")'),
}


@pytest.mark.parametrize("family", FAMILIES)
def test_each_family_of_phrasings_is_read_and_graded_in_full(tmp_path, family):
    folder = program(tmp_path / "student", *FAMILIES[family])
    report = check_console(RBNIM, folder, LIMITS)
    assert report.passed and report.points == 10, "\n".join(report.lines) + "\n" + report.scenarios[0].transcript
    assert not report.needs_human


def test_a_wrong_program_in_another_phrasing_still_fails_on_the_move_it_got_wrong(tmp_path):
    ask, says_move, says_result = FAMILIES[next(f for f in FAMILIES if f.startswith("numbered menu"))]
    folder = program(tmp_path / "student", ask, says_move, says_result)
    text = (folder / "red_blue_nim.py").read_text().replace(
        'order = ORDER if version == "standard" else ORDER[::-1]', "order = ORDER")
    (folder / "red_blue_nim.py").write_text(text)
    report = check_console(RBNIM, folder, LIMITS)
    assert not report.passed and not report.needs_human and 0 < report.points < 10
    assert any("misere" in line and "Computer played: ('blue', 2)" in line for line in report.lines)


UNREADABLE = ('            print("Computer: " + "o" * move[1] + " from the " + move[0][0].upper() + " heap")',
              '    print(f"{winner.capitalize()} wins {score} points.")')


def test_output_the_driver_cannot_follow_needs_a_human_with_the_transcript(tmp_path):
    folder = program(tmp_path / "student", COLOUR_THEN_COUNT, *UNREADABLE)
    report = check_console(RBNIM, folder, LIMITS)
    assert report.needs_human and not report.passed
    assert all(s.needs_human for s in report.scenarios if s.label.endswith("computer)") or "computer first" in s.label)
    first = report.scenarios[0]
    assert first.sentence.startswith("Could not read the computer's move at (3 red, 5 blue, standard)")
    assert "Computer: oo from the B heap" in first.transcript


ONE_AT_A_TIME = '''
def ask_human(red, blue):
    while True:
        words = input("Your move (color amount): ").lower().split()
        if len(words) == 2 and words[0] in ("red", "blue") and words[1] in ("1", "2"):
            return words[0], 1
        print("Please enter a valid move in the format 'color amount'.")
'''


def test_piles_that_differ_from_the_game_are_not_blamed_on_the_computer(tmp_path):
    # The program takes one marble whatever count is typed: its piles leave the game the driver plays,
    # so what its computer does next is not judged against the wrong position; a TA looks instead.
    folder = program(tmp_path / "student", ONE_AT_A_TIME, '            print(f"Computer takes {move[1]} {move[0]}.")',
                     '    print(f"{winner.capitalize()} wins {score} points.")')
    report = check_console(RBNIM, folder, LIMITS)
    first = report.scenarios[0]
    assert first.needs_human and first.sentence.startswith("Could not read the piles after the human typed 'blue 2': "
                                                           "'Red: 3  Blue: 2' shows 3 red and 2 blue, but the piles are")


def test_grader_check_says_needs_a_human_records_no_points_and_exits_1(tmp_path):
    folder = program(tmp_path / "student", COLOUR_THEN_COUNT, *UNREADABLE)
    proc = subprocess.run([sys.executable, "-m", "grader.cli", "--config", str(ROOT / "config.yaml"), "check",
                           str(folder), "--assignment", "rbnim", "--json"],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    doc = json.loads(proc.stdout)
    (stage,) = doc["checks"]
    assert proc.returncode == 1 and not doc["passed"]
    assert stage["needs_human"] and stage["message"].startswith("Needs a human: could not read ")
    assert "no points are recorded" in stage["message"] and "Computer: oo from the B heap" in stage["picture"]


def test_grader_check_exits_1_when_a_program_fails():
    proc = subprocess.run([sys.executable, "-m", "grader.cli", "--config", str(ROOT / "config.yaml"), "check",
                           str(ROOT / "submissions" / "rbnim" / "hangs_on_input"), "--assignment", "rbnim", "--json"],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    doc = json.loads(proc.stdout)
    assert proc.returncode == 1 and not doc["passed"] and not doc["checks"][0]["needs_human"]


def test_a_config_pattern_whose_count_is_a_word_is_read_or_explained(tmp_path):
    folder = program(tmp_path / "student", COLOUR_THEN_COUNT,
                     f'            print(f"Computer grabs {{ {WORDS}[move[1]] }} of {{move[0]}}")',
                     '    print(f"{winner.capitalize()} wins {score} points.")')
    words = {"computer_move": r"Computer grabs (?P<count>\w+) of (?P<pile>red|blue)"}
    assert check_console(RBNIM, folder, LIMITS, words).passed
    vague = {"computer_move": r"Computer grabs (?P<count>\w+ \w+) (?P<pile>red|blue)"}    # "two of"
    report = check_console(RBNIM, folder, LIMITS, vague)
    assert report.needs_human and "the pattern's count 'two of' is not a number" in report.lines[0]


def test_a_pattern_for_one_submission_applies_to_that_submission_only(tmp_path):
    machine = ('            print(f"Machine: {move[0]} {move[1]}")', '    print(f"{winner.capitalize()} wins {score} points.")')
    for name in ("odd_one", "other_one"):               # the same wording, which only odd_one's pattern reads
        program(tmp_path / "subs" / name, COLOUR_THEN_COUNT, *machine)
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"assignments": {"rbnim": {
        "ruleset": "rbnim", "submissions": "subs", "grading": {"kind": "validation", "max": 10},
        "validation": {"submission_patterns": {
            "odd_one": {"computer_move": r"Machine: (?P<pile>red|blue) (?P<count>\d)"}}}}}}))

    def check(name: str) -> tuple[int, dict]:
        proc = subprocess.run([sys.executable, "-m", "grader.cli", "--config", str(config), "check",
                               str(tmp_path / "subs" / name), "--assignment", "rbnim", "--json"],
                              capture_output=True, text=True, timeout=600, cwd=ROOT)
        return proc.returncode, json.loads(proc.stdout)

    code, doc = check("odd_one")
    assert code == 0 and doc["points"] == 10, doc["checks"][0]["message"]
    code, doc = check("other_one")
    assert code == 1 and doc["checks"][0]["needs_human"]


def test_a_bad_pattern_for_one_submission_is_one_sentence(tmp_path, capsys):
    from grader.cli import main

    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"assignments": {"rbnim": {
        "ruleset": "rbnim", "submissions": "subs",
        "validation": {"submission_patterns": {"odd_one": {"computer_move": "([unclosed"}}}}}}))
    assert main(["--config", str(config), "check", str(ROOT / "submissions" / "rbnim" / "correct_program"),
                 "--assignment", "rbnim"]) == 2
    err = capsys.readouterr().err
    assert "validation.submission_patterns.odd_one: program pattern 'computer_move'" in err and "Traceback" not in err


def test_pairs_and_claims_read_the_phrasings():
    assert pairs("takes two red marbles", read_number) == [("red", 2)]
    assert pairs("removes 2 marble from red pile.", read_number) == [("red", 2)]
    assert pairs("played: ('blue', 2)", read_number) == [("blue", 2)]
    assert pairs("takes 0 red and 2 blue marbles.", read_number) == [("blue", 2)]
    assert pairs("took a red ball", read_number) == [("red", 1)]
    assert pairs("AI: RED x1", read_number) == [("red", 1)]
    assert claims("Computer loses. Human wins. Final score: 2") == {"human"}
    assert claims("Game over. human loses with a score of -12.") == {"computer"}
    assert claims("Our Winner is computer with a score of 9") == {"computer"}
    assert claims("You lose!") == {"computer"}


def test_a_run_records_no_grade_for_a_program_that_needs_a_human(tmp_path):
    import csv

    program(tmp_path / "subs" / "unread", COLOUR_THEN_COUNT, *UNREADABLE)
    program(tmp_path / "subs" / "menu", *FAMILIES[next(f for f in FAMILIES if f.startswith("numbered menu"))])
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"assignments": {"rbnim": {
        "ruleset": "rbnim", "submissions": "subs", "reports": "out", "grading": {"kind": "validation", "max": 10}}}}))
    proc = subprocess.run([sys.executable, "-m", "grader.cli", "--config", str(config), "run", "rbnim"],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = json.loads((tmp_path / "out" / "results.json").read_text())
    status = {s["id"]: (s["status"], s["grade"]) for s in doc["submissions"]}
    assert status["unread"] == ("needs a human", None) and status["menu"][1] == 10
    with open(tmp_path / "out" / "grades.csv", newline="") as f:
        graded = {row["student_id"]: row["grade"] for row in csv.DictReader(f)}
    assert "unread" not in graded and float(graded["menu"]) == 10          # never a silent 0


# Round two: programs a person reads without trouble (issue 30). Each is the correct program with one
# way of asking; before round two each got "needs a human".
CAPITALISED_OPTIONS = '''
def ask_human(red, blue):
    while True:
        options = [f"{colour} {n}" for colour, left in (("Red", red), ("Blue", blue)) for n in (1, 2) if left >= n]
        print(f"Available moves: {options}")
        choice = input("Your move: ").strip()
        if choice in options:
            colour, n = choice.split()
            return colour.lower(), int(n)
        print("Invalid choice: type one of the moves exactly as listed.")
'''
COLOUR_ONLY = '''
def ask_human(red, blue):
    answer = input("Pick the colour of the marbles to remove (you take 1 or 2 of them next): ").strip().lower()
    pile = "red" if answer.startswith("r") else "blue"
    while True:
        n = input("How many? ").strip()
        if n in ("1", "2") and (red if pile == "red" else blue) >= int(n):
            return pile, int(n)
        print("Invalid number, try again.")
'''
COLOUR_MENU_ASKS_A_COLOUR = '''
def ask_human(red, blue):
    while True:
        print("1. Red")
        print("2. Blue")
        pile = input("Enter a color: ").strip().lower()
        if pile in ("red", "blue"):
            break
        print("Invalid colour, try again.")
    while True:
        n = input("Enter the number of marbles (1 or 2): ").strip()
        if n in ("1", "2") and (red if pile == "red" else blue) >= int(n):
            return pile, int(n)
        print("Invalid number, try again.")
'''
EXAMPLE_IN_PROMPT = '''
def ask_human(red, blue):
    while True:
        words = input("Enter your move, e.g. 'red 2' or 'blue 1': ").lower().split()
        if len(words) == 2 and words[0] in ("red", "blue") and words[1] in ("1", "2"):
            if (red if words[0] == "red" else blue) >= int(words[1]):
                return words[0], int(words[1])
        print("Invalid move, try again.")
'''
OPTIONS_IN_THE_QUESTION = '''
def ask_human(red, blue):
    while True:
        choice = input("Which pile? Type 1 for red, 2 for blue: ").strip()
        if choice in ("1", "2"):
            pile = "red" if choice == "1" else "blue"
            break
        print("Invalid choice, try again.")
    while True:
        n = input("How many marbles (1 or 2)? ").strip()
        if n in ("1", "2") and (red if pile == "red" else blue) >= int(n):
            return pile, int(n)
        print("Invalid number, try again.")
'''
ROUND_TWO = {"options shown capitalised in a list": CAPITALISED_OPTIONS,
             "numbered options inside the question": OPTIONS_IN_THE_QUESTION,
             "a prompt that asks only for a colour, with a hint about the count": COLOUR_ONLY,
             "a numbered list of colours under a prompt that asks for a colour": COLOUR_MENU_ASKS_A_COLOUR,
             "an example move inside the prompt": EXAMPLE_IN_PROMPT}


@pytest.mark.parametrize("family", ROUND_TWO)
def test_round_two_programs_are_read_and_graded_in_full(tmp_path, family):
    folder = program(tmp_path / "student", ROUND_TWO[family], '            print(f"Computer takes {move[1]} {move[0]}.")',
                     '    print(f"{winner.capitalize()} wins {score} points.")')
    report = check_console(RBNIM, folder, LIMITS)
    assert report.passed and report.points == 10, "\n".join(report.lines) + "\n" + report.scenarios[0].transcript
