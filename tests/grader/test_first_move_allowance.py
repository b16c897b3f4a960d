"""One first-move allowance covers loading the submission, `setup` and the first move.

The courses give one allowance for the first move (McGill: 30 s; BRUTE: 30 s for set-up and the
first move); a player must not get it three times over by thinking at import, in set-up and in
its first move. Each call gets what is left as its soft limit; from the second move on, the
per-move limit applies.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from grader.assignment import resolve
from grader.config import AssignmentConfig
from grader.match import Allowance, play_game, player_factory
from grader.submissions import Submission, builtin, load
from sandbox import CallResult, ProcessReport, Verdict

RANDOM_PLAYER = Path(__file__).resolve().parents[2] / "rulesets" / "quoridor" / "players" / "random" / "player.py"


class Timed:
    """A fake player process whose start and setup take the times in `spent` (seconds)."""

    spent: dict[str, float] = {}
    softs: list[tuple[str, float | None]] = []

    def __init__(self, shim, submission, limits, options, name, seed=None):
        self.name = Path(submission).name
        self.limits = limits

    def start(self):
        t = self.spent.get("start", 0.0)                          # thinking: CPU and wall time alike
        return CallResult(Verdict.LATE if t > self.limits.start_s else Verdict.OK, wall_s=t, cpu_s=t,
                          message="Answered late." if t > self.limits.start_s else "")

    def call(self, method, args=None, soft=None):
        if self.name == "p0":
            self.softs.append((method, soft))
        if method != "move":
            t = self.spent.get(method, 0.0)
            return CallResult(Verdict.OK, wall_s=t, cpu_s=t)
        from rulesets.colosseum import ColosseumGame
        state = ColosseumGame(board_size=5).state_from_json(args["state"])
        return CallResult(Verdict.OK, value=state.move_to_json(state.legal_moves()[0]), wall_s=0.01, cpu_s=0.01)

    def close(self):
        return ProcessReport()


def colosseum(first: float, move: float, **limits):
    cfg = AssignmentConfig(ruleset="colosseum", submissions="x", game={"board_size": 5},
                           limits={"first_move_s": first, "move_s": move, **limits})
    return resolve("t", cfg, Path("."))


def fake(name: str) -> Submission:
    return Submission(id=name, source=Path(name), staged=Path("/fake") / name, content_hash=name * 8)


def test_setup_and_the_first_move_get_what_loading_left():
    Timed.spent, Timed.softs = {"start": 4.0, "setup": 3.0}, []
    result = play_game(colosseum(9, 1), fake("p0"), fake("p1"), seed=3, factory=Timed)
    assert result.reason != "timeout"
    assert Timed.softs[0] == ("setup", 5.0)
    moves = [soft for method, soft in Timed.softs if method == "move"]
    assert moves[0] == pytest.approx(2.0) and set(moves[1:]) == {1}


def test_a_player_that_used_the_allowance_before_its_first_move_is_late_without_being_asked():
    Timed.spent, Timed.softs = {"start": 5.0, "setup": 5.0}, []
    result = play_game(colosseum(9, 1), fake("p0"), fake("p1"), seed=3, factory=Timed)
    first = result.players[0].incidents[0]
    assert first["kind"] == "timeout" and first["ply"] == 0
    assert "used 10.000 s of the first-move allowance of 9 s (loading, setup and the first move together)" \
        in first["message"]
    assert result.players[0].incidents[1]["kind"] == "substituted"          # McGill: a random move instead
    assert [m for m, _ in Timed.softs][:2] == ["setup", "move"]               # the first move was not asked
    assert Timed.softs[1][1] == 1                                              # the second one was


def test_loading_with_its_own_limit_leaves_the_whole_allowance_to_setup_and_the_first_move():
    Timed.spent, Timed.softs = {"start": 4.0, "setup": 3.0}, []
    a = colosseum(9, 1, load_s=5)
    assert a.limits().start_s == 5
    result = play_game(a, fake("p0"), fake("p1"), seed=3, factory=Timed)
    assert result.reason != "start_failed", result.detail
    assert Timed.softs[0] == ("setup", 9.0)
    assert next(soft for method, soft in Timed.softs if method == "move") == pytest.approx(6.0)


def test_a_player_that_loads_beyond_its_own_loading_limit_does_not_start():
    Timed.spent, Timed.softs = {"start": 4.0}, []
    result = play_game(colosseum(30, 1, load_s=2), fake("p0"), fake("p1"), seed=3, factory=Timed)
    assert result.reason == "start_failed" and "longer than its limit of 2 s" in result.detail, result.detail


def test_by_default_loading_shares_the_first_move_allowance_as_the_courses_ran_it():
    a = colosseum(9, 1)
    assert a.load_s is None and a.limits().start_s == 9


def test_the_allowance_charges_the_clock_the_limits_measure():
    class CpuLimits:
        clock = "cpu"
    wall, cpu = Allowance(5.0), Allowance(5.0, CpuLimits())
    for a in (wall, cpu):
        a.spend(CallResult(Verdict.OK, wall_s=3.0, cpu_s=1.0))
    assert wall.left == 2.0 and cpu.left == 4.0
    wall.spend(CallResult(Verdict.OK, wall_s=3.0))
    assert wall.left == 0.0 and wall.late().verdict is Verdict.LATE


SLOW_START = '''

import time as _time


def _think(seconds):
    t0 = _time.process_time()
    while _time.process_time() - t0 < seconds:
        pass


_think(SECONDS)
_Base = Player


class Player(_Base):
    def initialization(self, *args):
        _think(SECONDS)
        return _Base.initialization(self, *args)
'''


def quoridor(prefork: bool):
    cfg = AssignmentConfig(ruleset="quoridor", submissions="x", game={"sizex": 5, "sizey": 5},
                           limits={"first_move_s": 3, "move_s": 2, "kill_after_s": 10},
                           league={"prefork": prefork})
    return resolve("t", cfg, Path("."))


def slow(tmp_path: Path, seconds: float) -> Submission:
    folder = tmp_path / f"slow{seconds}"
    folder.mkdir()
    (folder / "player.py").write_text(RANDOM_PLAYER.read_text() + SLOW_START.replace("SECONDS", str(seconds)))
    return load(folder, "player.py", 10.0)


@pytest.mark.parametrize("prefork", [False, True], ids=["spawn", "prefork"])
def test_loading_and_setup_count_against_the_first_move(tmp_path, prefork):
    """1.6 s of CPU at import and 1.6 s in initialization(): each within 3 s, together beyond it;
    0.3 s and 0.3 s leave time for the first move."""
    a = quoridor(prefork)
    opponent = builtin(a.ruleset, "random")
    result = play_game(a, slow(tmp_path, 1.6), opponent, seed=4, factory=player_factory(a))
    assert result.infra_error is None
    assert result.reason == "timeout" and result.points == (0.0, 1.0), result.detail
    assert "of the first-move allowance of 3 s" in result.detail
    result = play_game(a, slow(tmp_path, 0.3), opponent, seed=4, factory=player_factory(a))
    assert result.infra_error is None and result.reason not in ("timeout", "killed"), result.detail
    assert len(result.moves) > 2
