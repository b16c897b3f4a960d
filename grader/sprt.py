"""Does a player beat a baseline? Wald's sequential probability ratio test, as fastchess and
OpenBench decide matches, on the player's score per game (1 a win, ½ a draw, 0 a loss).

H1: the player scores p1 = par + margin a game ("beats it"); H0: it scores p0 = par ("does not":
no better than par). par is ½ (as strong as the baseline), or a grading rule's `share`. So a
player exactly as strong as the baseline (one that plays at random against `random`) is found
"does not beat" with a chance of at least 1 − error: two such players get the same verdict, where
a symmetric test (p0 = ½ − margin) would toss a coin for each. After each game, in the order the
games were scheduled, the log-likelihood ratio
Σ x·ln(p1/p0) + (1−x)·ln((1−p1)/(1−p0)) is compared with Wald's bounds ln((1−β)/α) and
ln(β/(1−α)) (α = β = `error`): above the first, "beats" with a chance below α of being wrong;
under the second, "does not beat" with a chance below β. The decision is taken at the first
game that crosses a bound, so games played after it (a seat-swapped twin, a game in flight)
never change it. A player strictly between p0 and p1 is in the indifference zone: either answer
is acceptable there, and `max_games` ends the test undecided; the stated rule for an undecided
test is that it does not count as beating the baseline (the player did not show it does).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

BEATS, DOES_NOT_BEAT, UNDECIDED = "beats", "does not beat", "undecided"


@dataclass(frozen=True)
class SprtSettings:
    error: float = 0.05             # α = β: the chance of either wrong decision
    margin: float = 0.1             # p1 = par + margin
    max_games: int = 200            # per player and baseline; then the test stops undecided
    par: float = 0.5                # p0: the score a game that is not beating the baseline

    def __post_init__(self) -> None:
        if not 0 < self.par < 1:
            raise ValueError(f"share must be between 0 and 1, not {self.par:g}.")
        if not 0 < self.error < 0.5:
            raise ValueError(f"error rate must be between 0 and 0.5, not {self.error:g}.")
        if not 0 < self.margin < 0.5:
            raise ValueError(f"margin must be between 0 and 0.5, not {self.margin:g}.")
        if self.par + self.margin >= 1:
            raise ValueError(f"share plus margin must be below 1, not {self.par + self.margin:g}.")
        if self.max_games < 2:
            raise ValueError(f"max_games must be at least 2, not {self.max_games}.")

    @property
    def bounds(self) -> tuple[float, float]:
        a = b = self.error
        return math.log(b / (1 - a)), math.log((1 - b) / a)


@dataclass(frozen=True)
class Decision:
    verdict: str        # BEATS, DOES_NOT_BEAT or UNDECIDED
    games: int          # games counted (up to the deciding one)
    points: float       # the player's points in those games
    error: float        # the bound on the chance this verdict is wrong (UNDECIDED: the configured one)

    @property
    def decided(self) -> bool:
        return self.verdict != UNDECIDED

    @property
    def beats(self) -> bool:
        """The grade's answer: only a decided "beats" counts; undecided counts as not beating."""
        return self.verdict == BEATS

    def sentence(self, baseline: str) -> str:
        """"beats greedy: 41 of 52 games, error below 5%"; undecided says the rule it is graded by."""
        score = f"{self.points:g} of {self.games} games"
        if self.verdict == UNDECIDED:
            return f"{baseline}: not decided after {score}, so not counted as beating it"
        return f"{self.verdict} {baseline}: {score}, error below {self.error:.0%}"


def decide(scores: list[float], settings: SprtSettings) -> Decision:
    """The decision after the player's scores against one baseline, in schedule order."""
    p0, p1 = settings.par, settings.par + settings.margin
    win, loss = math.log(p1 / p0), math.log((1 - p1) / (1 - p0))
    lower, upper = settings.bounds
    llr, points = 0.0, 0.0
    for n, x in enumerate(scores[:settings.max_games], start=1):
        x = min(1.0, max(0.0, float(x)))
        llr += x * win + (1 - x) * loss
        points += x
        if llr >= upper:
            return Decision(BEATS, n, points, settings.error)
        if llr <= lower:
            return Decision(DOES_NOT_BEAT, n, points, settings.error)
    return Decision(UNDECIDED, min(len(scores), settings.max_games), points, settings.error)


def needs_more(scores: list[float], settings: SprtSettings) -> bool:
    """Whether another game would be played: undecided and under max_games."""
    return not decide(scores, settings).decided and len(scores) < settings.max_games
