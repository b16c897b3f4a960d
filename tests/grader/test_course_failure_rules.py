"""The course's failure rules as data, applied and told: Bohnenspiel's client plays a random move
for a chooseMove that throws or returns null (the game goes on), its server scores an illegal move
as a lost game; a Java Error (which the client did not catch: it ended, and the server played a
random move at each of that player's later turns) gets random moves for the rest of the game
without the player being asked again; Colosseum's World plays a random walk for anything; Double
Card loses. Real
sandboxed players of our own, in both start modes (pre-forked and spawned), Python and Java."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulesets
from grader import selftest
from grader.assignment import resolve
from grader.config import AssignmentConfig
from grader.match import play_game
from grader.submissions import builtin, load
from rulesets.base import BadParams, Policy
from sandbox import java

BOHNENSPIEL_PY = """
from bohnenspiel import BohnenspielPlayer

class StudentPlayer(BohnenspielPlayer):
    def __init__(self):
        super().__init__("260000001")
        self.turns = 0

    def choose_move(self, board_state):
        self.turns += 1
        if self.turns == 2:
            return [][3]                       # IndexError
        if self.turns == 3:
            return None
        if self.turns == 4 and {MOVE4!r}:
            return {MOVE4}
        return board_state.get_legal_moves()[0]
"""

BOHNENSPIEL_JAVA = """package student_player;

import boardgame.Move;
import bohnenspiel.BohnenspielBoardState;
import bohnenspiel.BohnenspielPlayer;

public class StudentPlayer extends BohnenspielPlayer {
    private int turns = 0;

    public StudentPlayer() { super("260000002"); }

    public Move chooseMove(BohnenspielBoardState board_state) {
        turns++;
        if (turns == 2) {
            return board_state.getLegalMoves().get(99);     // IndexOutOfBoundsException
        }
        if (turns == 3) {
            return null;
        }
        return board_state.getLegalMoves().get(0);
    }
}
"""


BOHNENSPIEL_JAVA_ERROR = """package student_player;

import boardgame.Move;
import bohnenspiel.BohnenspielBoardState;
import bohnenspiel.BohnenspielPlayer;

public class StudentPlayer extends BohnenspielPlayer {
    private int turns = 0;

    public StudentPlayer() { super("260000003"); }

    private int depth(int n) {
        return depth(n + 1) + 1;                 // no base case: java.lang.StackOverflowError
    }

