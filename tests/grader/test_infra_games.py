"""A player killed by something the grader did not do (another process's SIGKILL) costs its
student nothing (issue 33): the game is an `infra` result, which the league replays and never
scores, not a crash of the player."""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from grader.assignment import load_assignments
from grader.match import play_game, player_factory
from grader.submissions import load

ROOT = Path(__file__).resolve().parents[2]


class KilledFromOutside:
    """The real player; before its second move, something else on the machine SIGKILLs it."""

    def __init__(self, player) -> None:
        self.player, self.moves = player, 0

    def call(self, method, args=None, soft=None):
        if method == "move":
            self.moves += 1
            if self.moves == 2:
                os.kill(self.player.proc.pid, signal.SIGKILL)
                time.sleep(0.2)
        return self.player.call(method, args, soft)

    def __getattr__(self, name):
        return getattr(self.player, name)


@pytest.mark.parametrize("prefork", [False, True])
def test_a_foreign_kill_makes_an_infra_game(tmp_path, monkeypatch, prefork):
    monkeypatch.setenv("GRADER_STAGE_DIR", str(tmp_path / "staged"))
    assignment = load_assignments(ROOT / "config.yaml")["quoridor"]
    alice = load(ROOT / "submissions" / "quoridor" / "alice", assignment.ruleset.entry, 10.0)
    bob = load(ROOT / "submissions" / "quoridor" / "bob", assignment.ruleset.entry, 10.0)
    real = player_factory(assignment)
    seats = []

    def factory(**kw):
        kw["prefork"] = True if prefork else None
        p = real(**kw)
        seats.append(p)
        return KilledFromOutside(p) if len(seats) == 1 else p

    result = play_game(assignment, alice, bob, seed=7, factory=factory)
    assert result.reason == "infra" and result.infra_error, (result.reason, result.detail)
    assert result.points == (0, 0)
    assert "did not send" in result.detail
    assert [p.kills for p in result.players] == [[], []]      # the game's record: the grader killed no one


class KillOnce:
    """Wraps one player; the first probe call of the whole check finds it SIGKILLed from outside."""

    done = False

    def __init__(self, player) -> None:
        self.player = player

    def call(self, method, args=None, soft=None):
        if method not in ("setup", "interface") and not KillOnce.done:
            KillOnce.done = True
            os.kill(self.player.proc.pid, signal.SIGKILL)
            time.sleep(0.2)
        return self.player.call(method, args, soft)

    def __getattr__(self, name):
        return getattr(self.player, name)


def test_a_probe_position_spoiled_by_the_machine_is_asked_again(tmp_path, monkeypatch):
    from grader.validation import validate

    monkeypatch.setenv("GRADER_STAGE_DIR", str(tmp_path / "staged"))
    monkeypatch.setattr(KillOnce, "done", False)
    assignment = load_assignments(ROOT / "config.yaml")["quoridor"]
    alice = load(ROOT / "submissions" / "quoridor" / "alice", assignment.ruleset.entry, 10.0)
    real = player_factory(assignment)
    report = validate(assignment, alice, factory=lambda **kw: KillOnce(real(**kw)), smoke=False, workers=1)
    assert KillOnce.done
    assert all(c.passed for c in report.checks), [(c.name, c.message) for c in report.checks if not c.passed]
