"""Double Card players in any language through the line protocol: built in the sandbox from the
assignment's allow-list, checked and played like Python players."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from tests.example_programs import RUST_MAIN

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")

ROOT = Path(__file__).resolve().parents[2]
CPP = ROOT / "submissions" / "doublecard" / "cpp_random"


def config(tmp_path: Path, **block) -> Path:
    path = tmp_path / "config.yaml"
    base = {"ruleset": "doublecard", "submissions": "subs", "reports": "out", "game": {"max_moves": 40},
            "validation": {"smoke_games": 2},
            "league": {"builtins": ["random"], "games_per_pair": 2, "seed": 4, "concurrency": 2}}
    path.write_text(yaml.safe_dump({"assignments": {"d": base | block}}), encoding="utf-8")
    (tmp_path / "subs").mkdir(exist_ok=True)
    return path


def test_the_cpp_example_builds_and_passes_check(cli):
    result = cli("check", CPP, "--assignment", "doublecard")
    assert result.status == 0, result.text
    for text in ("PASS  Build (g++)", "PASS  Interface", "PASS  Legal moves in scripted games", "PASS  Smoke games"):
        assert text in result.out, result.text


def test_a_program_that_does_not_compile_shows_the_compilers_messages(tmp_path, cli):
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "main.cpp").write_text("int main() { return undefined_name; }\n")
    result = cli("--config", config(tmp_path), "check", tmp_path / "bad", "--assignment", "d")
    assert result.status == 1
    assert "FAIL  Build (g++)" in result.out and "The g++ build failed: its messages are below." in result.out
    assert "main.cpp:1:21: error:" in result.out and "was not declared in this scope" in result.out, result.text


def test_a_build_the_assignment_does_not_allow_is_refused_with_a_sentence(tmp_path, cli):
    result = cli("--config", config(tmp_path, programs={"builds": ["gcc"]}), "check", CPP, "--assignment", "d")
    assert result.status == 1
    assert "The submission needs the g++ build, which this assignment does not allow (allowed: gcc)." in result.out


def test_a_script_without_a_build_speaks_the_protocol_too(tmp_path, cli):
    folder = tmp_path / "script"
    folder.mkdir()
    (folder / "player").write_text("#!/bin/sh\nwhile read line; do echo '0 1 Z 9'; done\n")
    (folder / "player").chmod(0o755)
    result = cli("--config", config(tmp_path), "check", folder, "--assignment", "d")
    assert "PASS  Build (none)" in result.out and "PASS  Interface" in result.out, result.text
    assert "names column Z" in result.out or "0 1 Z 9" in result.out, result.text


def test_a_league_mixes_a_cpp_program_and_python_players(tmp_path, cli):
    path = config(tmp_path)
    shutil.copytree(CPP, tmp_path / "subs" / "cpp_random")
    shutil.copytree(ROOT / "rulesets" / "doublecard" / "players" / "baseline", tmp_path / "subs" / "py_baseline")
    result = cli("--config", path, "run", "d", "--quiet", "--no-report")
    assert result.status == 0, result.text
    rows = {s["id"]: s for s in json.loads((tmp_path / "out" / "results.json").read_text())["submissions"]}
    assert rows["cpp_random"]["status"] != "failed", rows["cpp_random"]
    assert rows["cpp_random"]["games"] == 4 and rows["py_baseline"]["games"] == 4, rows


JAVA_MAIN = """import java.io.*;
public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        boolean myTurn = in.readLine().trim().endsWith("first");
        while (true) {
            if (!myTurn && in.readLine() == null) return;
            System.out.println("0 5 A 2");
            System.out.flush();
            myTurn = false;
        }
    }
}
"""


@pytest.mark.parametrize("build, files", [
    ("javac", {"Main.java": JAVA_MAIN}),
    ("cargo", {"Cargo.toml": '[package]\nname = "dc"\nversion = "0.1.0"\nedition = "2021"\n', "src/main.rs": RUST_MAIN}),
])
def test_java_and_rust_programs_are_built_and_asked(tmp_path, cli, build, files):
    if shutil.which(build) is None:
        pytest.skip(f"{build} is not installed")
    folder = tmp_path / build
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    result = cli("--config", config(tmp_path), "check", folder, "--assignment", "d")
    assert f"PASS  Build ({build})" in result.out and "PASS  Interface" in result.out, result.text
    assert "the player answered '0 5 A 2', which is illegal: A2 has nothing under it." in result.out, result.text


CONSOLE_MAIN = """import sys
from board import Board            # the program's own board, in a module of its own

role, order = sys.stdin.readline().split()
board = Board()
my_turn = order == "first"
while True:
    if not my_turn:
        line = sys.stdin.readline()
        if not line:
            break
        board.opponent_move(line.strip())
    print(board.choose_move(), flush=True)
    my_turn = False
