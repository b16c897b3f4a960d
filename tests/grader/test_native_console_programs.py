"""A Double Card program in C++ or Java with a console of its own (a mode menu, then moves) is not
misread as a line-protocol player (its menu taken for an illegal move). A Java one (`Main.java`)
is built and played through its console as a Python one is (the JVM shim's ConsoleHandler runs
`Main` in a thread and knows when it waits for input); a C, C++ or Rust one runs as itself (C stdio line-buffered as at a terminal) and the grader sees
in /proc when it blocks reading its stdin (sandbox/console_lines.py), so one that sleeps or spins
is never taken for waiting; a Java one whose console a TA would have to read needs a human. The
programs are our own, written as COMP 472 students wrote theirs (a menu, who starts, "Enter your
move:", the AI's move in the course's notation); a line-protocol program in the same languages is
still played as one. Console programs are started only by spawning (the console driver never
pre-forks), so there is one start mode here."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from grader import cli
from grader.native_console import console_question
from sandbox import console_lines, java
from tests.checking import check_json

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
        System.out.println("[1] Hot seat");
        System.out.println("[2] Versus mode");
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

JAVA_GAME = r"""import java.util.Scanner;

public class Main {
    static boolean[][] taken = new boolean[12][8];

    static boolean free(int row, int col) {
        return row >= 0 && row < 12 && col >= 0 && col < 8 && !taken[row][col];
    }

    static boolean held(int row, int col) {
        return row == 0 || taken[row - 1][col];
    }

    static void place(String move) {
        String[] t = move.trim().split("\\s+");
        int code = Integer.parseInt(t[1]);
        int col = Character.toUpperCase(t[2].charAt(0)) - 'A';
        int row = Integer.parseInt(t[3]) - 1;
        taken[row][col] = true;
        if (code % 2 == 1) taken[row][col + 1] = true; else taken[row + 1][col] = true;
    }

    static String choose() {
        for (int row = 0; row < 12; row++) {
            for (int col = 0; col < 7; col++) {
                if (free(row, col) && free(row, col + 1) && held(row, col) && held(row, col + 1)) {
                    return "0 1 " + (char) ('A' + col) + " " + (row + 1);
                }
            }
        }
        return "0 2 A 1";
    }

