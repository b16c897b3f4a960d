"""The match driver's policies, with scripted players standing in for sandboxed processes.

This isolates the rules of engagement (who loses when, what is substituted, what a player is
told) from the sandbox, whose own tests cover the processes.
"""
from __future__ import annotations

from pathlib import Path

from grader.assignment import resolve
from grader.config import AssignmentConfig
from grader.match import play_game
from grader.submissions import Submission
from sandbox import CallResult, InProcessPlayer, Limits, PlayerProcess, ProcessReport, Verdict
from sandbox.player import Player
from sandbox.portable import PortablePlayerProcess


def assignment(**policy):
    cfg = AssignmentConfig(ruleset="colosseum", submissions="x", game={"board_size": 5},
                           policy=policy, limits={"first_move_s": 9, "move_s": 1})
    return resolve("t", cfg, Path("."))


class Scripted:
    """A fake player process: `script[i]` says how to answer the i-th move call."""

    scripts: dict[str, list[str]] = {}
    calls: dict[str, list] = {}

    def __init__(self, shim, submission, limits, options, name, seed=None):
        self.id = Path(submission).name
        self.script = self.scripts[self.id]
        self.calls[self.id] = []
        self.alive = True
        self.game = assignment().game
        self.n = 0

    def start(self):
        if self.script and self.script[0] == "nostart":
            self.alive = False
            return CallResult(Verdict.CRASHED, message="player.py could not be imported")
        return CallResult(Verdict.OK)

    def call(self, method, args=None, soft=None):
        self.calls[self.id].append((method, args, soft))
        if method != "move":
            return CallResult(Verdict.OK)
        how = self.script[self.n] if self.n < len(self.script) else "legal"
        self.n += 1
        state = self.game.state_from_json(args["state"])
        legal = state.move_to_json(state.legal_moves()[0])
        if how == "legal":
            return CallResult(Verdict.OK, value=legal, wall_s=0.01)
        if how == "illegal":
            return CallResult(Verdict.OK, value={"invalid": "step returned 'banana'"})
        if how == "late":
            return CallResult(Verdict.LATE, value=legal, wall_s=1.5)
        if how == "error":
            return CallResult(Verdict.ERROR, message="ZeroDivisionError: division by zero")
        if how == "crash":
            self.alive = False
            return CallResult(Verdict.CRASHED, message="the player died (signal SIGSEGV)")
        raise AssertionError(how)

    def close(self):
        return ProcessReport(peak_memory_mb=12.0, output="hello", exit_status="exit 0")


def sub(name: str) -> Submission:
    return Submission(id=name, source=Path(name), staged=Path("/fake") / name, content_hash=name * 8)


def play(a, script0, script1, seed=3):
    Scripted.scripts = {"p0": script0, "p1": script1}
    return play_game(a, sub("p0"), sub("p1"), seed, factory=Scripted)


def test_clean_game_ends_by_the_rules_and_times_are_kept():
    r = play(assignment(), [], [])
    assert r.reason == "board_decided" and r.infra_error is None
    assert len(r.moves) == len(r.times) == len(r.move_texts) > 0
    assert r.players[0].peak_memory_mb == 12.0 and r.players[0].output == "hello"


def test_first_move_gets_the_first_move_allowance():
    play(assignment(), [], [])
    softs = [soft for method, _, soft in Scripted.calls["p0"] if method == "move"]
    assert softs[0] == 9 and set(softs[1:]) == {1}


def test_illegal_move_forfeits_under_forfeit_policy():
    r = play(assignment(on_illegal="forfeit"), ["legal", "illegal"], [])
    assert r.points == (0.0, 1.0)
    assert r.reason == "illegal"
    assert "banana" in r.detail and "move 3" in r.detail
    assert not r.disqualified


def test_illegal_move_disqualifies_under_brute_policy():
    r = play(assignment(on_illegal="disqualify"), [], ["illegal"])
    assert r.points == (1.0, 0.0)
    assert 1 in r.disqualified and "banana" in r.disqualified[1]


def test_random_substitute_keeps_the_game_going_and_tells_the_player():
    r = play(assignment(on_late="random", on_error="random", on_illegal="random"), ["late", "error", "illegal"], [])
    assert r.reason == "board_decided"
    kinds = [i["kind"] for i in r.players[0].incidents]
    assert kinds[:6] == ["timeout", "substituted", "error", "substituted", "illegal", "substituted"]
    # The player hears about its own substituted move on its next turn.
    moves = [args for method, args, _ in Scripted.calls["p0"] if method == "move"]
    assert moves[1]["last"][0]["seat"] == 0
    assert moves[1]["last"][0]["move"] == r.moves[0]


def test_a_dead_process_loses_whatever_the_policy():
    r = play(assignment(on_error="random", on_illegal="random", on_late="random"), [], ["crash"])
    assert r.points == (1.0, 0.0)
    assert r.reason == "crash" and "SIGSEGV" in r.detail


def test_start_failures():
    r = play(assignment(), ["nostart"], [])
    assert r.points == (0.0, 1.0) and r.reason == "start_failed"
    r = play(assignment(), ["nostart"], ["nostart"])
    assert r.points == (0.0, 0.0)


def test_spawn_failure_is_the_graders_not_the_players():
    def broken(**kw):
        raise OSError("Resource temporarily unavailable")

    r = play_game(assignment(), sub("p0"), sub("p1"), 1, factory=broken)
    assert r.infra_error and r.reason == "infra"


def test_the_scripted_fake_is_a_player_as_the_real_ones_are(tmp_path):
    """One interface (sandbox.player.Player) for every player the grader drives; mypy checks the
    real classes against it, this the fake the tests use in their place."""
    Scripted.scripts["sub"] = []
    players = [Scripted("shim", tmp_path / "sub", Limits(), {}, "sub"),
               PlayerProcess("sandbox.module_shim", tmp_path, Limits()),
               PortablePlayerProcess("sandbox.module_shim", tmp_path, Limits()),
               InProcessPlayer("sandbox.module_shim", tmp_path)]
    assert all(isinstance(p, Player) for p in players)
    assert not isinstance(object(), Player)
