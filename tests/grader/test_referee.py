"""A game whose rules are a referee program in any language (grader/referee.py, issue 41 item 5),
proved on rulesets/connect4_java (its referee is Java): a Python and a Java player play it in both
start modes; a player's illegal move is reported with the referee's own reason; and a referee that
crashes, hangs or talks nonsense mid-game makes the game the grader's failure (infra, one sentence
naming the referee), never a student's loss."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import time
from pathlib import Path

import pytest

from grader.assignment import load_assignments
from grader.intake import stage
from grader.match import play_game, player_factory
from grader.outputs import replay_frames
from grader.referee import RefereeFailed, program
from grader.usecases import init_course
from rulesets.base import Referee
from rulesets.connect4_java.rules import REFEREE, Connect4Game
from sandbox import java
from tests.checking import grader_cli

pytestmark = pytest.mark.skipif(java.unavailable_reason() is not None,
                                reason=f"the Connect Four referee is Java: {java.unavailable_reason()}")

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "rulesets" / "connect4_java"

# the real referee inside a Java wrapper that fails on its `at`-th "play" request, each way a referee can
FAULTS = {
    "crashes": "System.exit(3);",
    "hangs": "while (true) Thread.sleep(1000);",
    "talks nonsense": 'System.out.println("what a lovely board"); System.out.flush(); continue;',
    "answers a wrong status": 'System.out.println("{\\"to_move\\":7}"); System.out.flush(); continue;',
}
WRAPPER = """import java.io.BufferedReader;
import java.io.InputStreamReader;

public class Main {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String line;
        int plays = 0;
        while ((line = in.readLine()) != null) {
            if (line.contains("\\"cmd\\":\\"play\\"") && ++plays == %d) { %s }
            System.out.println(Rules.answer(line));
            System.out.flush();
        }
    }
}
"""


def faulty_referee(folder: Path, fault: str, at: int) -> Referee:
    folder.mkdir(parents=True)
    rules = (REFEREE.sources / "Main.java").read_text().replace("public class Main", "class Rules")
    (folder / "Rules.java").write_text(rules)
    (folder / "Main.java").write_text(WRAPPER % (at, FAULTS[fault]))
    return Referee(sources=folder, title="the test's faulty referee (Main.java)", params=REFEREE.params,
                   start_s=REFEREE.start_s, call_s=2.0)


@pytest.fixture
def course(tmp_path, monkeypatch):
    """A course folder for connect4_java, `grader init`'s, and its assignment."""
    monkeypatch.setenv("GRADER_STAGE_DIR", str(tmp_path / "staged"))
    init_course(tmp_path / "course", ["connect4_java"])
    return load_assignments(tmp_path / "course" / "config.yaml")["connect4_java"]


def player(tmp_path: Path, name: str, files: dict[str, str]):
    folder = tmp_path / "players" / name
    folder.mkdir(parents=True)
    for rel, text in files.items():
        (folder / rel).write_text(text)
    return folder


PYTHON = (GAME / "skeleton" / "student_agent.py").read_text()
JAVIER = ROOT / "submissions" / "connect4_java" / "javier"
JAVA = (JAVIER / "Main.java").read_text()
OFF_THE_BOARD = "class StudentAgent:\n    def step(self, board, me):\n        return 9\n"


def game(assignment, tmp_path, prefork: bool, first: dict[str, str], second: dict[str, str], seed: int = 3):
    a = stage(assignment, player(tmp_path, "first", first))
    b = stage(assignment, player(tmp_path, "second", second))
    real = player_factory(assignment)

    def factory(**kw):
        kw["prefork"] = True if prefork else None
        return real(**kw)
    return play_game(assignment, a, b, seed=seed, factory=factory)


@pytest.mark.parametrize("prefork", [False, True], ids=["spawned", "preforked"])
def test_a_python_and_a_java_player_play_a_game_the_java_referee_decides(course, tmp_path, prefork):
    result = game(course, tmp_path, prefork, {"student_agent.py": PYTHON}, {"Main.java": JAVA})
    assert result.infra_error is None, result.detail
    assert result.reason in ("four", "board_full"), (result.reason, result.detail)
    # both fill the leftmost column that is not full: the first player connects four in column 0
    assert result.moves[:7] == [0, 0, 0, 0, 0, 0, 1] and result.points == (1.0, 0.0), result.moves
    assert result.detail == "Player 1 connected four."