    static void show() {
        for (int row = 11; row >= 0; row--) {
            StringBuilder line = new StringBuilder(String.format("%2d ", row + 1));
            for (int col = 0; col < 8; col++) line.append(taken[row][col] ? " #" : " .");
            System.out.println(line);
        }
        System.out.println("    A B C D E F G H");
    }

    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        System.out.println("Double Card");
        System.out.println("1 - Human vs Human");
        System.out.println("2 - Human vs AI");
        System.out.print("Choose a mode: ");
        String mode = in.nextLine().trim();
        System.out.print("Who plays first? (human/ai): ");
        boolean aiTurn = in.nextLine().trim().equalsIgnoreCase("ai");
        for (int ply = 0; ply < 24; ply++) {
            show();
            if (aiTurn) {
                String move = choose();
                place(move);
                System.out.println("AI plays " + move);
            } else {
                System.out.print("Enter your move: ");
                if (!in.hasNextLine()) return;
                place(in.nextLine());
            }
            aiTurn = !aiTurn;
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
    return check_json(path, "doublecard")


CPP_GAME = r"""#include <iostream>
#include <sstream>
#include <string>

static bool taken[12][8];

static bool is_free(int row, int col) { return row >= 0 && row < 12 && col >= 0 && col < 8 && !taken[row][col]; }
static bool held(int row, int col) { return row == 0 || taken[row - 1][col]; }

static void place(const std::string& move) {
    std::istringstream in(move);
    std::string zero, letter;
    int code = 0, row = 0;
    in >> zero >> code >> letter >> row;
    int col = std::toupper(letter[0]) - 'A';
    row -= 1;
    taken[row][col] = true;
    if (code % 2 == 1) taken[row][col + 1] = true; else taken[row + 1][col] = true;
}

static std::string choose() {
    for (int row = 0; row < 12; ++row)
        for (int col = 0; col < 7; ++col)
            if (is_free(row, col) && is_free(row, col + 1) && held(row, col) && held(row, col + 1))
                return "0 1 " + std::string(1, char('A' + col)) + " " + std::to_string(row + 1);
    return "0 2 A 1";
}

static void show() {
    for (int row = 11; row >= 0; --row) {
        std::cout << (row + 1 < 10 ? " " : "") << (row + 1) << " ";
        for (int col = 0; col < 8; ++col) std::cout << (taken[row][col] ? " #" : " .");
        std::cout << "\n";
    }
    std::cout << "    A B C D E F G H" << std::endl;
}

int main() {
    std::string mode, first, move;
    std::cout << "Double Card\n1 - Human vs Human\n2 - Human vs AI\n";
    std::cout << "Choose a mode: ";
    if (!std::getline(std::cin, mode)) return 0;
    std::cout << "Who plays first? (human/ai): ";
    if (!std::getline(std::cin, first)) return 0;
    bool ai_turn = first.find("ai") != std::string::npos;
    for (int ply = 0; ply < 24; ++ply) {
        show();
        if (ai_turn) {
            std::string m = choose();
            place(m);
            std::cout << "AI plays " << m << std::endl;
        } else {
            std::cout << "Enter your move: " << std::flush;
            if (!std::getline(std::cin, move)) return 0;
            place(move);
        }
        ai_turn = !ai_turn;
    }
    return 0;
}
"""

CPP_SLEEPS = r"""#include <iostream>
#include <unistd.h>

int main() {
    std::cout << "Double Card\n1 - Human vs Human\n2 - Human vs AI\nChoose a mode: " << std::flush;
    for (;;) sleep(1000);                       // waits, but not for its input
}
"""

CPP_SPINS = r"""#include <iostream>

int main() {
    std::cout << "Double Card\n1 - Human vs Human\n2 - Human vs AI\nChoose a mode: " << std::flush;
    volatile unsigned long n = 0;
    for (;;) n = n + 1;                         // busy, never reading
}
"""

RUST_MANIFEST = """[package]
name = "doublecard"
version = "0.1.0"
edition = "2021"

[dependencies]
"""

RUST_GAME = r"""use std::io::{self, BufRead, Write};

fn free(taken: &[[bool; 8]; 12], row: i32, col: i32) -> bool {
    row >= 0 && row < 12 && col >= 0 && col < 8 && !taken[row as usize][col as usize]
}

fn held(taken: &[[bool; 8]; 12], row: i32, col: i32) -> bool {
    row == 0 || taken[(row - 1) as usize][col as usize]
}

fn place(taken: &mut [[bool; 8]; 12], mv: &str) {
    let t: Vec<&str> = mv.split_whitespace().collect();
    let code: i32 = t[1].parse().unwrap();
    let col = (t[2].to_ascii_uppercase().as_bytes()[0] - b'A') as usize;
    let row = t[3].parse::<usize>().unwrap() - 1;
    taken[row][col] = true;
    if code % 2 == 1 { taken[row][col + 1] = true; } else { taken[row + 1][col] = true; }
}

fn choose(taken: &[[bool; 8]; 12]) -> String {
    for row in 0..12 {
        for col in 0..7 {
            if free(taken, row, col) && free(taken, row, col + 1) && held(taken, row, col) && held(taken, row, col + 1) {
                return format!("0 1 {} {}", (b'A' + col as u8) as char, row + 1);
            }
        }
    }
    "0 2 A 1".to_string()
}

fn ask(lines: &mut impl Iterator<Item = io::Result<String>>) -> Option<String> {
    io::stdout().flush().unwrap();
    lines.next().and_then(|l| l.ok())
}

fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut taken = [[false; 8]; 12];
    println!("Double Card\n1 - Human vs Human\n2 - Human vs AI");
    print!("Choose a mode: ");
    if ask(&mut lines).is_none() { return; }
    print!("Who plays first? (human/ai): ");
    let first = match ask(&mut lines) { Some(f) => f, None => return };
    let mut ai_turn = first.trim().eq_ignore_ascii_case("ai");
    for _ in 0..24 {
        for row in (0..12).rev() {
            let cells: String = (0..8).map(|c| if taken[row][c] { " #" } else { " ." }).collect();
            println!("{:2} {}", row + 1, cells);
        }
        println!("    A B C D E F G H");
        if ai_turn {
            let mv = choose(&taken);
            place(&mut taken, &mv);
            println!("AI plays {}", mv);
        } else {
            print!("Enter your move: ");
            match ask(&mut lines) { Some(mv) => place(&mut taken, &mv), None => return }
        }
        ai_turn = !ai_turn;
    }
}
"""

C_GAME = r"""#include <stdio.h>
#include <string.h>
#include <ctype.h>

static int taken[12][8];
static int isfree(int r, int c) { return r >= 0 && r < 12 && c >= 0 && c < 8 && !taken[r][c]; }
static int held(int r, int c) { return r == 0 || taken[r - 1][c]; }
static void place(const char *m) {
    int code, row; char letter;
    if (sscanf(m, "%*d %d %c %d", &code, &letter, &row) != 3) return;
    int col = toupper((unsigned char)letter) - 'A'; row -= 1;
    taken[row][col] = 1;
    if (code % 2 == 1) taken[row][col + 1] = 1; else taken[row + 1][col] = 1;
}
static void choose(char *out) {
    for (int r = 0; r < 12; r++) for (int c = 0; c < 7; c++)
        if (isfree(r, c) && isfree(r, c + 1) && held(r, c) && held(r, c + 1)) { sprintf(out, "0 1 %c %d", 'A' + c, r + 1); return; }
    strcpy(out, "0 2 A 1");
}
int main(void) {
    char line[256], mv[32];
    printf("Double Card\n1 - Human vs Human\n2 - Human vs AI\n");
    printf("Choose a mode: ");
    if (!fgets(line, sizeof line, stdin)) return 0;
    printf("Who plays first? (human/ai): ");
    if (!fgets(line, sizeof line, stdin)) return 0;
    int ai = strncmp(line, "ai", 2) == 0;
    for (int ply = 0; ply < 24; ply++) {
        for (int r = 11; r >= 0; r--) { printf("%2d ", r + 1); for (int c = 0; c < 8; c++) printf(taken[r][c] ? " #" : " ."); printf("\n"); }
        printf("    A B C D E F G H\n");
        if (ai) { choose(mv); place(mv); printf("AI plays %s\n", mv); }
        else { printf("Enter your move: "); if (!fgets(line, sizeof line, stdin)) return 0; place(line); }
        ai = !ai;
    }
    return 0;
}
"""             # printf without fflush: on a terminal the question shows before the read

needs_cargo = pytest.mark.skipif(shutil.which("cargo") is None, reason="cargo is not installed")
needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")


@needs_gxx
def test_a_cpp_console_program_is_built_and_played_through_its_console(tmp_path):
    (tmp_path / "main.cpp").write_text(CPP_GAME)
    code, doc = check(tmp_path)
    assert [c["name"] for c in doc["checks"]] == ["program"], doc        # graded as a console program alone
    stage = doc["checks"][0]
    assert stage["passed"] and stage["message"] == "All 2 scenarios passed.", stage
    assert code == 0 and doc["points"] == doc["max_points"] > 0


@needs_gxx
def test_a_cpp_console_programs_illegal_ai_move_is_its_failure(tmp_path):
    floating = CPP_GAME.replace("std::to_string(row + 1)", "std::to_string(row + 3)")
    assert floating != CPP_GAME
    (tmp_path / "main.cpp").write_text(floating)
    code, doc = check(tmp_path)
    stage = doc["checks"][0]
    assert code == 1 and not stage["passed"] and not stage["needs_human"], stage
    assert "the AI played '0 1 A 3', which is illegal" in stage["message"], stage["message"]


@needs_gxx
@pytest.mark.parametrize("source", [CPP_SLEEPS, CPP_SPINS], ids=["sleeps", "spins"])
def test_a_cpp_program_waiting_on_something_else_is_not_waiting_for_input(tmp_path, source):
    (tmp_path / "main.cpp").write_text(source)
    code, doc = check(tmp_path)
    stage = doc["checks"][0]
    assert code == 1 and not stage["passed"] and not stage["needs_human"], stage
    assert "the program neither asked for input nor ended within" in stage["message"], stage["message"]
    assert "more scenario(s) were not tried because the program hung" in stage["message"], stage["message"]


@pytest.mark.skipif(java.unavailable_reason() is not None, reason=java.unavailable_reason() or "")
def test_a_java_console_program_is_built_and_played_through_its_console(tmp_path):
    (tmp_path / "Main.java").write_text(JAVA_GAME)
    code, doc = check(tmp_path)
    assert [c["name"] for c in doc["checks"]] == ["program"], doc
    stage = doc["checks"][0]
    assert stage["passed"] and stage["message"] == "All 2 scenarios passed.", stage
    assert code == 0 and doc["points"] == doc["max_points"] > 0


@pytest.mark.skipif(java.unavailable_reason() is not None, reason=java.unavailable_reason() or "")
def test_a_java_console_programs_illegal_ai_move_is_its_failure(tmp_path):
    floating = JAVA_GAME.replace('return "0 1 " + (char) (\'A\' + col) + " " + (row + 1);',
                                 'return "0 1 " + (char) (\'A\' + col) + " " + (row + 3);')
    assert floating != JAVA_GAME
    (tmp_path / "Main.java").write_text(floating)
    code, doc = check(tmp_path)
    stage = doc["checks"][0]
    assert code == 1 and not stage["passed"] and not stage["needs_human"], stage
    assert "the AI played '0 1 A 3', which is illegal" in stage["message"], stage["message"]


@pytest.mark.skipif(java.unavailable_reason() is not None, reason=java.unavailable_reason() or "")
def test_a_java_console_a_person_could_not_follow_needs_a_human(tmp_path):
    (tmp_path / "Main.java").write_text(JAVA_CONSOLE)            # "Your choice?" after "[1] Hot seat", "[2] Versus mode"
    code, doc = check(tmp_path)
    stage = doc["checks"][0]
    assert code == 1 and stage["needs_human"] and stage["message"].startswith("Needs a human: could not read"), stage
    assert "Your choice?" in stage["message"]


def test_line_protocol_programs_have_no_console_question(tmp_path):
    assert console_question(ROOT / "submissions" / "doublecard" / "cpp_random", "g++") is None
    (tmp_path / "Main.java").write_text(JAVA_LINES)
    assert console_question(tmp_path, "javac") is None
    (tmp_path / "Main.java").write_text(JAVA_CONSOLE)
    assert console_question(tmp_path, "javac") == "Your choice? "
    assert console_question(tmp_path, "python") is None               # Python consoles are played, not refused


JAVA_EXITS = r"""import java.util.Scanner;

public class Main {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        System.out.println("1 - Human vs Human");
        System.out.println("2 - Human vs AI");
        System.out.print("Choose a mode: ");
        in.nextLine();
        System.out.println("Goodbye");
        System.exit(0);
    }
}
"""


@pytest.mark.skipif(java.unavailable_reason() is not None, reason=java.unavailable_reason() or "")
def test_system_exit_ends_the_java_console_program_not_the_check(tmp_path):
    (tmp_path / "Main.java").write_text(JAVA_EXITS)
    _, doc = check(tmp_path)
    stage = doc["checks"][0]
    assert not stage["passed"] and not stage["needs_human"], stage
    assert "against the AI, the AI moving first: The program ended after 0 moves, before the game was over." \
        in stage["message"], stage["message"]


@needs_gxx
def test_a_cpp_console_program_the_grader_cannot_watch_needs_a_human(tmp_path, monkeypatch, capsys):
    """Where the kernel's account of the process cannot be read as needed (here: an architecture
    whose read system call's number is not known), the check asks a TA instead of guessing."""
    (tmp_path / "main.cpp").write_text(CPP_GAME)
    monkeypatch.setattr(console_lines.platform, "machine", lambda: "riscv64")
    code = cli.main(["--config", str(ROOT / "config.yaml"), "check", str(tmp_path), "--assignment", "doublecard",
                     "--json"])
    doc = json.loads(capsys.readouterr().out)
    stage = doc["checks"][0]
    assert code == 1 and stage["needs_human"] and not stage["passed"], stage
    assert ("Needs a human: could not play the program: the grader cannot tell when it waits for its input here "
            "(the grader does not know the read system call's number on riscv64).") in stage["message"], stage
    assert "against the AI" not in stage["message"]                   # nothing is blamed on the program



CPP_CRASHES = r"""#include <cstdio>

int main() {
    std::printf("1 - Human vs Human\n2 - Human vs AI\nChoose a mode: ");
    int mode = 0;
    if (std::scanf("%d", &mode) != 1) return 0;
    volatile int* nowhere = nullptr;
    return *nowhere;                              // a crash right after the menu
}
"""


@needs_gxx
def test_a_cpp_console_program_that_crashes_is_told_how_it_stopped(tmp_path):
    (tmp_path / "main.cpp").write_text(CPP_CRASHES)
    code, doc = check(tmp_path)
    stage = doc["checks"][0]
    assert code == 1 and not stage["passed"] and not stage["needs_human"], stage
    assert ("The program ended after 0 moves, before the game was over. (The program stopped with signal SIGSEGV.)"
            in stage["message"]), stage["message"]



HIDES_AFTER_FIRST_ANSWER = ("    if (!std::getline(std::cin, mode)) return 0;\n",
                            "    if (!std::getline(std::cin, mode)) return 0;\n    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);\n")


@needs_gxx
def test_a_failing_cpp_console_program_that_hides_from_the_grader_still_fails(tmp_path):
    """Issue 38, an independent attacker (held; kept as a regression): a losing program that makes
    itself non-dumpable (prctl) after its first answer, so that an ordinary user's grader might no
    longer read its /proc/<pid>/syscall and ask a human instead of failing it. It still fails, as
    root and as an ordinary user."""
    old, new = HIDES_AFTER_FIRST_ANSWER
    hiding = ("#include <sys/prctl.h>\n" + CPP_GAME.replace(old, new)
              .replace("std::to_string(row + 1)", "std::to_string(row + 3)"))
    assert hiding.count("prctl(") == 1 and "row + 3" in hiding
    (tmp_path / "main.cpp").write_text(hiding)
    code, doc = check(tmp_path)
    stage = doc["checks"][0]
    assert code == 1 and not stage["passed"] and not stage["needs_human"], stage
