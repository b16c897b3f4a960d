"""A Double Card program in C++ or Java with a console of its own (a mode menu, then moves) is not
misread as a line-protocol player (its menu taken for an illegal move): the check says it needs a
human and why, quoting the question it asks. The programs are our own, written as COMP 472
students wrote theirs (a menu, who starts, "Enter your move:", the AI's move in the course's
notation); a line-protocol program in the same languages is still played as one."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from grader.native_console import console_question

ROOT = Path(__file__).resolve().parents[2]

CPP_CONSOLE = r"""#include <iostream>
#include <string>
#include <vector>

static std::vector<std::string> board(96, ".");

static void show() {
    for (int row = 11; row >= 0; --row) {
        std::cout << (row + 1) << "\t";
        for (int col = 0; col < 8; ++col) std::cout << board[row * 8 + col] << ' ';
        std::cout << '\n';
    }
    std::cout << "\tA B C D E F G H" << std::endl;
}

int main() {
    std::cout << "DOUBLE CARD\n 1) Human vs Human\n 2) Human vs AI\n";
    std::cout << "Select a mode: ";
    std::string mode, first, move;
    if (!std::getline(std::cin, mode)) return 0;
    std::cout << "Does the AI play first? (y/n) ";
    if (!std::getline(std::cin, first)) return 0;
    int col = 0;
    while (col < 8) {
        show();
        if (first == "y" || col > 0) {
            std::cout << "AI plays 0 1 " << char('A' + col) << " 1" << std::endl;
        }
        std::cout << "Enter your move: ";
        if (!std::getline(std::cin, move)) return 0;
        col += 2;
    }
    return 0;
}
"""

JAVA_CONSOLE = r"""import java.util.Scanner;

public class Main {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        System.out.println("Welcome to Double Card");
        System.out.println("[1] Manual: two humans");
        System.out.println("[2] Against the computer");
        System.out.print("Your choice? ");
        String mode = in.nextLine();
        System.out.print("Play colors or dots: ");
        String role = in.nextLine();
        for (int turn = 0; turn < 4 && in.hasNextLine(); turn++) {
            System.out.print("Enter a move like 0 5 A 2: ");
            String move = in.nextLine();
            System.out.println("Computer move: 0 1 " + (char) ('C' + 2 * turn) + " 1");
        }
    }
}
"""

JAVA_LINES = r"""import java.util.Scanner;

public class Main {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        String[] first = in.nextLine().split(" ");
        int col = 0;
        if (first[1].equals("first")) {
            System.out.println("0 1 A 1");
            col = 2;
        }
        while (in.hasNextLine()) {
            in.nextLine();
            System.out.println("0 1 " + (char) ('A' + col) + " " + (1 + col / 8));
            col += 2;
        }
    }
}
"""


def check(path: Path) -> tuple[int, dict]:
    proc = subprocess.run([sys.executable, "-m", "grader.cli", "--config", str(ROOT / "config.yaml"), "check",
                           str(path), "--assignment", "doublecard", "--json"],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.stdout.strip(), proc.stderr
    return proc.returncode, json.loads(proc.stdout)


@pytest.mark.parametrize(("name", "source", "language", "question"), [
    ("main.cpp", CPP_CONSOLE, "C++", "Select a mode:"),
    ("Main.java", JAVA_CONSOLE, "Java", "Your choice?"),
])
def test_a_compiled_console_program_needs_a_human_and_is_told_why(tmp_path, name, source, language, question):
    (tmp_path / name).write_text(source)
    code, doc = check(tmp_path)
    assert [c["name"] for c in doc["checks"]] == ["program"], doc        # graded as a console program alone
    stage = doc["checks"][0]
    assert stage["needs_human"] and not stage["passed"], stage
    assert (f"Needs a human: could not play the program: it is a {language} program with a console of its own "
            f"(it asks {question!r} and waits for an answer)") in stage["message"], stage["message"]
    assert "illegal" not in stage["message"]                     # its menu is not read as a move
    assert code == 1 and not doc["passed"]


def test_line_protocol_programs_have_no_console_question(tmp_path):
    assert console_question(ROOT / "submissions" / "doublecard" / "cpp_random", "g++") is None
    (tmp_path / "Main.java").write_text(JAVA_LINES)
    assert console_question(tmp_path, "javac") is None
    (tmp_path / "Main.java").write_text(JAVA_CONSOLE)
    assert console_question(tmp_path, "javac") == "Your choice? "
    assert console_question(tmp_path, "python") is None               # Python consoles are played, not refused
