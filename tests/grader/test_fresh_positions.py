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
        return CallResult(Verdict.OK, value={"answers": [str(args["n"])]})   # the shape Double Card declares

    def close(self):
        return None


def _probe(n_cases):
    def cases(game):
        return [ProbeCase(f"case {n}", None, "probe_step", {"n": n},
                          check=lambda v: None if int(v["answers"][0]) % 3 else
                          Mismatch(f"case {v['answers'][0]} is wrong"), fresh=True)
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
