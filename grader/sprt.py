"""Does a player beat a baseline? Wald's sequential probability ratio test, as fastchess and
OpenBench decide matches, on the player's score per game (1 a win, ½ a draw, 0 a loss).

H1: the player scores p1 = ½ + margin a game ("beats it"); H0: it scores p0 = ½ − margin ("does
not"). After each game, in the order the games were scheduled, the log-likelihood ratio
Σ x·ln(p1/p0) + (1−x)·ln((1−p1)/(1−p0)) is compared with Wald's bounds ln((1−β)/α) and
ln(β/(1−α)) (α = β = `error`): above the first, "beats" with a chance below α of being wrong;
under the second, "does not beat" with a chance below β. The decision is taken at the first
game that crosses a bound, so games played after it (a seat-swapped twin, a game in flight)
never change it. A player strictly between p0 and p1 is in the indifference zone: either answer
is acceptable there, and `max_games` ends the test undecided.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

BEATS, DOES_NOT_BEAT, UNDECIDED = "beats", "does not beat", "undecided"


@dataclass(frozen=True)
class SprtSettings:
    error: float = 0.05             # α = β: the chance of either wrong decision
    margin: float = 0.1             # p1 = ½ + margin, p0 = ½ − margin
    max_games: int = 200            # per player and baseline; then the test stops undecided

    def __post_init__(self) -> None:
        if not 0 < self.error < 0.5:
            raise ValueError(f"error rate must be between 0 and 0.5, not {self.error:g}.")
        if not 0 < self.margin < 0.5:
            raise ValueError(f"margin must be between 0 and 0.5, not {self.margin:g}.")
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

    def sentence(self, baseline: str) -> str:
        """"beats greedy: 41 of 52 games, error below 5 %"."""
        score = f"{self.points:g} of {self.games} games"
        if self.verdict == UNDECIDED:
            return f"{baseline}: not decided after {score}"
        return f"{self.verdict} {baseline}: {score}, error below {self.error:.0%}"


def decide(scores: list[float], settings: SprtSettings) -> Decision:
    """The decision after the player's scores against one baseline, in schedule order."""
    p0, p1 = 0.5 - settings.margin, 0.5 + settings.margin
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