"""


@pytest.mark.parametrize("main", ["player.py", "main.py"])
def test_a_python_console_program_is_played_through_the_protocol_too(tmp_path, cli, main):
    """COMP 472 students' Python programs read and printed moves; player.py without the API's
    Player class is such a program, not a broken API module."""
    folder = tmp_path / "console"
    folder.mkdir()
    random_player = (ROOT / "rulesets" / "doublecard" / "players" / "random" / "player.py").read_text()
    (folder / "board.py").write_text(random_player.replace("class Player:", "class Board:").replace(
        "def __init__(self, role, first):", "def __init__(self, role='colours', first=True):"))
    (folder / main).write_text(CONSOLE_MAIN)
    result = cli("--config", config(tmp_path), "check", folder, "--assignment", "d")
    assert result.status == 0, result.text
    assert "PASS  Build (python)" in result.out and "PASS  Legal moves in scripted games" in result.out, result.text


BOHNENSPIEL_CPP = """#include <cstdio>
#include <iostream>
#include <string>
int main() {
    std::string line;
    while (std::getline(std::cin, line)) {              // one position per line, as JSON
        int pits[2][6];
        std::sscanf(line.c_str(), "{\\"pits\\":[[%d,%d,%d,%d,%d,%d],[%d,%d,%d,%d,%d,%d]]",
                    &pits[0][0], &pits[0][1], &pits[0][2], &pits[0][3], &pits[0][4], &pits[0][5],
                    &pits[1][0], &pits[1][1], &pits[1][2], &pits[1][3], &pits[1][4], &pits[1][5]);
        int me = line[line.rfind("\\"seat\\":") + 7] - '0';
        int pit = 0;
        while (pit < 6 && pits[me][pit] == 0) pit++;
        if (pit < 6) std::cout << "PIT " << me << " " << pit << std::endl;
        else std::cout << "SKIP " << me << std::endl;   // endl flushes
    }
}
"""
BOHNENSPIEL_JAVA = """import java.io.*;
import java.util.regex.*;
public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        Pattern rows = Pattern.compile("\\"pits\\":\\\\[\\\\[([\\\\d,]+)\\\\],\\\\[([\\\\d,]+)\\\\]\\\\]");
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            Matcher m = rows.matcher(line);
            m.find();
            int me = line.charAt(line.lastIndexOf("\\"seat\\":") + 7) - '0';
            String[] mine = m.group(me + 1).split(",");
            int pit = 0;
            while (pit < 6 && mine[pit].equals("0")) pit++;
            System.out.println(pit < 6 ? "PIT " + me + " " + pit : "SKIP " + me);
            System.out.flush();
        }
    }
}
"""
BOHNENSPIEL_PYTHON = """import json, sys
for line in sys.stdin:
    state = json.loads(line)
    me = state["seat"]
    pits = state["pits"][me]
    print(next((f"PIT {me} {i}" for i in range(6) if pits[i] > 0), f"SKIP {me}"), flush=True)
"""


@pytest.mark.parametrize("build, name, source", [("g++", "player.cpp", BOHNENSPIEL_CPP),
                                                  ("javac", "Main.java", BOHNENSPIEL_JAVA),
                                                  ("python", "student_player.py", BOHNENSPIEL_PYTHON)])
def test_bohnenspiel_programs_get_the_position_as_json(tmp_path, cli, build, name, source):
    """The README's examples: the position as one JSON line, the move back."""
    if build != "python" and shutil.which(build) is None:
        pytest.skip(f"{build} is not installed")
    (tmp_path / build).mkdir()
    (tmp_path / build / name).write_text(source)
    result = cli("check", tmp_path / build, "--assignment", "bohnenspiel")
    assert result.status == 0, result.text
    assert f"PASS  Build ({build})" in result.out and "PASS  Legal moves in set positions" in result.out, result.text


def test_a_program_in_one_file_of_any_suffix_its_kind_names_is_checked_and_entered(tmp_path, cli):
    """A C++ player handed in as one `player.cxx` file: the table of player kinds builds *.cxx, so
    staging takes it as a file too (it was refused as "neither a folder, a .py file nor a .zip"),
    alone and among a league's submissions."""
    single = tmp_path / "subs" / "alice.cxx"
    single.parent.mkdir()
    shutil.copyfile(CPP / "player.cpp", single)
    result = cli("--config", config(tmp_path), "check", single, "--assignment", "d")
    assert result.status == 0, result.text
    assert "PASS  Build (g++)" in result.out, result.text
    (tmp_path / "subs" / "notes.txt").write_text("not a player\n")
    result = cli("--config", config(tmp_path), "check", tmp_path / "subs" / "notes.txt", "--assignment", "d")
    assert result.status != 0
    assert "neither a folder, a .py, .cpp, .cc, .cxx or .c file nor a .zip archive" in result.text, result.text
