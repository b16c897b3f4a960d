"""A player lost to a host fault the grader recorded -- the template that forked it killed -- costs its
student nothing (issue 33): the game is an `infra` result, which the league replays and never
scores, and a probe position is asked again. A SIGKILL of the player itself, from anyone, is no such
evidence (issue 38, sandbox/blame.py): the game is scored, a loss for that player."""
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


def template_of(pid: int) -> int:
    """The parent of a pre-forked player: its template."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("PPid:")).split()[1])


def kill(player, what: str) -> None:
    """SIGKILL the player itself, or the template that forked it (its players die with it)."""
    os.kill(player.proc.pid if what == "player" else template_of(player.proc.pid), signal.SIGKILL)
    time.sleep(0.2)


class KilledFromOutside:
    """The real player; before its second move, something else on the machine SIGKILLs it (or its
    template: `what`)."""

    def __init__(self, player, what: str = "player") -> None:
        self.player, self.moves, self.what = player, 0, what

    def call(self, method, args=None, soft=None):
        if method == "move":
            self.moves += 1
            if self.moves == 2:
                kill(self.player, self.what)
        return self.player.call(method, args, soft)

    def __getattr__(self, name):
        return getattr(self.player, name)


def game_killed_from_outside(tmp_path, monkeypatch, prefork: bool, what: str = "player"):
    """Alice against Bob, Alice (or her template) SIGKILLed from outside before her second move."""
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
        return KilledFromOutside(p, what) if len(seats) == 1 else p

    result = play_game(assignment, alice, bob, seed=7, factory=factory)
    return result


def test_a_lost_template_makes_an_infra_game(tmp_path, monkeypatch):
    result = game_killed_from_outside(tmp_path, monkeypatch, True, what="template")
    assert result.reason == "infra" and result.infra_error, (result.reason, result.detail)
    assert result.points == (0, 0)
    assert "template" in result.detail
    assert result.players[0].kills == []          # the game's record: the grader did not kill her


@pytest.mark.parametrize("prefork", [False, True])
def test_a_foreign_kill_without_evidence_is_a_scored_loss(tmp_path, monkeypatch, prefork):
    result = game_killed_from_outside(tmp_path, monkeypatch, prefork)
    assert result.infra_error is None and result.reason == "crash", (result.reason, result.detail)
    assert result.points == (0.0, 1.0)


class KillOnce:
    """Wraps one player; the first probe call of the whole check finds its template SIGKILLed."""

    done = False

    def __init__(self, player) -> None:
        self.player = player

    def call(self, method, args=None, soft=None):
        if method not in ("setup", "interface") and not KillOnce.done:
            KillOnce.done = True
            kill(self.player, "template")
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
