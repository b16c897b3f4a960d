"""Issue 40.7: probe cases of one line (one game cut at several lengths) are played in one process,
and each is judged exactly as if it had been played alone; both start modes for the real players."""
from __future__ import annotations

import functools
from pathlib import Path

import pytest

import sandbox
from grader import validation
from grader.assignment import load_assignments
from grader.submissions import Submission, load
from rulesets.base import Mismatch, Probe, ProbeCase
from sandbox import CallResult, Verdict

ROOT = Path(__file__).resolve().parents[2]


class Game:
    """A player process stand-in that answers turn n with "n", except on turn `wrong` (a bad answer)
    and from turn `dies` on (it is killed). Every instance started is counted, with the turns it saw."""

    started: list[list[int]] = []

    def __init__(self, wrong=None, dies=None, **kwargs):
        self.wrong, self.dies, self.alive = wrong, dies, True
        Game.started.append([])

    def start(self):
        return CallResult(Verdict.OK)

    def call(self, method, args, soft=None):
        if method == "setup":
            return CallResult(Verdict.OK)
        Game.started[-1].append(args["n"])
        if self.dies is not None and args["n"] >= self.dies:
            self.alive = False
            return CallResult(Verdict.KILLED, message="No answer after 3 s: the player was killed.")
        return CallResult(Verdict.OK, value="bad" if args["n"] == self.wrong else str(args["n"]))

    def close(self):
        self.alive = False


def _check(replies):
    bad = [r for r in replies[1:] if r == "bad"]
    return Mismatch(f"answered {bad[0]!r}") if bad else None


def _cases(lengths, line):
    """One game cut at each length: `turns` move calls after a setup; every answer is judged."""
    def case(turns):
        moves = [("move", {"n": n}) for n in range(1, turns)]
        return ProbeCase(f"{turns} turns", None, "move", {"n": turns}, check=_check, fresh=True,
                         setup=[("setup", {}), *moves], judge_all=True, line=line)
    return lambda game, seed: [case(t) for t in lengths]


@pytest.fixture
def assignment():
    return load_assignments(ROOT / "config.yaml")["doublecard"]


SUB = Submission(id="s", source=Path("."), staged=Path("."), content_hash="h")


def _probe(assignment, lengths, line, **player):
    Game.started = []
    return validation._probe(assignment, SUB, Probe("p", "P", 1.0, _cases(lengths, line)),
                             lambda **kw: Game(**player, **kw), workers=2)


@pytest.mark.parametrize("player", [{}, {"wrong": 3}, {"dies": 4}, {"wrong": 1}])
def test_a_line_is_played_once_and_judged_as_its_cases_alone(assignment, player):
    alone = _probe(assignment, [1, 5, 3, 8], None, **player)
    assert len(Game.started) == 4
    lined = _probe(assignment, [1, 5, 3, 8], "seat 0", **player)
    assert Game.started == [list(range(1, 9 if "dies" not in player else 5))]   # one process, the longest game
    assert (lined.passed, lined.points, lined.message, lined.failed_cases) == \
           (alone.passed, alone.points, alone.message, alone.failed_cases)


def test_lines_apart_are_apart_and_a_case_off_the_tape_is_played_for_real(assignment):
    def cases(game, seed):
        lined = _cases([2, 6], "a")(game, seed) + _cases([4], "b")(game, seed)
        off = ProbeCase("off", None, "move", {"n": 99}, check=_check, fresh=True,
                        setup=[("setup", {})], judge_all=True, line="a")      # not the start of line a's game
        return [*lined, off]

    Game.started = []
    check = validation._probe(assignment, SUB, Probe("p", "P", 1.0, cases), lambda **kw: Game(**kw), workers=2)
    assert check.passed, check.message
    assert sorted(Game.started) == [[1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [99]]


@pytest.mark.parametrize("prefork", [False, True])
def test_double_cards_legal_games_cost_one_process_per_seat(prefork):
    """The real check: the seven legal-move games are three lines (one per seat, and one more opening for
    the second seat), each one process."""
    a = load_assignments(ROOT / "config.yaml")["doublecard"]
    sub = load(ROOT / "submissions" / "doublecard" / "baseline_student", a.ruleset.entry, a.max_submission_mb)
    real = functools.partial(sandbox.PlayerProcess, prefork=True) if prefork else sandbox.PlayerProcess
    starts = []

    def counted(**kw):
        starts.append(kw["seed"])
        return real(**kw)

    probe = next(p for p in a.probes() if p.name == "legal_moves")
    check = validation._probe(a, sub, probe, counted, workers=2, seed=validation.probes_seed(40))
    assert check.passed, check.message
    assert check.cases == 7 and len(starts) == 3
