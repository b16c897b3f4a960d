"""Double Card programs with a console of their own (COMP 472): a mode menu, questions for who starts
and who plays colours or dots, then the board and moves in the course's notation. The driver plays
the human as it does for Red-Blue Nim and checks every move the program's AI prints. Our own example
program: a console around the built-in random player's board (written as a student would)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulesets
from grader.cli import main
from grader.console_driver import check_console, console_kind
from sandbox import Limits

ROOT = Path(__file__).resolve().parents[2]
RANDOM = (ROOT / "rulesets" / "doublecard" / "players" / "random" / "player.py").read_text()
LIMITS = Limits(start_s=10.0, call_s=3.0, first_call_s=3.0, kill_after_s=1.0)
DOUBLECARD = rulesets.load("doublecard")

CONSOLE = '''from board import Board


def show(board):
    print("    A B C D E F G H")
    for row in range(12, 0, -1):
        cells = ["#" if (col, row - 1) in board.at else "." for col in range(8)]
        print(f"{row:2d}  " + " ".join(cells))


def main():
    print("Double Card -- COMP 472")
    print("1 - Human vs Human")
    print("2 - Human vs AI (human plays first)")
    print("3 - AI vs Human (AI plays first)")
    mode = input("Choose a game mode: ").strip()
    while mode not in ("1", "2", "3"):
        mode = input("Invalid mode, try again: ").strip()
    ai_first = mode == "3"
    role = input("Player 1, do you play colors or dots? ").strip().lower()
    ai = Board("dots" if role.startswith("c") == (not ai_first) else "colors", ai_first)
    ai_turn = ai_first
    for _ in range(60):
        show(ai)
        if ai_turn:
            move = ai.choose_move()
            print(f"AI plays: {MOVE_OUT}")
        else:
            move = " ".join(input("Enter your move (e.g. 0 5 A 2): ").upper().split())
            if move not in ai.moves():
                print("Illegal move, try again.")
                continue
            ai.opponent_move(move)
        ai_turn = not ai_turn
    print("It's a draw.")


main()
'''


QUESTIONS = '''import sys
from board import Board


def main():
    against = input("Play against the computer? (y/n) ").strip().lower()
    if against != "y":
        sys.exit("Two humans: not graded here.")
    first = input("Do you want to play first? (y/n) ").strip().lower() == "y"
    while True:
        side = input("Enter '0' for Colors or '1' for Dots: ").strip()
        if side in ("0", "1"):
            break
        print("Invalid choice.")
    ai = Board("dots" if side == "0" else "colors", not first)
    my_turn = first
    for _ in range(60):
        if my_turn:
            text = input("Your turn, type a regular move such as '0 2 H 1' or a recycling one: ")
            move = " ".join(text.upper().split())
            if move not in ai.moves():
                print("That move is not valid, try again.")
                continue
            ai.opponent_move(move)
        else:
            print("Computer's move: " + ai.choose_move())
        my_turn = not my_turn
    print("Draw: 60 moves without a line.")


main()
'''


def write(folder: Path, move_out: str = "{move}", program: str = CONSOLE) -> Path:
    folder.mkdir(parents=True)
    (folder / "board.py").write_text(RANDOM.replace("class Player:", "class Board:"))
    (folder / "main.py").write_text(program.replace("{MOVE_OUT}", move_out))
    return folder


def test_yes_no_questions_and_options_inside_a_prompt_are_answered_by_meaning(tmp_path):
    report = check_console(DOUBLECARD, write(tmp_path / "student", program=QUESTIONS), LIMITS)
    assert report.passed and report.points == 10, "\n".join(report.lines) + "\n" + report.scenarios[1].transcript
    human_first = report.scenarios[1].transcript
    assert ">>> y\n" in human_first and ">>> 0\n" in human_first and "Computer's move: 0 " in human_first


def test_a_console_program_is_played_through_its_menus_and_its_ai_checked(tmp_path):
    report = check_console(DOUBLECARD, write(tmp_path / "student"), LIMITS)
    assert report.passed and report.points == 10, "\n".join(report.lines) + "\n" + report.scenarios[0].transcript
    first = report.scenarios[0].transcript
    assert ">>> 3" in first and ">>> colors" in first and "AI plays: 0 " in first   # player 1 plays colours


def test_an_illegal_move_by_the_programs_ai_is_named(tmp_path):
    # the AI announces a card floating in row 5 instead of the move it played
    report = check_console(DOUBLECARD, write(tmp_path / "student", "0 1 A 5"), LIMITS)
    assert not report.passed and not report.needs_human
    assert report.lines[0].startswith("against the AI, the AI moving first: After 0 moves the AI played '0 1 A 5', "
                                      "which is illegal:"), report.lines


def test_grader_check_routes_a_console_program_to_its_console(tmp_path, capsys):
    folder = write(tmp_path / "student")
    code = main(["--config", str(ROOT / "config.yaml"), "check", str(folder), "--assignment", "doublecard", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["passed"], doc
    assert [c["name"] for c in doc["checks"]] == ["program"]


@pytest.mark.parametrize("prompt", ["input()", "sys.stdin.readline()"])
def test_a_program_that_reads_without_prompting_stays_a_line_protocol_player(prompt):
    from grader.python_source import facts_of

    kind = console_kind(DOUBLECARD)
    found = facts_of(f"import sys\nline = {prompt}\nprint('0 1 A 1')\n".encode())
    assert found is not None and not kind.is_program(found)
    assert kind.is_program(facts_of(CONSOLE.encode()))

