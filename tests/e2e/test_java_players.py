"""Java players for Das Bohnenspiel, as students and instructors meet them: `grader check` on each
bundled Java example, and a league mixing Java and Python players."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from sandbox import java

pytestmark = pytest.mark.skipif(java.unavailable_reason() is not None, reason=java.unavailable_reason() or "")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "submissions" / "bohnenspiel"


@pytest.mark.parametrize("example, status, expected", [
    ("java_random", 0, ["PASS  Compilation (javac)", "PASS  Interface", "PASS  Legal moves"]),
    ("java_greedy_student", 0, ["PASS  Compilation (javac)", "PASS  Smoke games", "win"]),
    ("java_does_not_compile/StudentPlayer.java", 1, [
        "FAIL  Compilation (javac)", "StudentPlayer.java does not compile: 2 error(s), javac's messages are below.",
        "student_player/StudentPlayer.java:17: error: cannot find symbol", "symbol:   method getAllMoves()",
        "incompatible types: BohnenspielMove cannot be converted to int"]),
    # late on its third move, killed on its fifth (the course's clock: wall-clock time): the probes'
    # fresh second opinion answers legally (a late or stopped reused instance), the smoke games show
    # both (a random move, then a loss)
    ("java_slow", 0, ["PASS  Legal moves", "on move 5: ", "the limit is 0.7 s",
                      "the course plays a random move instead", "loss (killed)"]),
    ("java_data_reader", 0, ["PASS  Interface", "data/pit_weights.csv could not be read again on move 2",
                             "(Permission denied); the course plays a random move instead and the game goes on",
                             "moves replaced by random ones"]),      # boardgame.Client's rule for a throwing chooseMove
])
def test_each_java_example_through_grader_check(cli, example, status, expected):
    result = cli("check", EXAMPLES / example, "--assignment", "bohnenspiel")
    assert result.status == status, result.text
    for text in expected:
        assert text in result.out, result.text


def test_check_finds_the_assignment_from_a_java_file(cli):
    result = cli("check", EXAMPLES / "java_random" / "student_player" / "StudentPlayer.java")
    assert result.status == 0 and "Das Bohnenspiel" in result.out, result.text


def test_a_league_mixes_java_and_python_players(tmp_path, cli):
    subs = tmp_path / "subs"
    for name in ("java_greedy_student", "java_random", "greedy_student", "java_does_not_compile"):
        shutil.copytree(EXAMPLES / name, subs / name)
    block = {"ruleset": "bohnenspiel", "submissions": "subs", "reports": "out", "options": {"read_once": ["data"]},
             "validation": {"smoke_games": 0, "stages": {"legal_moves": {"required": False}}},
             "league": {"format": "round_robin", "builtins": ["random"], "games_per_pair": 2, "seed": 5,
                        "concurrency": 2, "collusion": {"replay": False}}, "grading": {"kind": "interpolate"}}
    # no collusion replay: its extra games follow the games' luck (a CI run met a greedy player losing
    # to random, replayed: 14 played), and what is tested here is Java and Python in one league
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"assignments": {"b": block}}), encoding="utf-8")
    result = cli("--config", config, "run", "b", "--quiet", "--no-report")
    assert result.status == 0, result.text
    doc = json.loads((tmp_path / "out" / "results.json").read_text())
    rows = {s["id"]: s for s in doc["submissions"]}
    assert rows["java_does_not_compile"]["status"] == "failed"
    assert "compile" in rows["java_does_not_compile"]["status_detail"]
    for name in ("java_greedy_student", "java_random", "greedy_student"):
        assert rows[name]["games"] == 6, rows[name]          # 3 opponents (incl. random), 2 games each
    assert "0 games reused, 12 played" in result.out


API_SURFACE = """package student_player;

import java.util.ArrayList;

import boardgame.BoardState;
import boardgame.Move;
import boardgame.Server;
import bohnenspiel.BohnenspielBoardState;
import bohnenspiel.BohnenspielMove;
import bohnenspiel.BohnenspielMove.MoveType;
import bohnenspiel.BohnenspielPlayer;

