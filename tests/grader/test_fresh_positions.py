"""Positions that each need a fresh player process are independent: validation asks one per core
at once, keeps the results in case order, and still stops after four stopped players."""
from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from grader import validation
from grader.assignment import load_assignments
from grader.submissions import Submission
from rulesets.base import Mismatch, Probe, ProbeCase
from sandbox import CallResult, Verdict

CONFIG = Path(__file__).resolve().parents[2] / "config.yaml"


class FakePlayer:
    """A player process stand-in: each answer takes `delay` s; `dies` makes every call kill it."""

    running = 0
    most = 0
    lock = threading.Lock()

    def __init__(self, dies=False, delay=0.3, **kwargs):
        self.dies, self.delay, self.alive = dies, delay, True

    def start(self):
        return CallResult(Verdict.OK)

    def call(self, method, args, soft=None):
        with FakePlayer.lock:
            FakePlayer.running += 1
            FakePlayer.most = max(FakePlayer.most, FakePlayer.running)
        time.sleep(self.delay)
        with FakePlayer.lock:
            FakePlayer.running -= 1
        if self.dies:
            self.alive = False
            return CallResult(Verdict.CRASHED, message="the player died")
        return CallResult(Verdict.OK, value=str(args["n"]))   # a move: the shape Double Card declares

    def close(self):
        return None


def _probe(n_cases):
    def cases(game, seed):
        return [ProbeCase(f"case {n}", None, "move", {"n": n},
                          check=lambda v: None if int(v) % 3 else
                          Mismatch(f"case {v} is wrong"), fresh=True)
                for n in range(n_cases)]
    return Probe("p", "P", 1.0, cases)


@pytest.fixture
def assignment():
    return load_assignments(CONFIG)["doublecard"]


def test_fresh_positions_run_one_per_core_and_keep_their_order(assignment):
    FakePlayer.most = 0
    sub = Submission("s", Path("."), staged=Path("."))
    check = validation._probe(assignment, sub, _probe(6), lambda **kw: FakePlayer(**kw), workers=2)
    assert FakePlayer.most == 2
    assert check.message.startswith("2 of 6 positions answered wrongly. First: case 0: case 0 is wrong")
    FakePlayer.most = 0
    validation._probe(assignment, sub, _probe(4), lambda **kw: FakePlayer(**kw), workers=1)
    assert FakePlayer.most == 1


def test_fresh_positions_in_parallel_still_stop_after_four_stopped_players(assignment):
    sub = Submission("s", Path("."), staged=Path("."))
    started = []

    def factory(**kw):
        started.append(1)
        return FakePlayer(dies=True, delay=0.05)

    check = validation._probe(assignment, sub, _probe(12), factory, workers=2)
    assert len(started) == 4
    assert check.message.endswith("The player was stopped in 4 positions, so the other 8 were not tried.")


class GameInstance:
    """A player instance that is stopped (killed) on its second call, whatever the position: only a
    fresh instance asked again can tell that the position was answerable. Records what it saw."""

    seen: list[list] = []

    def __init__(self, **kwargs):
        self.alive, self.calls = True, 0
        GameInstance.seen.append([])

    def start(self):
        return CallResult(Verdict.OK)

    def call(self, method, args, soft=None):
        if method == "setup":
            return CallResult(Verdict.OK)
        self.calls += 1
        GameInstance.seen[-1].append(args["n"])
        if self.calls == 2:
            self.alive = False
            return CallResult(Verdict.KILLED, message="No answer after 3 s: the player was killed.")
        return CallResult(Verdict.OK, value=str(args["n"]))

    def close(self):
        return None


def test_one_instance_per_game_and_a_stop_gets_a_fresh_second_opinion(assignment):
    """Issue 30: an instance sees one game's positions only, in order; a reused instance stopped on
    a position is replaced by a fresh one asked the same position before anything is counted."""
    def cases(game, seed):
        return [ProbeCase(f"game {g} turn {t}", None, "move", {"n": 10 * g + t}, check=lambda v: None,
                          setup=[("setup", {})], reuse=True, game=f"game {g}") for g in (1, 2) for t in (1, 2, 3)]

    GameInstance.seen = []
    sub = Submission(id="s", source=Path("."), staged=Path("."), content_hash="h")
    check = validation._probe(assignment, sub, Probe("p", "P", 1.0, cases), lambda **kw: GameInstance(**kw))
    assert check.passed, check.message
    assert all(len({n // 10 for n in seen}) == 1 for seen in GameInstance.seen)     # never two games
    assert all(seen == sorted(seen) for seen in GameInstance.seen)                  # in the game's order
    assert [11, 12] in GameInstance.seen and [12, 13] in GameInstance.seen          # stopped, then asked afresh


def test_a_probes_setup_says_what_a_games_setup_says(assignment):
    """Issue 27: a player cannot tell a check from a game by its calls: the probe's setup carries the
    player's own name and the assignment's options, as play_game's does."""
    said = []

    class Recorder(GameInstance):
        def call(self, method, args, soft=None):
            if method == "setup":
                said.append(args)
            return CallResult(Verdict.OK, value="1")

    def cases(game, seed):
        return [ProbeCase("c", None, "move", {"n": 1}, check=lambda v: None,
                          setup=[("setup", {"seat": 0, "name": "probe", "options": {}})], fresh=True)]

    sub = Submission(id="s", name="Ada", source=Path("."), staged=Path("."), content_hash="h")
    validation._probe(assignment, sub, Probe("p", "P", 1.0, cases), lambda **kw: Recorder(**kw))
    assert said == [{"seat": 0, "name": "Ada", "options": assignment.config.options}]