@pytest.mark.parametrize("prefork", [False, True], ids=["spawned", "preforked"])
def test_an_illegal_move_is_reported_with_the_referees_reason(course, tmp_path, prefork):
    result = game(course, tmp_path, prefork, {"student_agent.py": OFF_THE_BOARD}, {"Main.java": JAVA})
    assert result.reason == "illegal" and result.points == (0.0, 1.0), (result.reason, result.detail)
    assert "column 9 is off the board (columns 0 to 6)" in result.detail, result.detail


@pytest.mark.parametrize("prefork", [False, True], ids=["spawned", "preforked"])
@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_referee_that_fails_mid_game_is_the_graders_failure_not_the_students(course, tmp_path, monkeypatch,
                                                                              prefork, fault):
    monkeypatch.setattr(Connect4Game, "referee", faulty_referee(tmp_path / "referee", fault, at=9))
    try:
        result = game(course, tmp_path, prefork, {"student_agent.py": PYTHON}, {"Main.java": JAVA})
    finally:
        program(Connect4Game.referee).close()
    assert result.reason == "infra" and result.points == (0, 0) and result.infra_error, (result.reason, result.detail)
    assert "the test's faulty referee (Main.java)" in result.detail, result.detail
    assert "the grader's failure, not a player's" in result.detail
    assert "\n" not in result.detail and len(re.findall(r"\.( |$)", result.detail)) <= 2, result.detail
    assert not any(p.incidents for p in result.players), [p.incidents for p in result.players]


def test_a_referee_that_ended_while_it_waited_between_games_is_replaced(course, tmp_path):
    """A referee killed from outside (another process, the machine) while it waits, unasked, between
    games costs no game: the next game finds it gone and a new one replays the history. Before, the
    next game was the grader's failure (a contract test's playouts failed so in CI, 2026-11-29)."""
    first = game(course, tmp_path / "one", False, {"student_agent.py": PYTHON}, {"Main.java": JAVA})
    assert first.infra_error is None, first.detail
    ref = program(Connect4Game.referee)
    assert ref.proc is not None and ref.proc.proc is not None
    pid = ref.proc.proc.pid
    try:
        os.kill(pid, signal.SIGKILL)
    except PermissionError:
        pytest.skip("this user may not signal the referee's process (its own uid)")
    for _ in range(200):                        # gone, or a zombie its parent has not reaped yet
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                break
        except (OSError, IndexError):
            break
        time.sleep(0.05)
    second = game(course, tmp_path / "two", False, {"student_agent.py": PYTHON}, {"Main.java": JAVA})
    assert second.infra_error is None, second.detail
    assert (second.moves, second.points) == (first.moves, first.points)


def test_the_state_is_the_move_history_so_copies_and_replays_are_free():
    """Branching a position and going back to another costs the grader nothing but the referee's
    replay; each state answers for its own history."""
    g = Connect4Game()
    a = g.new_state(5)
    a.play(3)
    b = a.copy()
    b.play(3)
    a.play(4)
    assert (a.moves, b.moves) == ([3, 4], [3, 3])
    assert b.render_text().splitlines()[-2:] == ["...O...", "...X..."]
    assert a.render_text().splitlines()[-1] == "...XO.."
    again = g.state_from_json(b.to_json())
    assert again.to_json() == b.to_json() and again.to_move == 0


def test_a_referee_that_does_not_build_names_itself(tmp_path):
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "Main.java").write_text("public class Main { this is not Java }\n")
    referee = Referee(sources=folder, title="the broken referee (Main.java)")
    with pytest.raises(RefereeFailed, match=r"^the broken referee \(Main.java\) did not build"):
        program(referee).ask({"cmd": "new", "seed": 1, "params": {}})


