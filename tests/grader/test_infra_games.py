"""A player killed by something the grader did not do costs its student nothing when the grader
recorded a host fault meanwhile (issue 33): the game is an `infra` result, which the league replays
and never scores. Without such evidence the same SIGKILL is the player's own end (issue 38): the
game is scored, a loss for that player."""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from grader.assignment import load_assignments
from grader.match import play_game, player_factory
from grader.submissions import load
from sandbox import blame

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


def game_killed_from_outside(tmp_path, monkeypatch, prefork: bool):
    """Alice against Bob, Alice SIGKILLed from outside before her second move."""
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
    return result


@pytest.fixture
def host_fault(monkeypatch):
    """The host records a fault during every player's life (the kernel's OOM killer at work)."""
    monkeypatch.setattr(blame.HostWitness, "fault", lambda self, has_cgroup: "the kernel's OOM killer acted")


@pytest.mark.parametrize("prefork", [False, True])
def test_a_foreign_kill_with_a_host_fault_makes_an_infra_game(tmp_path, monkeypatch, host_fault, prefork):
    result = game_killed_from_outside(tmp_path, monkeypatch, prefork)
    assert result.reason == "infra" and result.infra_error, (result.reason, result.detail)
    assert result.points == (0, 0)
    assert "did not send" in result.detail and "OOM killer" in result.detail
    assert [p.kills for p in result.players] == [[], []]      # the game's record: the grader killed no one


@pytest.mark.parametrize("prefork", [False, True])
def test_a_foreign_kill_without_evidence_is_a_scored_loss(tmp_path, monkeypatch, prefork):
    result = game_killed_from_outside(tmp_path, monkeypatch, prefork)
    assert result.infra_error is None and result.reason == "crash", (result.reason, result.detail)
    assert result.points == (0.0, 1.0)


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


def test_a_probe_position_spoiled_by_the_machine_is_asked_again(tmp_path, monkeypatch, host_fault):
    from grader.validation import validate

    monkeypatch.setenv("GRADER_STAGE_DIR", str(tmp_path / "staged"))
    monkeypatch.setattr(KillOnce, "done", False)
    assignment = load_assignments(ROOT / "config.yaml")["quoridor"]
    alice = load(ROOT / "submissions" / "quoridor" / "alice", assignment.ruleset.entry, 10.0)
    real = player_factory(assignment)
    report = validate(assignment, alice, factory=lambda **kw: KillOnce(real(**kw)), smoke=False, workers=1)
    assert KillOnce.done
    assert all(c.passed for c in report.checks), [(c.name, c.message) for c in report.checks if not c.passed]