    public Move chooseMove(BohnenspielBoardState board_state) {
        turns++;
        if (turns == 2) {
            depth(0);
        }
        if (turns > 2) {
            throw new IllegalStateException("asked again after its Error, as the course never did");
        }
        return board_state.getLegalMoves().get(0);
    }
}
"""


def bohnenspiel(tmp_path: Path, prefork: bool, **policy):
    return resolve("b", AssignmentConfig(ruleset="bohnenspiel", submissions=".", league={"prefork": prefork},
                                         limits={"first_move_s": 20, "move_s": 5}, policy=policy), tmp_path)


def incidents(result, seat: int) -> list[tuple[str, int | None, str]]:
    return [(i["kind"], i["ply"], i["message"]) for i in result.players[seat].incidents]


@pytest.fixture(params=[True, False], ids=["prefork", "spawn"])
def prefork(request):
    return request.param


def test_a_python_player_that_raises_or_returns_none_gets_random_moves_and_plays_on(tmp_path, prefork):
    folder = tmp_path / "sub"
    folder.mkdir()
    (folder / "student_player.py").write_text(BOHNENSPIEL_PY.replace("{MOVE4!r}", "False").replace("{MOVE4}", "0"))
    a = bohnenspiel(tmp_path, prefork)
    sub = load(folder, a.ruleset.entry, 10)
    result = play_game(a, sub, builtin(a.ruleset, "random"), seed=3)
    assert result.infra_error is None and result.reason not in ("error", "none"), result.detail
    told = incidents(result, 0)
    assert [k for k, _, _ in told[:4]] == ["error", "substituted", "none", "substituted"], told
    assert told[0][1] == 2 and told[2][1] == 4                 # the player's 2nd and 3rd moves: plies 2, 4
    assert "raised an exception in choose_move(): IndexError" in told[0][2]
    assert told[0][2].endswith("the course plays a random move instead and the game goes on.")
    assert "returned no move (choose_move returned None" in told[2][2]
    assert result.players[0].moves > 4                         # it went on playing


def test_an_illegal_move_still_loses_bohnenspiel(tmp_path, prefork):
    folder = tmp_path / "sub"
    folder.mkdir()
    illegal = "__import__('bohnenspiel').BohnenspielMove(0, 1 - self.player_id)"   # a pit of the other side
    (folder / "student_player.py").write_text(BOHNENSPIEL_PY.replace("{MOVE4!r}", "True").replace("{MOVE4}", illegal))
    a = bohnenspiel(tmp_path, prefork)
    result = play_game(a, load(folder, a.ruleset.entry, 10), builtin(a.ruleset, "random"), seed=3)
    assert result.reason == "illegal" and result.points == (0.0, 1.0), result.detail
    assert incidents(result, 0)[-1][2].endswith("the course scores the game as lost.")


@pytest.mark.skipif(java.unavailable_reason() is not None, reason=java.unavailable_reason() or "")
def test_a_java_chooseMove_that_throws_or_returns_null_gets_random_moves(tmp_path, prefork):
    folder = tmp_path / "sub" / "student_player"
    folder.mkdir(parents=True)
    (folder / "StudentPlayer.java").write_text(BOHNENSPIEL_JAVA)
    a = bohnenspiel(tmp_path, prefork)
    sub = load(tmp_path / "sub", a.ruleset.entry, 10, java=a.ruleset.java)
    result = play_game(a, builtin(a.ruleset, "random"), sub, seed=4)
    assert result.infra_error is None and result.reason not in ("error", "none"), result.detail
    told = incidents(result, 1)
    assert [k for k, _, _ in told[:4]] == ["error", "substituted", "none", "substituted"], told
    assert "threw an exception in chooseMove: java.lang.IndexOutOfBoundsException" in told[0][2]
    assert "the course plays a random move instead" in told[0][2]
    assert "chooseMove returned null" in told[2][2]


def java_submission(tmp_path: Path, source: str, a):
    folder = tmp_path / "sub" / "student_player"
    folder.mkdir(parents=True)
    (folder / "StudentPlayer.java").write_text(source)
    return load(tmp_path / "sub", a.ruleset.entry, 10, java=a.ruleset.java)


@pytest.mark.skipif(java.unavailable_reason() is not None, reason=java.unavailable_reason() or "")
def test_a_java_Error_stops_the_course_client_so_every_later_move_is_random(tmp_path, prefork):
    a = bohnenspiel(tmp_path, prefork)
    result = play_game(a, java_submission(tmp_path, BOHNENSPIEL_JAVA_ERROR, a), builtin(a.ruleset, "random"), seed=5)
    assert result.infra_error is None and result.reason not in ("uncaught", "error"), result.detail
    told = incidents(result, 0)
    assert {k for k, _, _ in told[1:]} == {"substituted"}, told     # never asked again: no "error" after it
    assert told[0][0] == "uncaught" and told[0][1] == 2
    assert len(told) - 1 == len(result.moves[2::2])                 # each of its later moves a random one
    assert "the course's client had stopped" in told[2][2]
    assert told[0][2] == ("threw java.lang.StackOverflowError in chooseMove, a Java Error, which the course's client "
                          "did not catch (it caught Exceptions only); the course's client stops there, so the "
                          "course's server plays a random move on each of the player's remaining turns and the "
                          "game goes on.")
    assert result.players[0].moves == 2                          # asked twice, then never again
    assert len(result.moves[0::2]) > 3                           # seat 0 went on moving, randomly, to the end


@pytest.mark.skipif(java.unavailable_reason() is not None, reason=java.unavailable_reason() or "")
def test_config_may_make_a_java_Error_lose_the_game(tmp_path, prefork):
    a = bohnenspiel(tmp_path, prefork, on_uncaught="forfeit")
    result = play_game(a, builtin(a.ruleset, "random"), java_submission(tmp_path, BOHNENSPIEL_JAVA_ERROR, a), seed=6)
    assert result.reason == "uncaught" and result.points == (1.0, 0.0), result.detail
    assert result.detail == ("The second player (sub) threw java.lang.StackOverflowError in chooseMove, a Java Error, "
                             "which the course's client did not catch (it caught Exceptions only) (move 4).")


def test_double_card_loses_a_game_to_a_None(tmp_path, prefork):
    folder = tmp_path / "sub"
    folder.mkdir()
    (folder / "player.py").write_text("class Player:\n    def __init__(self, role, first):\n        pass\n"
                                      "    def opponent_move(self, move):\n        pass\n"
                                      "    def choose_move(self):\n        return None\n")
    a = resolve("d", AssignmentConfig(ruleset="doublecard", submissions=".", league={"prefork": prefork},
                                      limits={"first_move_s": 20, "move_s": 5}), tmp_path)
    result = play_game(a, load(folder, a.ruleset.entry, 10), builtin(a.ruleset, "random"), seed=1)
    assert result.reason == "none" and result.points == (0.0, 1.0), result.detail
    assert "returned no move (choose_move() returned None" in result.detail


def test_each_ruleset_states_every_rule_and_config_may_override_it(tmp_path):
    for name in rulesets.names():
        if rulesets.load(name).game.unavailable() is None:     # a referee this machine cannot run: skipped
            selftest.failure_rules(rulesets.load(name))
    assert rulesets.load("bohnenspiel").defaults.policy == Policy(on_late="random", on_illegal="forfeit",
                                                                 on_error="random", on_none="random",
                                                                 on_uncaught="random_rest")
    a = resolve("b", AssignmentConfig(ruleset="bohnenspiel", submissions=".", policy={"on_none": "forfeit"}), tmp_path)
    assert a.policy.on_none == "forfeit" and a.policy.on_error == "random"
    with pytest.raises(BadParams):
        Policy(on_none="shrug")