@pytest.mark.parametrize("prefork", [False, True], ids=["spawned", "preforked"])
def test_check_and_a_league_with_a_site(tmp_path, monkeypatch, capsys, prefork):
    """`grader check` of the Java player, then `grader run` of a Python and a Java player and the
    built-in: every game decided by the Java referee, replays drawn from its pictures."""
    monkeypatch.setenv("GRADER_STAGE_DIR", str(tmp_path / "staged"))
    init_course(tmp_path / "course", ["connect4_java"])
    config = tmp_path / "course" / "config.yaml"
    text = config.read_text()
    assert "builtins: [random]}" in text and "grading: {kind: thresholds" in text
    # no collusion replay: its extra games would follow the games' luck, and "6 played" is the round robin
    config.write_text(text.replace("builtins: [random]}", f"builtins: [random], prefork: {str(prefork).lower()}, "
                                                          f"collusion: {{replay: false}}}}")
                      .replace("grading: {kind: thresholds", "grading: {kind: none} #"))
    monkeypatch.chdir(tmp_path / "course")
    code, out, _ = grader_cli(capsys, "check", JAVIER, "--assignment", "connect4_java")
    assert code == 0 and "Result: passed" in out, out
    subs = tmp_path / "course" / "submissions" / "connect4_java"
    shutil.copytree(JAVIER, subs / "javier")
    shutil.copytree(GAME / "skeleton", subs / "pia")
    code, out, _ = grader_cli(capsys, "run", "connect4_java")
    assert code == 0, out
    assert "6 played" in out and "could not be played" not in out and "after a grader failure" not in out, out
    site = tmp_path / "course" / "reports" / "connect4_java"
    assert (site / "public" / "index.html").is_file() and list((site / "public" / "games").glob("*.js"))
    # the replays show the referee's own pictures, one after each ply (the stored-pictures path)
    game = json.loads((site / "results.json").read_text())["games"][0]
    pictures = replay_frames(load_assignments(config)["connect4_java"])(game)
    assert len(pictures) == len(game["moves"]) + 1 and all(p.startswith("<svg") for p in pictures)
    assert pictures[0].count("#ffffff") == 42 and pictures[-1].count("#ffffff") == 42 - len(game["moves"])


def test_a_check_the_referee_could_not_finish_decides_nothing_about_the_student(tmp_path, monkeypatch, capsys):
    """The referee dies while the check draws its positions: the student is told the check could
    not be finished and why (the referee, named), never that the submission failed."""
    monkeypatch.setenv("GRADER_STAGE_DIR", str(tmp_path / "staged"))
    monkeypatch.setattr(Connect4Game, "referee", faulty_referee(tmp_path / "referee", "crashes", at=30))
    init_course(tmp_path / "course", ["connect4_java"])
    monkeypatch.chdir(tmp_path / "course")
    try:
        code, out, err = grader_cli(capsys, "check", GAME / "skeleton", "--assignment", "connect4_java")
    finally:
        program(Connect4Game.referee).close()
    assert code != 0
    said = out + err
    assert "The check could not be finished, and says nothing about the submission" in said, said
    assert "the test's faulty referee (Main.java) failed on 'play' (its process exited with status 3)" in said
    assert "did not pass" not in said and "Result:" not in said


def test_a_machine_that_cannot_run_the_referee_refuses_to_grade_with_one_sentence(tmp_path, monkeypatch, capsys):
    """No sources (as no JDK, or no compiler for its kind): check and run refuse, saying which game
    and why, before any submission is looked at."""
    monkeypatch.setenv("GRADER_STAGE_DIR", str(tmp_path / "staged"))
    monkeypatch.setattr(Connect4Game, "referee", Referee(sources=tmp_path / "nowhere", title="the lost referee"))
    init_course(tmp_path / "course", ["connect4_java"])
    monkeypatch.chdir(tmp_path / "course")
    for argv in (("check", GAME / "skeleton", "--assignment", "connect4_java"), ("run", "connect4_java")):
        code, out, err = grader_cli(capsys, *argv)
        assert code != 0
        assert (f"The game connect4_java cannot be played on this machine, so nothing is graded here: the lost "
                f"referee has no sources folder {tmp_path / 'nowhere'}.") in out + err, out + err