/** Every course member real players use (rules file 2.9a), in one player. */
public class StudentPlayer extends BohnenspielPlayer {
    public StudentPlayer() { super("260000099"); }

    @Override
    public void gameOver(String msg, BoardState bs) { System.err.println(msg); }

    public Move chooseMove(BohnenspielBoardState board_state) {
        long budget = board_state.getTurnNumber() == 0 ? Server.FIRST_MOVE_TIMEOUT : Server.DEFAULT_TIMEOUT;
        BohnenspielBoardState fresh = new BohnenspielBoardState();
        int width = BohnenspielBoardState.BOARD_WIDTH * 2 + fresh.firstPlayer() + fresh.getCredit(0) - 2;
        int[][] pits = board_state.getPits();
        ArrayList<BohnenspielMove> moves = board_state.getLegalMoves();
        BohnenspielMove best = moves.get(0);
        for (BohnenspielMove m : moves) {
            BohnenspielBoardState next = (BohnenspielBoardState) board_state.clone();
            next.move(m);
            int w = next.getWinner();
            boolean decided = w != BohnenspielBoardState.NOBODY && w != BohnenspielBoardState.DRAW
                    && w != BohnenspielBoardState.CANCELLED0 && w != BohnenspielBoardState.CANCELLED1;
            if (next.gameOver() && decided && w == player_id) best = m;
            if (m.getMoveType() == MoveType.PIT && m.getPit() < width && pits[getColor()][m.getPit()] > 0
                    && next.getScore(player_id) - next.getScore(opponent_id) > 0 && !decided) best = m;
        }
        if (best.getMoveType().equals(MoveType.NOTHING) || !board_state.isLegal(best)
                || board_state.getTurnPlayer() != player_id || budget <= 0) {
            return board_state.getRandomMove();
        }
        String text = best.toTransportable() + " / " + best.toPrettyString() + " / " + best.getMoveType().name()
                + " / " + board_state.toString().length();
        Move same = new BohnenspielMove(best.toTransportable());
        Move other = best.getMoveType() == MoveType.SKIP ? new BohnenspielMove("skip", player_id)
                : new BohnenspielMove(best.getPit());
        return text.isEmpty() ? new BohnenspielMove() : (same.getPlayerID() == player_id ? same : other);
    }
}
"""


def test_every_course_member_real_players_use_compiles_and_plays(tmp_path, cli):
    (tmp_path / "surface").mkdir()
    (tmp_path / "surface" / "StudentPlayer.java").write_text(API_SURFACE)
    result = cli("check", tmp_path / "surface", "--assignment", "bohnenspiel")
    assert result.status == 0, result.text
    assert "PASS  Compilation (javac)" in result.out and "PASS  Legal moves" in result.out, result.text


FRAMEWORK_SURFACE = """package student_player;

import java.util.ArrayList;

import boardgame.Board;
import boardgame.BoardPanel;
import boardgame.BoardState;
import boardgame.Move;
import boardgame.Player;
import boardgame.Server;
import bohnenspiel.BohnenspielBoard;
import bohnenspiel.BohnenspielBoardState;
import bohnenspiel.BohnenspielBoardState.Direction;
import bohnenspiel.BohnenspielMove;
import bohnenspiel.BohnenspielPlayer;

/** The rest of the course framework's public classes and signatures a player can name (issue 30). */
public class StudentPlayer extends BohnenspielPlayer {
    private Board replay;

    public StudentPlayer() { super("260000098"); }

    @Override
    public void movePlayed(BoardState board_state, Move move) { }

    public Move chooseMove(BohnenspielBoardState board_state) {
        if (replay == null) {
            replay = createBoard();
            BoardPanel panel = replay.createBoardPanel();
            String logs = Server.log_dir + panel.getClass().getSimpleName();
            System.err.println(logs + replay.getNumberOfPlayers() + replay.getNameForID(1) + Board.NOBODY);
        }
        BohnenspielBoard board = new BohnenspielBoard();
        Board copy = (Board) board.clone();
        int seat = copy.getIDForName(copy.getNameForID(player_id)) + copy.getTurnPlayer() - copy.getTurnPlayer();
        int[][] pits = board_state.getPits();
        BohnenspielBoardState same = new BohnenspielBoardState(pits, board_state.getTurnNumber(),
                board_state.getWinner(), board_state.getTurnPlayer(), board_state.firstPlayer(),
                new int[] {board_state.getScore(0), board_state.getScore(1)},
                new int[] {board_state.getCredit(0), board_state.getCredit(1)}, new int[] {0, 0});
        BoardState abstractState = same;
        Move any = abstractState.getRandomMove();
        int next = same.getNextPit(0, Direction.CCW) + same.getNextPit(0, BohnenspielBoardState.Direction.CW);
        ArrayList<BohnenspielMove> moves = board_state.getLegalMoves();
        BohnenspielMove best = moves.get(0);
        best.setFromBoard(false);
        Move parsed = copy.parseMove(best.toTransportable());
        parsed.setPlayerID(seat);
        boolean logged = parsed.doLog() || parsed.getReceivers() != null || best.getFromBoard();
        Player self = this;
        if (!abstractState.isInitialized() || any == null || next < 0 || self.getName().isEmpty() || !logged
                && best.getMoveType() == BohnenspielMove.MoveType.PIT) {
            same.setWinner(Board.DRAW);
        }
        return best;
    }
}
"""


def test_every_public_class_of_the_course_framework_compiles_and_plays(tmp_path, cli):
    """Board, BoardPanel, BohnenspielBoard, the full BoardState and Move, Direction, the full
    constructor: code that compiled against the course's framework compiles here."""
    (tmp_path / "framework").mkdir()
    (tmp_path / "framework" / "StudentPlayer.java").write_text(FRAMEWORK_SURFACE)
    result = cli("check", tmp_path / "framework", "--assignment", "bohnenspiel")
    assert "PASS  Compilation (javac)" in result.out, result.text
    assert "PASS  Legal moves" in result.out and result.status == 0, result.text


TOLD = """package student_player;

import bohnenspiel.BohnenspielBoardState;
import bohnenspiel.BohnenspielMove;
import bohnenspiel.BohnenspielPlayer;
import grader_shim.CallTime;

/** Says on its second move what the grader told it on its first two. */
public class StudentPlayer extends BohnenspielPlayer {
    private String first = null;

    public StudentPlayer() { super("260000098"); }

    public BohnenspielMove chooseMove(BohnenspielBoardState board_state) {
        String told = CallTime.limitSeconds() + " s on the " + CallTime.clock() + " clock";
        if (first != null) {
            throw new RuntimeException("told first " + first + ", then " + told);
        }
        first = told;
        return board_state.getLegalMoves().get(0);
    }
}
"""


def test_a_java_player_is_told_what_remains_of_its_first_move_allowance_then_the_move_limit(tmp_path, cli):
    """In a game: the first move's limit is the course's 30 s less what start and setup used, a
    later move's the course's 0.7 s, on its wall clock (tests/sandbox/test_java.py: both clocks)."""
    (tmp_path / "told" / "student_player").mkdir(parents=True)
    (tmp_path / "told" / "student_player" / "StudentPlayer.java").write_text(TOLD, encoding="utf-8")
    result = cli("check", tmp_path / "told", "--assignment", "bohnenspiel")
    said = re.findall(r"told first (\d+\.\d+) s on the (\w+) clock, then (\d+\.\d+) s on the (\w+) clock", result.out)
    assert said, result.text
    for first, first_clock, later, later_clock in said:
        assert 0 < float(first) < 30 and float(later) == 0.7, result.out
        assert first_clock == later_clock == "wall", result.out
